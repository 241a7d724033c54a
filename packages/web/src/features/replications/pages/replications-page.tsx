import { CaretRightOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Progress,
  Row,
  Select,
  Space,
  Statistic,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip as ChartTooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  REPLICATION_DEFAULT_RANGE_DAYS,
  REPLICATION_MESSAGES,
  type Replication,
  type ReplicationRun,
  type ReplicationRunStatus,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { formatDateTime, formatRelative, formatTime } from '../../../components/time';
import { useDeployments } from '../../deployments';
import { useReplicationActions, useReplications, useRuns, type RunFilter } from '../api/replications';
import { ListEmpty } from '../../../components/list-empty';
import { LABELS, RunStatusTag, treeLink, RunOutputDialog } from '../components/run-output';
import { ReplicationForm } from '../components/replication-form';

function ConfiguredTab({ onOutput }: { onOutput: (id: string) => void }) {
  const replications = useReplications(5000);
  const actions = useReplicationActions();
  const [editing, setEditing] = useState<Replication | 'new'>();
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          New Replication
        </Button>
      </Space>
      <Table<Replication>
        rowKey="key"
        loading={replications.isPending}
        dataSource={replications.data ?? []}
        pagination={{ hideOnSinglePage: true, pageSize: 50 }}
        locale={{
          emptyText: (
            <ListEmpty query={replications} what="The replications">
              <Empty description="No replication yet. Register a deployment under Platform Deployments, then replicate a local repository to it or from it." />
            </ListEmpty>
          ),
        }}
        columns={[
          { title: 'Name', dataIndex: 'key', render: (key: string) => <Typography.Text strong>{key}</Typography.Text> },
          {
            title: 'Replicates',
            key: 'what',
            render: (_: unknown, r) => (
              <span>
                <Link to={treeLink(r.repo_key)}>{r.repo_key}</Link> {r.strategy === 'push' ? '→' : '←'} {r.deployment} /{' '}
                {r.remote_repo_key}
              </span>
            ),
          },
          {
            title: 'Strategy',
            dataIndex: 'strategy',
            width: 90,
            render: (s: string) => <Tag color={s === 'push' ? 'blue' : 'purple'}>{s}</Tag>,
          },
          {
            title: 'When',
            key: 'when',
            render: (_: unknown, r) => (
              <Space direction="vertical" size={0}>
                {r.cron && (
                  <Tooltip title={r.next_run ? `Next run ${formatDateTime(r.next_run)}` : undefined}>
                    <Typography.Text code>{r.cron}</Typography.Text>
                  </Tooltip>
                )}
                {r.event_based && <Typography.Text type="secondary">on every change</Typography.Text>}
              </Space>
            ),
          },
          {
            title: 'Last run',
            key: 'last',
            render: (_: unknown, r) =>
              r.last_run ? (
                <Space>
                  <RunStatusTag status={r.last_run.status} />
                  <Button type="link" size="small" onClick={() => onOutput(r.last_run!.id)}>
                    {formatRelative(r.last_run.started)}
                  </Button>
                </Space>
              ) : (
                <Typography.Text type="secondary">never</Typography.Text>
              ),
          },
          {
            title: 'Enabled',
            dataIndex: 'enabled',
            width: 90,
            render: (enabled: boolean, r) => (
              <Switch
                size="small"
                checked={enabled}
                aria-label={`Enable ${r.key}`}
                onChange={(on) =>
                  void runSafely(() =>
                    actions.update.mutateAsync({
                      ...r,
                      enabled: on,
                    }),
                  )
                }
              />
            ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 150,
            render: (_: unknown, r) => (
              <RowActions
                what={`replication ${r.key}`}
                onEdit={() => setEditing(r)}
                remove={{
                  run: () => actions.remove.mutateAsync(r.key),
                  consequence: 'Its schedule and history go; what was replicated stays on both sides.',
                  deleted: REPLICATION_MESSAGES.deleted,
                }}
              >
                <Tooltip title="Run now">
                  <Button
                    type="text"
                    icon={<CaretRightOutlined />}
                    aria-label={`Run ${r.key}`}
                    loading={actions.run.isPending && actions.run.variables === r.key}
                    onClick={() =>
                      actions.run.mutate(r.key, {
                        onSuccess: (answer) => {
                          notifySuccess(answer.message);
                          onOutput(answer.run_id);
                        },
                      })
                    }
                  />
                </Tooltip>
              </RowActions>
            ),
          },
        ]}
      />
      <ReplicationForm editing={editing} onClose={() => setEditing(undefined)} />
    </>
  );
}

function RunsTable({
  runs,
  loading,
  onOutput,
}: {
  runs: ReplicationRun[];
  loading: boolean;
  onOutput: (id: string) => void;
}) {
  return (
    <Table<ReplicationRun>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={runs}
      pagination={{ hideOnSinglePage: true, pageSize: 25 }}
      onRow={(run) => ({ onClick: () => onOutput(run.id), style: { cursor: 'pointer' } })}
      locale={{ emptyText: <Empty description="No runs in this range. Widen the range or run a replication now." /> }}
      columns={[
        { title: 'Started', dataIndex: 'started', render: (at: string) => formatDateTime(at) },
        { title: 'Replication', dataIndex: 'replication_key' },
        {
          title: 'Replicates',
          key: 'what',
          render: (_: unknown, r) =>
            `${r.repo_key} ${r.strategy === 'push' ? '→' : '←'} ${r.deployment} / ${r.remote_repo_key}`,
        },
        { title: 'Trigger', dataIndex: 'trigger', width: 100 },
        {
          title: 'Status',
          dataIndex: 'status',
          width: 130,
          render: (s: ReplicationRunStatus) => <RunStatusTag status={s} />,
        },
        {
          title: 'Files',
          key: 'files',
          render: (_: unknown, r) =>
            `${r.files_transferred} sent, ${r.files_deduplicated} by checksum, ${r.files_deleted} deleted${r.files_failed ? `, ${r.files_failed} failed` : ''}`,
        },
        { title: 'Bytes', dataIndex: 'bytes_transferred', width: 110, render: (b: number) => formatBytes(b) },
        {
          title: 'Output',
          key: 'output',
          width: 90,
          render: (_: unknown, r) => (
            <Button
              type="link"
              size="small"
              onClick={() => onOutput(r.id)}
              aria-label={`Output of the run of ${r.replication_key} at ${formatTime(r.started)}`}
            >
              Output
            </Button>
          ),
        },
      ]}
    />
  );
}

const weekAgo = () => dayjs().subtract(REPLICATION_DEFAULT_RANGE_DAYS, 'day');

function useFilter() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>([weekAgo(), dayjs()]);
  const [status, setStatus] = useState<string[]>([]);
  const [repo, setRepo] = useState<string[]>([]);
  const [deployment, setDeployment] = useState<string[]>([]);
  const [strategy, setStrategy] = useState<'push' | 'pull'>();
  const [enabled, setEnabled] = useState<'enabled' | 'disabled'>();
  const filter: RunFilter = {
    from: range[0].startOf('day').valueOf(),
    to: range[1].endOf('day').valueOf(),
    status,
    repo,
    deployment,
    strategy,
  };
  return {
    filter,
    range,
    setRange,
    status,
    setStatus,
    repo,
    setRepo,
    deployment,
    setDeployment,
    strategy,
    setStrategy,
    enabled,
    setEnabled,
  };
}

function Filters({ f }: { f: ReturnType<typeof useFilter> }) {
  const replications = useReplications();
  const deployments = useDeployments();
  const repos = [...new Set((replications.data ?? []).map((r) => r.repo_key))];
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      <DatePicker.RangePicker
        aria-label="Time"
        value={f.range}
        allowClear={false}
        disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
        onChange={(v) => v && v[0] && v[1] && f.setRange([v[0], v[1]])}
      />
      <Select
        mode="multiple"
        allowClear
        placeholder="Targets"
        aria-label="Targets"
        style={{ minWidth: 160 }}
        value={f.deployment}
        onChange={f.setDeployment}
        options={(deployments.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      />
      <Select
        mode="multiple"
        allowClear
        placeholder="Repositories"
        aria-label="Repositories"
        style={{ minWidth: 160 }}
        value={f.repo}
        onChange={f.setRepo}
        options={repos.map((r) => ({ value: r, label: r }))}
      />
      <Select
        mode="multiple"
        allowClear
        placeholder="Status"
        aria-label="Status"
        style={{ minWidth: 140 }}
        value={f.status}
        onChange={f.setStatus}
        options={Object.entries(LABELS).map(([value, label]) => ({ value, label }))}
      />
      <Select
        allowClear
        placeholder="Strategy"
        aria-label="Strategy"
        style={{ width: 120 }}
        value={f.strategy}
        onChange={f.setStrategy}
        options={[
          { value: 'push', label: 'Push' },
          { value: 'pull', label: 'Pull' },
        ]}
      />
      <Select
        allowClear
        placeholder="Enabled/Disabled"
        aria-label="Enabled or disabled"
        style={{ width: 190 }}
        value={f.enabled}
        onChange={f.setEnabled}
        options={[
          { value: 'enabled', label: 'Enabled' },
          { value: 'disabled', label: 'Disabled' },
        ]}
      />
    </Space>
  );
}

function useFilteredRuns(f: ReturnType<typeof useFilter>, refetch: number | false = false) {
  const runs = useRuns(f.filter, refetch);
  const replications = useReplications();
  const enabled = new Map((replications.data ?? []).map((r) => [r.key, r.enabled]));
  const data = (runs.data ?? []).filter(
    (r) => !f.enabled || (f.enabled === 'enabled') === (enabled.get(r.replication_key) ?? true),
  );
  return { runs, data };
}

function HistoryTab({ onOutput }: { onOutput: (id: string) => void }) {
  const f = useFilter();
  const { runs, data } = useFilteredRuns(f);
  const lastPull = data.reduce<string | null>(
    (max, r) => (r.finished && (!max || r.finished > max) ? r.finished : max),
    null,
  );
  return (
    <>
      <Filters f={f} />
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ReloadOutlined />} loading={runs.isFetching} onClick={() => void runs.refetch()}>
          Refresh
        </Button>
        <Typography.Text type="secondary">
          {`Last refresh ${runs.dataUpdatedAt ? formatTime(new Date(runs.dataUpdatedAt).toISOString()) : '—'} · Last data pull ${lastPull ? formatDateTime(lastPull) : '—'}`}
        </Typography.Text>
      </Space>
      {runs.isError ? (
        <LoadError what={REPLICATION_MESSAGES.rangeFailed} error={runs.error} onRetry={() => void runs.refetch()} />
      ) : (
        <RunsTable runs={data} loading={runs.isPending} onOutput={onOutput} />
      )}
    </>
  );
}

function MonitoringTab() {
  const f = useFilter();
  const { runs, data } = useFilteredRuns(f);
  const byDay = useMemo(() => {
    const days = new Map<string, { day: string; sent: number; checksum: number; bytes: number }>();
    for (const r of [...data].reverse()) {
      const day = dayjs(r.started).format('MM-DD');
      const entry = days.get(day) ?? { day, sent: 0, checksum: 0, bytes: 0 };
      entry.sent += r.files_transferred;
      entry.checksum += r.files_deduplicated;
      entry.bytes += r.bytes_transferred;
      days.set(day, entry);
    }
    return [...days.values()];
  }, [data]);
  const total = (key: keyof ReplicationRun) => data.reduce((sum, r) => sum + Number(r[key]), 0);
  const succeeded = data.filter((r) => r.status === 'success').length;
  const finished = data.filter((r) => r.status !== 'running').length;
  return (
    <>
      <Filters f={f} />
      {runs.isError && (
        <LoadError what={REPLICATION_MESSAGES.fetchFailed} error={runs.error} onRetry={() => void runs.refetch()} />
      )}
      <Row gutter={16} style={{ marginBottom: 16 }}>
        <Col span={6}>
          <Card size="small">
            <Statistic title="Runs" value={data.length} />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic title="Succeeded" value={finished ? Math.round((succeeded / finished) * 100) : 0} suffix="%" />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic title="Files sent" value={total('files_transferred')} />
          </Card>
        </Col>
        <Col span={6}>
          <Card size="small">
            <Statistic title="Bytes on the wire" value={formatBytes(total('bytes_transferred'))} />
          </Card>
        </Col>
      </Row>
      <Card size="small" title="Files per day">
        {byDay.length ? (
          <div style={{ height: 260 }}>
            <ResponsiveContainer>
              <BarChart data={byDay}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" />
                <YAxis allowDecimals={false} />
                <ChartTooltip />
                <Legend />
                <Bar dataKey="sent" name="Sent" stackId="a" fill="#1677ff" isAnimationActive={false} />
                <Bar
                  dataKey="checksum"
                  name="By checksum (no bytes)"
                  stackId="a"
                  fill="#389e0d"
                  isAnimationActive={false}
                />
              </BarChart>
            </ResponsiveContainer>
          </div>
        ) : (
          <Empty description="No runs in this range." />
        )}
      </Card>
    </>
  );
}

function RunningTab({ onOutput }: { onOutput: (id: string) => void }) {
  const runs = useRuns(
    {
      from: dayjs().subtract(1, 'day').valueOf(),
      to: dayjs().add(1, 'minute').valueOf(),
      status: ['running'],
      repo: [],
      deployment: [],
    },
    2000,
  );
  const running = (runs.data ?? []).filter((r) => r.trigger !== 'event');
  if (!running.length)
    return (
      <Empty description="Nothing is running. Runs start on their schedules, or with Run now on the Configured tab." />
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {running.map((r) => (
        <Card
          key={r.id}
          size="small"
          title={`${r.replication_key}: ${r.repo_key} ${r.strategy === 'push' ? '→' : '←'} ${r.deployment}`}
          extra={
            <Button size="small" onClick={() => onOutput(r.id)}>
              Output
            </Button>
          }
        >
          <Progress percent={r.files_total ? Math.floor((r.files_done / r.files_total) * 100) : 0} status="active" />
          <Typography.Text type="secondary">{`${r.files_done} of ${r.files_total} files · ${formatBytes(r.bytes_transferred)} sent · started ${formatRelative(r.started)}`}</Typography.Text>
        </Card>
      ))}
    </Space>
  );
}

/** Replications (`/admin/mission_control/replications`): Configured, Monitoring, Currently running, History. */
export function ReplicationsPage() {
  const [params, setParams] = useSearchParams();
  const [output, setOutput] = useState<string>();
  const tab = params.get('tab') ?? 'configured';
  return (
    <>
      <PageHeader
        title="Replications"
        description="Local repositories pushed to or pulled from other deployments, on a schedule or on every change. Only what differs moves; content the other side holds already is not sent again."
      />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key })}
          items={[
            { key: 'configured', label: 'Configured', children: <ConfiguredTab onOutput={setOutput} /> },
            { key: 'monitoring', label: 'Monitoring', children: <MonitoringTab /> },
            { key: 'running', label: 'Currently running', children: <RunningTab onOutput={setOutput} /> },
            { key: 'history', label: 'History', children: <HistoryTab onOutput={setOutput} /> },
          ]}
        />
      </Card>
      <RunOutputDialog id={output} onClose={() => setOutput(undefined)} />
    </>
  );
}
