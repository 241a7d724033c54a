import {
  DeleteOutlined,
  DatabaseOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { App, Button, Card, Space, Tabs, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RETENTION_MESSAGES, formatMessage, type ArchivePolicy } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ListToolbar } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useDeletePolicy, usePolicies, useStopPolicy, useTriggerPolicy } from '../api/retention';
import { ExecutionProgress, ExecutionState } from '../components/execution-state';
import { ExecutionsTable } from '../components/executions-table';
import { QueryTable } from '../../../components/query-table';

export const RETENTION_BASE = '/admin/artifactory/services/retention';
export const policyHref = (key?: string) => `${RETENTION_BASE}/edit${key ? `/${encodeURIComponent(key)}` : ''}`;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Retention policies (`/admin/artifactory/services/retention/policies`): what each policy
 * archives and when, its last run with its progress; run, stop or delete one; and the runs and
 * restores of the period in the second tab.
 */
export function RetentionPoliciesPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'executions' ? 'executions' : 'policies';
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Retention Policies"
        description="Policies move artifacts nobody needs any more to the cold store: they leave their repositories, stay searchable in the archive and come back, byte for byte, when restored."
        extra={
          <Space>
            <Button icon={<SearchOutlined />} onClick={() => navigate('/artifactoryRetention/search')}>
              Search the Archive
            </Button>
            <Button icon={<DatabaseOutlined />} onClick={() => navigate(`${RETENTION_BASE}/cold_storage_monitoring`)}>
              Cold Storage
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(policyHref())}>
              New Policy
            </Button>
          </Space>
        }
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'executions' ? { tab: key } : {}, { replace: true })}
        items={[
          { key: 'policies', label: 'Policies', children: <PoliciesTable /> },
          { key: 'executions', label: 'Executions', children: <ExecutionsTable /> },
        ]}
      />
    </>
  );
}

function PoliciesTable() {
  const policies = usePolicies();
  const trigger = useTriggerPolicy();
  const stop = useStopPolicy();
  const remove = useDeletePolicy();
  const { modal } = App.useApp();
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (policies.data ?? []).filter(
      (p) => !q || p.key.toLowerCase().includes(q) || p.description.toLowerCase().includes(q),
    );
  }, [policies.data, query]);

  const confirmRun = (policy: ArchivePolicy) =>
    modal.confirm({
      title: `Run ${policy.key} now?`,
      content:
        'Every artifact its query takes now leaves its repository for the cold store. Check its preview first if the repositories changed since it was written.',
      okText: 'Run Now',
      onOk: () =>
        runSafely(async () => {
          await trigger.mutateAsync(policy.key);
          notifySuccess(formatMessage(RETENTION_MESSAGES.triggered, { key: policy.key }));
        }),
    });
  const confirmStop = (policy: ArchivePolicy) =>
    modal.confirm({
      title: `Stop ${policy.key}?`,
      content:
        'The run stops after the artifact it is moving; what it archived stays archived, the rest stays where it is.',
      okText: 'Stop',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await stop.mutateAsync(policy.key);
          notifySuccess(formatMessage(RETENTION_MESSAGES.stopping, { key: policy.key }));
        }),
    });
  const confirmDelete = (policy: ArchivePolicy) =>
    modal.confirm({
      title: `Delete policy ${policy.key}?`,
      content: 'It will not run again. What it archived stays in the archive until restored or expired.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await remove.mutateAsync(policy.key);
          notifySuccess(formatMessage(RETENTION_MESSAGES.deleted, { key: policy.key }));
        }),
    });

  return (
    <Card>
      <ListToolbar
        query={query}
        onQuery={setQuery}
        placeholder="Filter by name or description"
        label="Filter policies"
        width={320}
      />
      <QueryTable<ArchivePolicy>
        rowKey="key"
        query={policies}
        rows={rows}
        noun={['policy', 'policies']}
        filter={query}
        emptyText="No retention policy yet. Create one to move old artifacts to the cold store on a schedule."
        columns={[
          {
            title: 'Name',
            dataIndex: 'key',
            sorter: (a, b) => a.key.localeCompare(b.key),
            defaultSortOrder: 'ascend',
            render: (key: string, row) => (
              <Space direction="vertical" size={0}>
                <Link to={policyHref(key)} style={{ fontWeight: 600 }} aria-label={`Edit ${key}`}>
                  {key}
                </Link>
                {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: 'Criteria',
            key: 'basis',
            width: 110,
            render: (_: unknown, row) => <StatusTag tone="info">{row.basis === 'aql' ? 'AQL' : 'Form'}</StatusTag>,
          },
          {
            title: 'Schedule',
            key: 'schedule',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{row.cronExp}</Typography.Text>
                {row.enabled && row.nextExecutionTime ? (
                  <Tooltip title={formatDateTime(iso(row.nextExecutionTime))}>
                    <Typography.Text type="secondary">
                      Next run {formatRelative(iso(row.nextExecutionTime))}
                    </Typography.Text>
                  </Tooltip>
                ) : (
                  <StatusTag tone="neutral">Disabled</StatusTag>
                )}
              </Space>
            ),
          },
          {
            title: 'Last run',
            key: 'last',
            render: (_: unknown, row) =>
              row.lastRunStatus ? (
                <Space direction="vertical" size={2}>
                  <Space size={6}>
                    <ExecutionState execution={row.lastRunStatus} />
                    <Tooltip title={formatDateTime(iso(row.lastRunStatus.startedAt))}>
                      <Typography.Text type="secondary">
                        {formatRelative(iso(row.lastRunStatus.startedAt))}
                      </Typography.Text>
                    </Tooltip>
                  </Space>
                  <ExecutionProgress execution={row.lastRunStatus} />
                </Space>
              ) : (
                <Typography.Text type="secondary">Never run</Typography.Text>
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 140,
            render: (_: unknown, row) => {
              const running = row.lastRunStatus !== null && row.lastRunStatus.endedAt === null;
              return (
                <Space>
                  {running ? (
                    <Tooltip title="Stop the run">
                      <Button
                        type="text"
                        icon={<PauseCircleOutlined />}
                        aria-label={`Stop ${row.key}`}
                        disabled={row.lastRunStatus?.state === 'STOPPING'}
                        onClick={() => confirmStop(row)}
                      />
                    </Tooltip>
                  ) : (
                    <Tooltip title={row.enabled ? 'Run now' : 'Enable the policy to run it'}>
                      <Button
                        type="text"
                        icon={<PlayCircleOutlined />}
                        aria-label={`Run ${row.key} now`}
                        disabled={!row.enabled}
                        onClick={() => confirmRun(row)}
                      />
                    </Tooltip>
                  )}
                  <Tooltip title={running ? 'Stop the run before deleting the policy' : 'Delete'}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${row.key}`}
                      disabled={running}
                      onClick={() => confirmDelete(row)}
                    />
                  </Tooltip>
                </Space>
              );
            },
          },
        ]}
      />
    </Card>
  );
}
