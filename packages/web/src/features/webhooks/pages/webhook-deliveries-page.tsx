import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  EditOutlined,
  EyeOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Col,
  Collapse,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryState } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useDeliveries, useDelivery, useResend, useWebhook } from '../api/webhooks';
import { DeliveryState } from '../components/delivery-state';
import { webhookHref } from './webhooks-page';
import { ListEmpty } from '../../../components/list-empty';

const PAGE_SIZE = 50;

/** A webhook's delivery log: every event sent (or waiting), its attempts, re-send one or all failed. */
export function WebhookDeliveriesPage() {
  const { webhookName = '' } = useParams();
  const hook = useWebhook(webhookName);
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [state, setState] = useState<WebhookDeliveryState>();
  const [eventType, setEventType] = useState<string>();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const deliveries = useDeliveries(webhookName, {
    ...(state ? { state } : {}),
    ...(eventType ? { eventType } : {}),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  // the totals per state, for the figures above the log
  const delivered = useDeliveries(webhookName, { state: 'delivered', limit: 1, offset: 0 });
  const pending = useDeliveries(webhookName, { state: 'pending', limit: 1, offset: 0 });
  const failed = useDeliveries(webhookName, { state: 'failed', limit: 1, offset: 0 });
  const totals = { delivered, pending, failed };
  const resend = useResend(webhookName);

  const resendOne = (id: string) =>
    void runSafely(async () => {
      const answer = await resend.mutateAsync(id);
      notifySuccess(answer.message);
    });
  const resendFailed = () =>
    modal.confirm({
      title: `Re-send ${totals.failed.data?.total ?? 0} failed deliveries?`,
      content: 'They are sent again in event order; the receiver may get events it has already seen.',
      okText: 'Re-send',
      onOk: () =>
        runSafely(async () => {
          const answer = await resend.mutateAsync(undefined);
          notifySuccess(answer.message);
        }),
    });

  if (hook.isPending) return <Skeleton active />;
  if (hook.isError)
    return <LoadError page what={`Webhook ${webhookName}`} error={hook.error} onRetry={() => void hook.refetch()} />;

  return (
    <>
      <PageHeader
        title={`Deliveries of ${webhookName}`}
        description={
          <>
            Every event sent to <Typography.Text code>{hook.data.handlers[0]?.url}</Typography.Text>, with the request
            and the receiver’s answer. Kept 30 days.
          </>
        }
        extra={
          <Space>
            <Button icon={<EditOutlined />} onClick={() => navigate(webhookHref(webhookName))}>
              Edit webhook
            </Button>
            <Button
              icon={<RedoOutlined />}
              disabled={!totals.failed.data?.total}
              loading={resend.isPending && resend.variables === undefined}
              onClick={resendFailed}
            >
              Re-send all failed
            </Button>
          </Space>
        }
      />
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {(
          [
            ['delivered', 'Delivered', <CheckCircleOutlined key="i" aria-hidden style={{ color: '#1d5e06' }} />],
            [
              'pending',
              'Waiting or retrying',
              <ClockCircleOutlined key="i" aria-hidden style={{ color: '#7a4a00' }} />,
            ],
            ['failed', 'Failed', <CloseCircleOutlined key="i" aria-hidden style={{ color: '#9b1c1c' }} />],
          ] as const
        ).map(([key, label, icon]) => (
          <Col key={key} xs={24} sm={8}>
            <Card size="small">
              <Statistic
                title={label}
                value={totals[key].data?.total ?? 0}
                loading={totals[key].isPending}
                prefix={icon}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Select
            allowClear
            placeholder="Any state"
            aria-label="Filter by state"
            style={{ width: 180 }}
            value={state}
            onChange={(v) => (setState(v), setPage(1))}
            options={[
              { value: 'pending', label: 'Waiting or retrying' },
              { value: 'delivered', label: 'Delivered' },
              { value: 'failed', label: 'Failed' },
            ]}
          />
          <Select
            allowClear
            placeholder="Any event"
            aria-label="Filter by event"
            style={{ width: 180 }}
            value={eventType}
            onChange={(v) => (setEventType(v), setPage(1))}
            options={hook.data.event_filter.event_types.map((t) => ({ value: t, label: t }))}
          />
        </Flex>
        <Table<WebhookDelivery>
          rowKey="id"
          loading={deliveries.isPending}
          dataSource={deliveries.data?.deliveries ?? []}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: deliveries.data?.total ?? 0,
            hideOnSinglePage: true,
            showSizeChanger: false,
            onChange: setPage,
            showTotal: (n) => `${n} deliver${n === 1 ? 'y' : 'ies'}`,
          }}
          locale={{
            emptyText: (
              <ListEmpty query={deliveries} what="The deliveries">
                <Empty
                  description={
                    state || eventType
                      ? 'No delivery matches these filters.'
                      : 'Nothing sent yet. Deliveries appear here as soon as a matching event happens.'
                  }
                />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Event time',
              dataIndex: 'createdAt',
              render: (at: string) => (
                <Tooltip title={formatDateTime(at)}>
                  <span>{formatRelative(at)}</span>
                </Tooltip>
              ),
            },
            { title: 'Event', dataIndex: 'eventType', render: (t: string, row) => <Tag>{`${row.domain} ${t}`}</Tag> },
            {
              title: 'State',
              key: 'state',
              render: (_: unknown, row) => <DeliveryState state={row.state} status={row.lastStatus} />,
            },
            { title: 'Attempts', dataIndex: 'attempts', width: 100 },
            {
              title: 'Last answer',
              key: 'answer',
              render: (_: unknown, row) =>
                row.lastError ? (
                  <Typography.Text type="secondary" ellipsis={{ tooltip: row.lastError }} style={{ maxWidth: 280 }}>
                    {row.lastError}
                  </Typography.Text>
                ) : row.state === 'pending' && row.nextAttemptAt ? (
                  <Typography.Text type="secondary">Next attempt {formatRelative(row.nextAttemptAt)}</Typography.Text>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 120,
              render: (_: unknown, row) => (
                <Space>
                  <Tooltip title="Request and response">
                    <Button
                      type="text"
                      icon={<EyeOutlined />}
                      aria-label="View delivery"
                      onClick={() => setOpen(row.id)}
                    />
                  </Tooltip>
                  <Tooltip title="Re-send">
                    <Button
                      type="text"
                      icon={<RedoOutlined />}
                      aria-label="Re-send delivery"
                      loading={resend.isPending && resend.variables === row.id}
                      onClick={() => resendOne(row.id)}
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <DeliveryDrawer webhookKey={webhookName} id={open} onClose={() => setOpen(undefined)} onResend={resendOne} />
    </>
  );
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (!entries.length) return <Typography.Text type="secondary">None</Typography.Text>;
  return (
    <pre className="arca-viewer" style={{ maxHeight: 180 }}>
      {entries.map(([name, value]) => `${name}: ${value}`).join('\n')}
    </pre>
  );
}

function AttemptView({ attempt }: { attempt: WebhookAttempt }) {
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Descriptions size="small" column={2}>
        <Descriptions.Item label="Sent">{formatDateTime(attempt.at)}</Descriptions.Item>
        <Descriptions.Item label="Took">{attempt.durationMs} ms</Descriptions.Item>
        <Descriptions.Item label="URL" span={2}>
          <Typography.Text code>{attempt.request.url}</Typography.Text>
        </Descriptions.Item>
        {attempt.error && (
          <Descriptions.Item label="Outcome" span={2}>
            {attempt.error}
          </Descriptions.Item>
        )}
      </Descriptions>
      <Typography.Text strong>Request headers</Typography.Text>
      <Headers headers={attempt.request.headers} />
      <Typography.Text strong>Response</Typography.Text>
      {attempt.response ? (
        <>
          <Headers headers={attempt.response.headers} />
          <pre className="arca-viewer" style={{ maxHeight: 240 }}>
            {attempt.response.body || '(empty body)'}
          </pre>
        </>
      ) : (
        <Typography.Text type="secondary">No answer</Typography.Text>
      )}
    </Space>
  );
}

function DeliveryDrawer({
  webhookKey,
  id,
  onClose,
  onResend,
}: {
  webhookKey: string;
  id: string | undefined;
  onClose: () => void;
  onResend: (id: string) => void;
}) {
  const detail = useDelivery(webhookKey, id);
  const d = detail.data;
  return (
    <Drawer
      open={Boolean(id)}
      onClose={onClose}
      size="large"
      title={d ? `${d.domain} ${d.eventType}` : 'Delivery'}
      extra={
        d && (
          <Button icon={<RedoOutlined />} onClick={() => onResend(d.id)}>
            Re-send
          </Button>
        )
      }
    >
      {detail.isPending ? (
        <Skeleton active />
      ) : detail.isError || !d ? (
        <LoadError what="The delivery" error={detail.error} onRetry={() => void detail.refetch()} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="State">
              <DeliveryState state={d.state} status={d.lastStatus} />
            </Descriptions.Item>
            <Descriptions.Item label="Attempts">{d.attempts}</Descriptions.Item>
            <Descriptions.Item label="Event id" span={2}>
              <Typography.Text code copyable>
                {d.eventId}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="Event time" span={2}>
              {formatDateTime(d.createdAt)}
            </Descriptions.Item>
          </Descriptions>
          <div>
            <Typography.Text strong>Payload</Typography.Text>
            <pre className="arca-viewer" style={{ maxHeight: 280 }}>
              {pretty(d.payload)}
            </pre>
          </div>
          <div>
            <Typography.Text strong>Attempts</Typography.Text>
            {d.attemptsLog.length ? (
              <Collapse
                style={{ marginTop: 8 }}
                defaultActiveKey={[d.attemptsLog.at(-1)!.id]}
                items={[...d.attemptsLog].reverse().map((a) => ({
                  key: a.id,
                  label: (
                    <Space>
                      <span>Attempt {a.attempt}</span>
                      {a.status !== null ? (
                        <StatusTag tone={a.status < 300 ? 'success' : 'error'}>{a.status}</StatusTag>
                      ) : (
                        <StatusTag tone="error">No answer</StatusTag>
                      )}
                      <Typography.Text type="secondary">{formatRelative(a.at)}</Typography.Text>
                    </Space>
                  ),
                  children: <AttemptView attempt={a} />,
                }))}
              />
            ) : (
              <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                Not sent yet.
              </Typography.Paragraph>
            )}
          </div>
        </Space>
      )}
    </Drawer>
  );
}
