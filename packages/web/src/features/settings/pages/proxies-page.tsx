import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type ProxyAnswer } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ListToolbar } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { useDeleteProxy, useProxies } from '../api/proxies';
import { QueryTable } from '../../../components/query-table';

export const PROXIES_PATH = '/admin/proxies/configuration/list';
export const proxyHref = (key: string) => `/admin/proxies/configuration/edit/${encodeURIComponent(key)}`;

/** Proxies (`/admin/proxies/configuration/list`): the HTTP proxies remote repositories and webhooks go through. */
export function ProxiesPage() {
  const proxies = useProxies();
  const remove = useDeleteProxy();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (proxies.data ?? []).filter(
      (p) => !q || p.key.toLowerCase().includes(q) || p.host.toLowerCase().includes(q),
    );
  }, [proxies.data, query]);

  const confirmDelete = (proxy: ProxyAnswer) =>
    modal.confirm({
      title: `Delete proxy ${proxy.key}?`,
      content: proxy.defaultProxy
        ? 'It is the default proxy: remote repositories and webhooks that name none then connect directly.'
        : 'This cannot be undone.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await remove.mutateAsync(proxy.key);
          notifySuccess(`Proxy ${proxy.key} was deleted`);
        }),
    });

  return (
    <>
      <PageHeader
        title="Proxies"
        description="The HTTP proxies remote repositories and webhooks reach the internet through. The default proxy serves every one that names none."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/admin/proxies/configuration/new')}>
            New Proxy
          </Button>
        }
      />
      <Card>
        <ListToolbar
          query={query}
          onQuery={setQuery}
          placeholder="Filter by key or host"
          label="Filter proxies"
          width={300}
        />
        <QueryTable<ProxyAnswer>
          rowKey="key"
          query={proxies}
          rows={rows}
          noun={['proxy', 'proxies']}
          filter={query}
          emptyText="No proxies yet. Add one when remote repositories and webhooks must go through your company’s proxy."
          columns={[
            {
              title: 'Key',
              dataIndex: 'key',
              sorter: (a, b) => a.key.localeCompare(b.key),
              defaultSortOrder: 'ascend',
              render: (key: string, row) => (
                <Space size={8}>
                  <Link to={proxyHref(key)} style={{ fontWeight: 600 }} aria-label={`Edit ${key}`}>
                    {key}
                  </Link>
                  {row.defaultProxy && <Tag color="blue">Default</Tag>}
                </Space>
              ),
            },
            {
              title: 'Host',
              key: 'host',
              render: (_: unknown, row) => (
                <Typography.Text code>
                  {row.host}:{row.port}
                </Typography.Text>
              ),
            },
            {
              title: 'Authentication',
              key: 'auth',
              render: (_: unknown, row) =>
                row.username ? (
                  <Typography.Text>
                    {row.domain ? `${row.domain}\\` : ''}
                    {row.username}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">None</Typography.Text>
                ),
            },
            {
              title: 'Used by',
              key: 'usedBy',
              render: (_: unknown, row) =>
                row.usedBy.length ? (
                  <Tooltip title={row.usedBy.join(', ')}>
                    <Typography.Text>
                      {row.usedBy.length} {row.usedBy.length === 1 ? 'user' : 'users'}
                    </Typography.Text>
                  </Tooltip>
                ) : (
                  <Typography.Text type="secondary">
                    {row.defaultProxy ? 'Everything without a proxy' : 'Nothing'}
                  </Typography.Text>
                ),
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 90,
              render: (_: unknown, row) => (
                <Tooltip title={row.usedBy.length ? `In use by ${row.usedBy.join(', ')}` : 'Delete'}>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Delete ${row.key}`}
                    disabled={row.usedBy.length > 0}
                    onClick={() => confirmDelete(row)}
                  />
                </Tooltip>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
