import { DeleteOutlined, HistoryOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  WEBHOOK_DOMAIN_LABELS,
  WEBHOOK_MESSAGES,
  formatMessage,
  type WebhookAnswer,
  type WebhookDomain,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ListToolbar } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useDeleteWebhook, useToggleWebhook, useWebhooks } from '../api/webhooks';
import { DeliveryState } from '../components/delivery-state';
import { QueryTable } from '../../../components/query-table';

export const webhookHref = (key: string) => `/admin/configuration/webhooks/edit/${encodeURIComponent(key)}`;
export const deliveriesHref = (key: string) => `/admin/configuration/webhooks/${encodeURIComponent(key)}/deliveries`;

/** Webhooks (`/admin/configuration/webhooks`): what each one listens to, where it sends, how its last delivery went. */
export function WebhooksPage() {
  const hooks = useWebhooks();
  const remove = useDeleteWebhook();
  const toggle = useToggleWebhook();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (hooks.data ?? []).filter(
      (h) =>
        !q ||
        h.key.toLowerCase().includes(q) ||
        h.description.toLowerCase().includes(q) ||
        h.handlers.some((x) => x.url.toLowerCase().includes(q)),
    );
  }, [hooks.data, query]);

  const confirmDelete = (hook: WebhookAnswer) =>
    modal.confirm({
      title: `Delete webhook ${hook.key}?`,
      content: 'Its deliveries and their log go with it; events waiting for it are not sent. This cannot be undone.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await remove.mutateAsync(hook.key);
          notifySuccess(formatMessage(WEBHOOK_MESSAGES.deleted, { name: hook.key }));
        }),
    });

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell CI servers, chat bots and scanners what happens in Arca: a signed JSON request for each event, retried until they answer."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/admin/configuration/webhooks/new')}>
            New Webhook
          </Button>
        }
      />
      <Card>
        <ListToolbar
          query={query}
          onQuery={setQuery}
          placeholder="Filter by name, description or URL"
          label="Filter webhooks"
          width={320}
        />
        <QueryTable<WebhookAnswer>
          rowKey="key"
          query={hooks}
          rows={rows}
          noun={['webhook', 'webhooks']}
          filter={query}
          emptyText="No webhooks yet. Create one to send deploys, builds or changes to another system."
          columns={[
            {
              title: 'Name',
              dataIndex: 'key',
              sorter: (a, b) => a.key.localeCompare(b.key),
              defaultSortOrder: 'ascend',
              render: (key: string, row) => (
                <Space direction="vertical" size={0}>
                  <Link to={webhookHref(key)} style={{ fontWeight: 600 }} aria-label={`Edit ${key}`}>
                    {key}
                  </Link>
                  {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
                </Space>
              ),
            },
            {
              title: 'Events',
              key: 'events',
              render: (_: unknown, row) => (
                <Space size={[4, 4]} wrap>
                  <Tag color="blue">{WEBHOOK_DOMAIN_LABELS[row.event_filter.domain as WebhookDomain]}</Tag>
                  {row.event_filter.event_types.map((t) => (
                    <Tag key={t}>{t}</Tag>
                  ))}
                </Space>
              ),
            },
            {
              title: 'URL',
              key: 'url',
              render: (_: unknown, row) => (
                <Typography.Text code ellipsis={{ tooltip: row.handlers[0]?.url }} style={{ maxWidth: 280 }}>
                  {row.handlers[0]?.url}
                </Typography.Text>
              ),
            },
            {
              title: 'Enabled',
              dataIndex: 'enabled',
              width: 100,
              render: (enabled: boolean, row) => (
                <Switch
                  checked={enabled}
                  size="small"
                  aria-label={`${enabled ? 'Disable' : 'Enable'} ${row.key}`}
                  loading={toggle.isPending && toggle.variables?.hook.key === row.key}
                  onChange={(next) =>
                    void runSafely(async () => {
                      await toggle.mutateAsync({ hook: row, enabled: next });
                      notifySuccess(`Webhook ${row.key} is ${next ? 'enabled' : 'disabled'}`);
                    })
                  }
                />
              ),
            },
            {
              title: 'Last delivery',
              key: 'last',
              width: 230,
              render: (_: unknown, row) =>
                row.last_delivery ? (
                  <Space size={6} style={{ whiteSpace: 'nowrap' }}>
                    <DeliveryState state={row.last_delivery.state} status={row.last_delivery.status} />
                    <Tooltip title={formatDateTime(row.last_delivery.at)}>
                      <Typography.Text type="secondary">{formatRelative(row.last_delivery.at)}</Typography.Text>
                    </Tooltip>
                  </Space>
                ) : (
                  <Typography.Text type="secondary">None yet</Typography.Text>
                ),
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 120,
              render: (_: unknown, row) => (
                <Space>
                  <Tooltip title="Delivery log">
                    <Button
                      type="text"
                      icon={<HistoryOutlined />}
                      aria-label={`Delivery log of ${row.key}`}
                      onClick={() => navigate(deliveriesHref(row.key))}
                    />
                  </Tooltip>
                  <Tooltip title="Delete">
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${row.key}`}
                      onClick={() => confirmDelete(row)}
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
