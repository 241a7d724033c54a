import { Alert, Checkbox, Col, Empty, Form, Input, Row, Select, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  LDAP_GROUP_STRATEGIES,
  LDAP_MESSAGES,
  LDAP_STRATEGY_LABELS,
  type LdapDirectoryGroup,
  type LdapGroupSetting,
  type LdapGroupSettingBody,
  type LdapSetting,
} from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { messagesOf } from '../../../lib/server-errors';
import { useDirectoryGroups, useLdapActions } from '../api/ldap';
import { REQUIRED } from '../../../lib/schema-rules';

const NEW: LdapGroupSettingBody = {
  name: '',
  ldapSettingKey: '',
  groupBaseDn: 'ou=groups',
  groupNameAttribute: 'cn',
  groupMemberAttribute: 'member',
  subTree: true,
  filter: '(objectClass=groupOfNames)',
  descriptionAttribute: 'description',
  strategy: 'STATIC',
};

/** The form of a group setting: where the directory's groups are and how members are found. */
export function GroupSettingModal({
  editing,
  settings,
  onClose,
}: {
  editing: LdapGroupSetting | 'new';
  settings: LdapSetting[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<LdapGroupSettingBody>();
  const { saveGroups } = useLdapActions();
  const existing = editing === 'new' ? undefined : editing;
  const strategy = Form.useWatch('strategy', form) ?? existing?.strategy ?? 'STATIC';
  return (
    <FormModal<LdapGroupSettingBody>
      open
      title={existing ? `Edit Group Setting ${existing.name}` : 'New Group Setting'}
      okText={existing ? 'Save' : 'Create'}
      form={form}
      width={720}
      failureText="The group setting was not saved"
      initialValues={existing ?? { ...NEW, ldapSettingKey: settings[0]?.key ?? '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        const saved = await saveGroups.mutateAsync({ body: values, replaces: existing?.name });
        notifySuccess(`Group setting ${saved.name} was saved`);
      }}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="Name"
            name="name"
            rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: LDAP_MESSAGES.keyInvalid }]}
          >
            <Input placeholder="corp-groups" autoFocus={!existing} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="LDAP setting" name="ldapSettingKey" rules={[REQUIRED]}>
            <Select options={settings.map((s) => ({ value: s.key, label: s.key }))} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="Strategy" name="strategy">
        <Select options={LDAP_GROUP_STRATEGIES.map((s) => ({ value: s, label: LDAP_STRATEGY_LABELS[s] }))} />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="Group base DN"
            name="groupBaseDn"
            extra={strategy === 'HIERARCHICAL' ? 'The units below it are groups, e.g. ou=people' : 'e.g. ou=groups'}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label=" " name="subTree" valuePropName="checked">
            <Checkbox>Search the whole subtree</Checkbox>
          </Form.Item>
        </Col>
        {strategy !== 'HIERARCHICAL' && (
          <>
            <Col span={12}>
              <Form.Item label="Group name attribute" name="groupNameAttribute">
                <Input />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                label="Group member attribute"
                name="groupMemberAttribute"
                extra={
                  strategy === 'DYNAMIC' ? "The user's attribute naming its groups: memberOf" : 'member or uniqueMember'
                }
              >
                <Input />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="Filter" name="filter">
                <Input />
              </Form.Item>
            </Col>
          </>
        )}
        <Col span={12}>
          <Form.Item label="Description attribute" name="descriptionAttribute">
            <Input />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}

/** The directory's groups under a group setting: the chosen ones become Arca groups. */
export function ImportGroupsModal({ setting, onClose }: { setting: LdapGroupSetting; onClose: () => void }) {
  const [form] = Form.useForm();
  const found = useDirectoryGroups(setting.name);
  const { importGroups } = useLdapActions();
  const [chosen, setChosen] = useState<string[]>([]);
  return (
    <FormModal
      open
      title={`Import Groups of ${setting.name}`}
      okText={`Import ${chosen.length || ''} ${chosen.length === 1 ? 'Group' : 'Groups'}`.replace('  ', ' ')}
      okDisabled={chosen.length === 0}
      form={form}
      width={760}
      failureText="The groups were not imported"
      onClose={onClose}
      intro={
        <Typography.Paragraph type="secondary">
          Imported groups take part in permissions like any other; their members follow the directory at each sign-in.
          Give them rights on the <Link to="/admin/management/permissions">Permissions</Link> page.
        </Typography.Paragraph>
      }
      onSubmit={async () => {
        const { imported } = await importGroups.mutateAsync({ name: setting.name, names: chosen });
        notifySuccess(imported.length ? `Imported ${imported.join(', ')}` : 'The groups were imported already');
      }}
    >
      {found.isPending ? (
        <Skeleton active />
      ) : found.isError ? (
        <Alert type="error" showIcon message={messagesOf(found.error).join(' ')} />
      ) : (
        <Table<LdapDirectoryGroup>
          rowKey="name"
          size="small"
          dataSource={found.data}
          pagination={{ hideOnSinglePage: true, pageSize: 50 }}
          rowSelection={{
            selectedRowKeys: chosen,
            onChange: (keys) => setChosen(keys as string[]),
            getCheckboxProps: (row) => ({ disabled: row.imported, 'aria-label': `Import ${row.name}` }),
          }}
          locale={{ emptyText: <Empty description="The directory has no groups under this setting." /> }}
          columns={[
            { title: 'Group', dataIndex: 'name', render: (n: string) => <Typography.Text strong>{n}</Typography.Text> },
            { title: 'Description', dataIndex: 'description' },
            { title: 'DN', dataIndex: 'dn', ellipsis: true },
            {
              title: 'In Arca',
              dataIndex: 'imported',
              width: 100,
              render: (imported: boolean) => (imported ? <Tag color="green">Imported</Tag> : '—'),
            },
          ]}
        />
      )}
    </FormModal>
  );
}
