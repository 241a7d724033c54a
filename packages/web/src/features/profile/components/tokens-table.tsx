import { App, Button, Empty, Table, Tooltip, Typography } from 'antd';
import type { AccessToken } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative, isPast } from '../../../components/time';
import { useRevokeToken } from '../api/tokens';
import { runSafely } from '../../../api/client';
import { LoadError } from '../../../components/load-error';

const when = (at: string | null, none: string) =>
  at ? (
    <Tooltip title={formatDateTime(at)}>
      <span>{formatRelative(at)}</span>
    </Tooltip>
  ) : (
    <Typography.Text type="secondary">{none}</Typography.Text>
  );

/** Access tokens with their state and a revoke action (asks first). */
export function TokensTable({
  tokens,
  loading,
  showOwner,
  emptyText,
  failure,
}: {
  tokens: AccessToken[];
  loading: boolean;
  showOwner: boolean;
  emptyText: string;
  /** The list's query when it failed: the table shows why, with a retry. */
  failure?: { error: unknown; retry: () => void };
}) {
  const revoke = useRevokeToken();
  const { modal } = App.useApp();
  const confirm = (token: AccessToken) =>
    modal.confirm({
      title: `Revoke “${token.description}”?`,
      content: 'Clients using this token are refused from their next request. This cannot be undone.',
      okText: 'Revoke',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(() => revoke.mutateAsync(token.id).then(() => notifySuccess(`Revoked “${token.description}”`))),
    });
  return (
    <Table<AccessToken>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={tokens}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      locale={{
        emptyText: failure ? (
          <LoadError what="The tokens" error={failure.error} onRetry={failure.retry} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
        ),
      }}
      columns={[
        ...(showOwner ? [{ title: 'User', dataIndex: 'user', render: (u: string) => <strong>{u}</strong> }] : []),
        { title: 'Description', dataIndex: 'description' },
        {
          title: 'Scope',
          dataIndex: 'scope',
          render: (scope: string) =>
            scope === 'applied-permissions/user' ? 'Full user rights' : `Groups: ${scope.split(':')[1] ?? ''}`,
        },
        { title: 'Created', dataIndex: 'createdAt', render: (at: string) => when(at, '') },
        {
          title: 'Expires',
          dataIndex: 'expiresAt',
          render: (at: string | null) =>
            at && isPast(at) ? <StatusTag tone="error">Expired</StatusTag> : when(at, 'Never'),
        },
        { title: 'Last used', dataIndex: 'lastUsedAt', render: (at: string | null) => when(at, 'Never') },
        {
          title: 'Actions',
          key: 'revoke',
          align: 'right',
          render: (_: unknown, token) => (
            <Button danger size="small" onClick={() => confirm(token)} aria-label={`Revoke ${token.description}`}>
              Revoke
            </Button>
          ),
        },
      ]}
    />
  );
}
