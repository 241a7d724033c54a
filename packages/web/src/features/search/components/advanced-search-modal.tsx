import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Checkbox, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTreeRepos } from '../../artifacts';
import { useAvailablePackages, usePackageFields, usePropertyKeys } from '../api/search';
import {
  CONSOLE_SEARCH_TYPES,
  changeType,
  invalidReason,
  type ConsoleSearchType,
  type SearchModel,
} from '../search-model';

export interface AdvancedSearchModalProps {
  open: boolean;
  initial: SearchModel;
  onCancel(): void;
  onSearch(model: SearchModel): void;
}

/** The advanced search: each type's own fields (Maven coordinates, package fields, properties, classes …) and the repositories. */
export function AdvancedSearchModal({ open, initial, onCancel, onSearch }: AdvancedSearchModalProps) {
  const [model, setModel] = useState(initial);
  // each opening starts from the search it was opened with; later renders of the caller change nothing
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) setModel(initial);
    wasOpen.current = open;
  }, [open, initial]);
  const update = (change: Partial<SearchModel>) => setModel((m) => ({ ...m, ...change }));
  const reason = invalidReason(model);
  const repos = useTreeRepos();
  const repoChoice = model.searchType !== 'remote' && model.searchType !== 'trash';

  return (
    <Modal
      open={open}
      title="Advanced search"
      width={640}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" gap={12}>
          <Typography.Text type="secondary" role="status">
            {reason ?? ' '}
          </Typography.Text>
          <Flex gap={8}>
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="primary" disabled={Boolean(reason)} onClick={() => onSearch(model)}>
              Search
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Form layout="vertical" onFinish={() => !reason && onSearch(model)} component="div">
        <Form.Item label="Search type" htmlFor="advanced-search-type">
          <Select
            id="advanced-search-type"
            value={model.searchType}
            onChange={(value: ConsoleSearchType) => setModel(changeType(model, value))}
            options={CONSOLE_SEARCH_TYPES.filter((t) => t.name !== 'archive').map((t) => ({
              value: t.name,
              label: t.displayName,
            }))}
          />
        </Form.Item>
        <TypeFields model={model} update={update} />
        {repoChoice && (
          <Form.Item
            label="Repositories"
            htmlFor="advanced-search-repos"
            extra="None selected: every repository you can read."
          >
            <Select
              id="advanced-search-repos"
              mode="multiple"
              allowClear
              loading={repos.isLoading}
              value={model.repositories}
              onChange={(repositories: string[]) => update({ repositories })}
              options={(repos.data ?? [])
                .filter((r) => r.repoType !== 'trashcan')
                .map((r) => ({ value: r.repoKey, label: `${r.repoKey} (${r.pkgType})` }))}
              placeholder="All repositories"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function TypeFields({ model, update }: { model: SearchModel; update(change: Partial<SearchModel>): void }) {
  const text = (key: keyof SearchModel, label: string, placeholder?: string) => (
    <Form.Item label={label} htmlFor={`advanced-${key}`}>
      <Input
        id={`advanced-${key}`}
        value={model[key] as string}
        placeholder={placeholder}
        onChange={(e) => update({ [key]: e.target.value })}
      />
    </Form.Item>
  );
  switch (model.searchType) {
    case 'quick':
      return text('name', 'Name', 'Artifact name; * and ? are wildcards');
    case 'remote':
      return text('name', 'Search the remote repositories’ upstreams for', 'lodash, org.slf4j:slf4j-api …');
    case 'trash':
      return (
        <>
          {text('name', model.isChecksum ? 'Checksum' : 'Name', model.isChecksum ? 'SHA-1, MD5 or SHA-256' : 'Name')}
          <Checkbox checked={model.isChecksum} onChange={(e) => update({ isChecksum: e.target.checked })}>
            Search by checksum
          </Checkbox>
        </>
      );
    case 'checksum':
      return text('checksum', 'Checksum', 'SHA-1 (40), MD5 (32) or SHA-256 (64 characters)');
    case 'class':
      return (
        <>
          {text('name', 'Class name', 'StringUtils, org.acme.*Service')}
          {text('path', 'Package', 'org.apache.commons')}
          <Flex gap={24}>
            <Checkbox
              checked={model.excludeInnerClasses}
              onChange={(e) => update({ excludeInnerClasses: e.target.checked })}
            >
              Exclude inner classes
            </Checkbox>
            <Checkbox checked={model.searchClassOnly} onChange={(e) => update({ searchClassOnly: e.target.checked })}>
              Class name only
            </Checkbox>
          </Flex>
        </>
      );
    case 'gavc':
      return (
        <>
          {text('groupID', 'Group ID', 'org.apache.commons')}
          {text('artifactID', 'Artifact ID', 'commons-lang3')}
          {text('version', 'Version', '3.*')}
          {text('classifier', 'Classifier', 'sources')}
        </>
      );
    case 'property':
      return <PropertyFields model={model} update={update} />;
    case 'package':
      return <PackageFields model={model} update={update} />;
  }
}

function PropertyFields({ model, update }: { model: SearchModel; update(change: Partial<SearchModel>): void }) {
  const keys = usePropertyKeys(true);
  const rows = model.properties.length ? model.properties : [{ key: '', values: [] }];
  const set = (index: number, change: Partial<{ key: string; values: string[] }>) =>
    update({ properties: rows.map((row, i) => (i === index ? { ...row, ...change } : row)) });
  return (
    <Form.Item label="Properties" extra="A value may use * and ?; several values of one key: any of them.">
      <Flex vertical gap={8}>
        {rows.map((row, index) => (
          <Flex key={index} gap={8} align="center">
            <AutoComplete
              aria-label={`Property key ${index + 1}`}
              style={{ width: 200 }}
              value={row.key}
              onChange={(key: string) => set(index, { key })}
              options={(keys.data ?? []).map((k) => ({ value: k.key }))}
              placeholder="Key"
              filterOption={(input, option) => String(option?.value ?? '').includes(input)}
            />
            <Select
              aria-label={`Values of property ${index + 1}`}
              mode="tags"
              style={{ flex: 1 }}
              value={row.values}
              onChange={(values: string[]) => set(index, { values })}
              options={(keys.data?.find((k) => k.key === row.key)?.values ?? []).map((v) => ({ value: v }))}
              placeholder="Values"
            />
            <Button
              type="text"
              aria-label={`Remove property ${index + 1}`}
              icon={<MinusCircleOutlined />}
              disabled={rows.length === 1}
              onClick={() => update({ properties: rows.filter((_, i) => i !== index) })}
            />
          </Flex>
        ))}
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => update({ properties: [...rows, { key: '', values: [] }] })}
        >
          Add a property
        </Button>
      </Flex>
    </Form.Item>
  );
}

function PackageFields({ model, update }: { model: SearchModel; update(change: Partial<SearchModel>): void }) {
  const types = useAvailablePackages();
  const fields = usePackageFields(model.packageType);
  const valueOf = (id: string) => model.packageQuery.find((q) => q.id === id)?.values[0] ?? '';
  const setValue = (id: string, text: string) =>
    update({
      packageQuery: [...model.packageQuery.filter((q) => q.id !== id), ...(text ? [{ id, values: [text] }] : [])],
    });
  return (
    <>
      <Form.Item label="Package type" htmlFor="advanced-package-type">
        <Select
          id="advanced-package-type"
          value={model.packageType}
          loading={types.isLoading}
          onChange={(packageType: string) => update({ packageType, packageQuery: [] })}
          options={(types.data ?? [{ id: 'all', displayName: 'All' }]).map((t) => ({
            value: t.id,
            label: t.displayName,
          }))}
        />
      </Form.Item>
      {(fields.data ?? []).map((field) => (
        <Form.Item key={field.id} label={field.displayName} htmlFor={`advanced-field-${field.id}`}>
          <Input
            id={`advanced-field-${field.id}`}
            value={valueOf(field.id)}
            placeholder={field.default ? 'At least 3 characters; * and ? are wildcards' : 'Any'}
            onChange={(e) => setValue(field.id, e.target.value)}
          />
        </Form.Item>
      ))}
    </>
  );
}
