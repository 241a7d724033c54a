import { DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Empty, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import {
  AUDIT_CATEGORIES,
  AUDIT_CATEGORY_LABELS,
  DEFAULT_LIST_PAGE_SIZE,
  type AuditCategory,
  type AuditEvent,
} from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { auditExportUrl, useAuditEvents } from '../api/audit';
import { ChangeDetails } from '../components/change-details';
import { ListEmpty } from '../../../components/list-empty';

/** Every sign-in and every administrative change; exports what the filters select. */
export function AuditTrailPage() {
  const [category, setCategory] = useState<AuditCategory | undefined>();
  const [outcome, setOutcome] = useState<'success' | 'failure' | undefined>();
  const [q, setQ] = useState('');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_LIST_PAGE_SIZE);
  const filters = {
    category,
    outcome,
    q: q.trim(),
    from: range?.[0]?.startOf('day').valueOf(),
    to: range?.[1]?.endOf('day').valueOf(),
  };
  const events = useAuditEvents({ ...filters, page, pageSize });
  const filtered = Boolean(category || outcome || q.trim() || range);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return (
    <>
      <PageHeader
        title="Audit Trail"
        description="Who signed in, from where, and who changed users, groups, permissions, tokens, projects, repositories, licenses or settings."
        extra={
          <Space>
            <Button icon={<DownloadOutlined />} href={auditExportUrl('csv', filters)} download>
              Export CSV
            </Button>
            <Button icon={<DownloadOutlined />} href={auditExportUrl('json', filters)} download>
              Export JSON
            </Button>
          </Space>
        }
      />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search user, target, action or address"
            aria-label="Search the audit trail"
            value={q}
            onChange={(e) => reset(setQ)(e.target.value)}
            style={{ width: 300 }}
          />
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="All categories"
            aria-label="Category"
            value={category}
            onChange={reset(setCategory)}
            style={{ width: 180 }}
            options={AUDIT_CATEGORIES.map((c) => ({ value: c, label: AUDIT_CATEGORY_LABELS[c] }))}
          />
          <Select
            allowClear
            placeholder="Any outcome"
            aria-label="Outcome"
            value={outcome}
            onChange={reset(setOutcome)}
            style={{ width: 150 }}
            options={[
              { value: 'success', label: 'Succeeded' },
              { value: 'failure', label: 'Failed' },
            ]}
          />
          <DatePicker.RangePicker
            value={range}
            onChange={(v) => reset(setRange)(v as [Dayjs | null, Dayjs | null] | null)}
            disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
            aria-label="Date range"
          />
        </Space>
        <Table<AuditEvent>
          rowKey="id"
          size="middle"
          loading={events.isFetching}
          dataSource={events.data?.events ?? []}
          expandable={{
            columnTitle: <span className="arca-sr-only">Details</span>,
            expandedRowRender: (event) => <ChangeDetails event={event} />,
          }}
          pagination={{
            current: page,
            pageSize,
            total: events.data?.total ?? 0,
            showSizeChanger: true,
            hideOnSinglePage: false,
            showTotal: (n) => `${n} event${n === 1 ? '' : 's'}`,
            onChange: (p, size) => {
              setPage(size === pageSize ? p : 1);
              setPageSize(size);
            },
          }}
          locale={{
            emptyText: (
              <ListEmpty query={events} what="The audit trail">
                <Empty
                  description={
                    events.isError
                      ? 'The audit trail could not be loaded.'
                      : filtered
                        ? 'No event matches these filters.'
                        : 'Nothing has happened yet: sign-ins and changes will appear here.'
                  }
                />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'When',
              dataIndex: 'at',
              width: 170,
              render: (at: string) => (
                <Tooltip title={formatDateTime(at)}>
                  <span>{formatRelative(at)}</span>
                </Tooltip>
              ),
            },
            { title: 'User', dataIndex: 'actor', render: (actor: string) => <strong>{actor}</strong> },
            {
              title: 'Category',
              dataIndex: 'category',
              render: (c: AuditCategory) => AUDIT_CATEGORY_LABELS[c],
            },
            { title: 'Action', dataIndex: 'action' },
            {
              title: 'Target',
              dataIndex: 'target',
              render: (target: string) => <Typography.Text code>{target}</Typography.Text>,
            },
            {
              title: 'Outcome',
              dataIndex: 'outcome',
              render: (o: string) =>
                o === 'success' ? (
                  <StatusTag tone="success">Succeeded</StatusTag>
                ) : (
                  <StatusTag tone="error">Failed</StatusTag>
                ),
            },
            { title: 'Source address', dataIndex: 'sourceIp' },
          ]}
        />
      </Card>
    </>
  );
}
