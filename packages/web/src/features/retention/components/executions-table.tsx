import { UnorderedListOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Drawer, Empty, Flex, Segmented, Space, Table, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import type { Execution, ExecutionItem } from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatDuration, formatRelative } from '../../../components/time';
import { useExecutionItems, useExecutions } from '../api/retention';
import { ExecutionProgress, ExecutionState } from './execution-state';
import { ListEmpty } from '../../../components/list-empty';

const iso = (ms: number) => new Date(ms).toISOString();
const ITEM_STATES: { value: ExecutionItem['state'] | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'failed', label: 'Failed' },
  { value: 'done', label: 'Moved' },
  { value: 'skipped', label: 'Skipped' },
  { value: 'pending', label: 'Waiting' },
];

/**
 * The archive runs and the restores of a period (the last week by default), those under way
 * first with their progress; each one's items with their errors in a drawer.
 */
export function ExecutionsTable() {
  const [kind, setKind] = useState<'archive' | 'restore'>('archive');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(7, 'day').startOf('day'),
    dayjs().endOf('day'),
  ]);
  const from = range[0].startOf('day').valueOf();
  const to = range[1].endOf('day').valueOf();
  const executions = useExecutions(kind, from, to);
  const [open, setOpen] = useState<Execution | undefined>();
  const rows = [...(executions.data ?? [])].sort(
    (a, b) => Number(a.endedAt !== null) - Number(b.endedAt !== null) || b.startedAt - a.startedAt,
  );
  return (
    <Card>
      <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
        <Segmented
          aria-label="Operation"
          value={kind}
          onChange={(value) => setKind(value as 'archive' | 'restore')}
          options={[
            { value: 'archive', label: 'Archiving' },
            { value: 'restore', label: 'Restoring' },
          ]}
        />
        <DatePicker.RangePicker
          aria-label="Started between"
          allowClear={false}
          value={range}
          onChange={(value) => value?.[0] && value[1] && setRange([value[0], value[1]])}
        />
      </Flex>
      <Table<Execution>
        rowKey="migrationIdentifier"
        loading={executions.isPending}
        dataSource={rows}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{
          emptyText: (
            <ListEmpty query={executions} what="The executions">
              <Empty
                description={
                  kind === 'archive'
                    ? 'No policy ran in this period. Run one from the Policies tab, or widen the period.'
                    : 'Nothing was restored in this period. Restore archived artifacts from the archive search.'
                }
              />
            </ListEmpty>
          ),
        }}
        columns={[
          {
            title: 'Operation',
            key: 'operation',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{row.label}</Typography.Text>
                <Typography.Text type="secondary">{row.policyName ?? `by ${row.startedBy}`}</Typography.Text>
              </Space>
            ),
          },
          { title: 'State', key: 'state', render: (_: unknown, row) => <ExecutionState execution={row} /> },
          { title: 'Artifacts', key: 'progress', render: (_: unknown, row) => <ExecutionProgress execution={row} /> },
          { title: 'Size', dataIndex: 'bytes', render: (bytes: number) => formatBytes(bytes) },
          {
            title: 'Started',
            dataIndex: 'startedAt',
            render: (at: number) => (
              <Tooltip title={formatDateTime(iso(at))}>
                <span>{formatRelative(iso(at))}</span>
              </Tooltip>
            ),
          },
          {
            title: 'Took',
            key: 'took',
            render: (_: unknown, row) =>
              row.endedAt === null ? (
                <Typography.Text type="secondary">Running</Typography.Text>
              ) : (
                formatDuration(Math.max(1, Math.round((row.endedAt - row.startedAt) / 1000)))
              ),
          },
          {
            title: 'Message',
            dataIndex: 'message',
            render: (message: string | null) =>
              message ? <Typography.Text type="secondary">{message}</Typography.Text> : null,
          },
          {
            title: '',
            key: 'items',
            width: 60,
            render: (_: unknown, row) => (
              <Tooltip title="Artifacts of this run">
                <Button
                  type="text"
                  icon={<UnorderedListOutlined />}
                  aria-label={`Artifacts of the ${row.label.toLowerCase()} run started ${formatDateTime(iso(row.startedAt))}`}
                  onClick={() => setOpen(row)}
                />
              </Tooltip>
            ),
          },
        ]}
      />
      <Drawer
        open={open !== undefined}
        onClose={() => setOpen(undefined)}
        width={720}
        title={open ? `${open.label}${open.policyName ? ` — ${open.policyName}` : ''}` : ''}
        destroyOnHidden
      >
        {open && <ExecutionItems execution={open} />}
      </Drawer>
    </Card>
  );
}

function ExecutionItems({ execution }: { execution: Execution }) {
  const [state, setState] = useState<ExecutionItem['state'] | 'all'>(execution.failed ? 'failed' : 'all');
  const [page, setPage] = useState(1);
  const items = useExecutionItems(execution.migrationIdentifier, state === 'all' ? undefined : state, (page - 1) * 50);
  return (
    <>
      <Segmented
        aria-label="Show"
        value={state}
        options={ITEM_STATES}
        onChange={(value) => {
          setState(value as ExecutionItem['state'] | 'all');
          setPage(1);
        }}
        style={{ marginBottom: 12 }}
      />
      <Table<ExecutionItem>
        rowKey={(row) => `${row.repoKey}/${row.path}`}
        size="small"
        loading={items.isPending}
        dataSource={items.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: 50,
          total: items.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{ emptyText: <Empty description="No artifact in this state." /> }}
        columns={[
          {
            title: 'Artifact',
            key: 'path',
            render: (_: unknown, row) => <Typography.Text code>{`${row.repoKey}/${row.path}`}</Typography.Text>,
          },
          { title: 'Size', dataIndex: 'size', width: 90, render: (size: number) => formatBytes(size) },
          {
            title: 'Result',
            key: 'state',
            render: (_: unknown, row) => (
              <Space direction="vertical" size={0}>
                <StatusTag tone={row.state === 'done' ? 'success' : row.state === 'failed' ? 'error' : 'neutral'}>
                  {ITEM_STATES.find((s) => s.value === row.state)?.label}
                </StatusTag>
                {row.error && <Typography.Text type="secondary">{row.error}</Typography.Text>}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
