import { RollbackOutlined, SearchOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  RETENTION_MESSAGES,
  RETENTION_SEARCH_LIMIT,
  formatMessage,
  type ArchiveSearch,
  type ArchivedItem,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { formatBytes } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { formatDate, formatDateTime } from '../../../components/time';
import { useArchiveSearch, useLocalRepositories, useRestore } from '../api/retention';
import { RETENTION_BASE } from './retention-policies-page';
import { ListEmpty } from '../../../components/list-empty';

const DAY = 'YYYY-MM-DD';
const iso = (ms: number) => new Date(ms).toISOString();
const keyOf = (item: Pick<ArchivedItem, 'repo' | 'path'>) => `${item.repo}/${item.path}`;

/** The search as the address holds it; the archive range of today when none is given (spec part 2 §9). */
function searchOf(params: URLSearchParams): ArchiveSearch {
  const today = dayjs().format(DAY);
  return {
    name: params.get('name') ?? '',
    repositories: params.getAll('repo'),
    path: params.get('path') ?? '',
    after: params.has('after') ? params.get('after') || null : today,
    before: params.has('before') ? params.get('before') || null : today,
  };
}

/**
 * Archive search (`/artifactoryRetention/search`): archived artifacts by name, repository, path
 * and the days they were archived; restore the chosen ones to where they were or elsewhere.
 */
export function ArchiveSearchPage() {
  const [params, setParams] = useSearchParams();
  const search = searchOf(params);
  const results = useArchiveSearch(search);
  const repositories = useLocalRepositories();
  const navigate = useNavigate();
  const [form] = Form.useForm<{ name: string; repositories: string[]; path: string; range: [Dayjs, Dayjs] | null }>();
  const [selected, setSelected] = useState<string[]>([]);
  const [restoring, setRestoring] = useState<ArchivedItem[] | undefined>();
  const rows = results.data?.results ?? [];

  const submit = (v: { name: string; repositories: string[]; path: string; range: [Dayjs, Dayjs] | null }) => {
    const next = new URLSearchParams();
    if (v.name) next.set('name', v.name.trim());
    for (const repo of v.repositories ?? []) next.append('repo', repo);
    if (v.path) next.set('path', v.path.trim());
    next.set('after', v.range?.[0] ? v.range[0].format(DAY) : '');
    next.set('before', v.range?.[1] ? v.range[1].format(DAY) : '');
    setSelected([]);
    setParams(next);
  };

  const total = results.data?.total ?? 0;
  const summary = results.data?.limited ? `Showing first ${RETENTION_SEARCH_LIMIT} matches found` : `${total} item(s)`;

  return (
    <>
      <PageHeader
        title="Archive Search"
        description="Artifacts retention policies moved to the cold store. Restore puts them back with their properties and checksums."
        extra={<Button onClick={() => navigate(`${RETENTION_BASE}/policies`)}>Retention Policies</Button>}
      />
      <Card style={{ marginBottom: 20 }}>
        <Form
          form={form}
          layout="inline"
          aria-label="Search the archive"
          style={{ rowGap: 12 }}
          initialValues={{
            name: search.name,
            repositories: search.repositories,
            path: search.path,
            range:
              search.after && search.before
                ? [dayjs(String(search.after), DAY), dayjs(String(search.before), DAY)]
                : null,
          }}
          onFinish={submit}
        >
          <Form.Item name="name" label="Name">
            <Input placeholder="*.jar" allowClear style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="repositories" label="Repositories">
            <Select
              mode="multiple"
              allowClear
              style={{ minWidth: 220 }}
              placeholder="All"
              loading={repositories.isPending}
              options={(repositories.data ?? []).map((r) => ({ value: r.repoKey, label: r.repoKey }))}
            />
          </Form.Item>
          <Form.Item name="path" label="Path">
            <Input placeholder="com/acme" allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="range" label="Archived">
            <DatePicker.RangePicker allowEmpty={[true, true]} format={DAY} aria-label="Archived between" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              Search
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Card
        title={results.data ? summary : 'Results'}
        extra={
          <Button
            icon={<RollbackOutlined />}
            disabled={!selected.length}
            onClick={() => setRestoring(rows.filter((r) => selected.includes(keyOf(r))))}
          >
            Restore{selected.length ? ` ${selected.length}` : ''}
          </Button>
        }
      >
        <Table<ArchivedItem>
          rowKey={keyOf}
          loading={results.isFetching}
          dataSource={rows}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{
            emptyText: (
              <ListEmpty query={results} what="The archive search">
                <Empty description="Nothing archived matches. Widen the dates or clear the other fields." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
            },
            { title: 'Repository', dataIndex: 'repo' },
            {
              title: 'Path',
              dataIndex: 'path',
              render: (path: string) => <Typography.Text code>{path}</Typography.Text>,
            },
            { title: 'Size', dataIndex: 'size', width: 90, render: (size: number) => formatBytes(size) },
            { title: 'Created', dataIndex: 'created', render: (at: number) => formatDate(iso(at)) },
            {
              title: 'Archived',
              dataIndex: 'archived',
              render: (at: number, row) => (
                <Tooltip title={`${formatDateTime(iso(at))}${row.policyName ? ` by policy ${row.policyName}` : ''}`}>
                  <span>{formatDate(iso(at))}</span>
                </Tooltip>
              ),
            },
            {
              title: 'Deleted from archive',
              dataIndex: 'expires',
              render: (at: number | null) =>
                at ? formatDate(iso(at)) : <Typography.Text type="secondary">Never</Typography.Text>,
            },
            {
              title: '',
              key: 'restore',
              width: 60,
              render: (_: unknown, row) => (
                <Tooltip title="Restore">
                  <Button
                    type="text"
                    icon={<RollbackOutlined />}
                    aria-label={`Restore ${keyOf(row)}`}
                    onClick={() => setRestoring([row])}
                  />
                </Tooltip>
              ),
            },
          ]}
        />
      </Card>
      {restoring && (
        <RestoreDialog
          items={restoring}
          onClose={(done) => {
            setRestoring(undefined);
            if (done) setSelected([]);
          }}
        />
      )}
    </>
  );
}

/** Spec part 1 §3: restore to the original place (with a fallback), or everything to one destination. */
function RestoreDialog({ items, onClose }: { items: ArchivedItem[]; onClose: (done: boolean) => void }) {
  const restore = useRestore();
  const navigate = useNavigate();
  const [form] = Form.useForm<{
    restoreToOriginal: boolean;
    fallbackDestinationPath: string;
    centralDestinationPath: string;
  }>();
  const toOriginal = (Form.useWatch('restoreToOriginal', form) as boolean | undefined) ?? true;
  const submit = async (v: {
    restoreToOriginal: boolean;
    fallbackDestinationPath?: string;
    centralDestinationPath?: string;
  }) => {
    const ok = await runSafely(async () => {
      await restore.mutateAsync({
        restoreToOriginal: v.restoreToOriginal,
        fallbackDestinationPath: v.fallbackDestinationPath ?? '',
        centralDestinationPath: v.centralDestinationPath ?? '',
        itemsToRestore: items.map((i) => ({ repoKey: i.repo, path: i.path })),
      });
      notifySuccess(formatMessage(RETENTION_MESSAGES.restoreStarted, { count: String(items.length) }));
    });
    if (ok) {
      onClose(true);
      navigate(`${RETENTION_BASE}/policies?tab=executions`);
    }
  };
  const destination = { pattern: /^[^/\s]+(\/.*)?$/, message: RETENTION_MESSAGES.restoreDestination };
  return (
    <Modal
      open
      title={items.length === 1 ? `Restore ${items[0]!.name}` : `Restore ${items.length} artifacts`}
      okText="Restore"
      okButtonProps={{ loading: restore.isPending }}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ restoreToOriginal: true, fallbackDestinationPath: '', centralDestinationPath: '' }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="restoreToOriginal" label="Where to">
          <Radio.Group
            options={[
              { value: true, label: 'Restore to the original location' },
              { value: false, label: 'Restore everything to one place' },
            ]}
          />
        </Form.Item>
        {toOriginal ? (
          <Form.Item
            name="fallbackDestinationPath"
            label="Fallback destination"
            extra="Where an artifact goes when its repository no longer takes it: <repository>/<folder>. Leave empty to report those as failed."
            rules={[destination]}
          >
            <Input placeholder="libs-restored/archive" />
          </Form.Item>
        ) : (
          <Form.Item
            name="centralDestinationPath"
            label="Destination"
            extra="Each artifact goes to <repository>/<folder>/<its repository>/<its path>."
            rules={[{ required: true, message: RETENTION_MESSAGES.restoreCentralRequired }, destination]}
          >
            <Input placeholder="libs-restored/archive" />
          </Form.Item>
        )}
        <Alert
          type="info"
          showIcon
          message="A file already at a destination is not overwritten: that artifact is reported as failed and stays archived."
        />
      </Form>
    </Modal>
  );
}
