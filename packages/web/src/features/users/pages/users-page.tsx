import { PlusOutlined, UnlockOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { type UserListItem } from '@arca/contracts';
import { ListToolbar, useBulkDelete } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative, formatTime } from '../../../components/time';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { useUnlockUsers } from '../api/unlock-users';
import { useUsers } from '../../../lib/queries/directory';
import { useDeleteUsers } from '../api/delete-users';
import { UserModal } from '../components/user-modal';
import { useStartupData } from '../../../lib/startup';
import { NotFoundResult } from '../../../components/not-found-result';
import { QueryTable } from '../../../components/query-table';

const byText = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '');

/** The users of this deployment: list, search, create, edit and bulk delete. */
export function UsersPage() {
  const users = useUsers();
  const remove = useDeleteUsers();
  const { user: me } = useStartupData();
  const [query, setQuery] = useState('');
  // the editor follows the route: /new, /edit/:name (admin.management.users.new / .edit)
  const { name: editName } = useParams();
  const creating = useLocation().pathname.endsWith('/new');
  const navigate = useNavigate();
  const editedUser = editName ? users.data?.find((u) => u.name === editName) : undefined;
  const closeEditor = () => navigate('/admin/management/users');
  const { selected, setSelected, confirmDelete } = useBulkDelete({
    noun: 'user',
    consequence: (names) => `${names} will no longer be able to sign in. This cannot be undone.`,
    remove: (names) => remove.mutateAsync(names),
  });
  const unlock = useUnlockUsers();
  const lockedNames = new Set((users.data ?? []).filter((u) => u.lockedUntil).map((u) => u.name));
  const lockedSelected = selected.filter((n) => lockedNames.has(n));
  const lockedCount = lockedNames.size;
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (users.data ?? []).filter(
      (u) => !q || u.name.toLowerCase().includes(q) || (u.email ?? '').toLowerCase().includes(q),
    );
  }, [users.data, query]);

  if (editName && users.data && !editedUser) {
    return (
      <NotFoundResult
        title={`User '${editName}' was not found`}
        backTo="/admin/management/users"
        backLabel="Back to Users"
      />
    );
  }
  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in to this deployment."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/admin/management/users/new')}>
            New User
          </Button>
        }
      />
      <Card>
        <ListToolbar
          query={query}
          onQuery={setQuery}
          placeholder="Filter by name or e-mail"
          label="Filter users"
          selectedCount={selected.length}
          onDelete={confirmDelete}
          extra={
            lockedSelected.length > 0 && (
              <Button
                icon={<UnlockOutlined />}
                loading={unlock.isPending}
                onClick={() =>
                  void runSafely(async () => {
                    await unlock.mutateAsync(lockedSelected);
                    notifySuccess(`Unlocked ${lockedSelected.join(', ')}`);
                  })
                }
              >
                Unlock ({lockedSelected.length})
              </Button>
            )
          }
        />
        {lockedCount > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${lockedCount} user${lockedCount === 1 ? ' is' : 's are'} locked after too many failed sign-ins`}
            description="Select them and choose Unlock, or open one to unlock it. A lock also ends on its own at the time shown."
          />
        )}
        <QueryTable<UserListItem>
          rowKey="name"
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ disabled: row.name === me?.name, 'aria-label': `Select ${row.name}` }),
          }}
          query={users}
          rows={rows}
          noun={['user', 'users']}
          filter={query}
          emptyText="No users yet. Create one, or connect a directory or a single sign-on provider."
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              sorter: (a, b) => byText(a.name, b.name),
              defaultSortOrder: 'ascend',
              render: (name: string, row) => (
                <Button
                  type="link"
                  style={{ padding: 0, fontWeight: 600 }}
                  onClick={() => navigate(`/admin/management/users/edit/${encodeURIComponent(row.name)}`)}
                  aria-label={`Edit ${name}`}
                >
                  {name}
                </Button>
              ),
            },
            {
              title: 'E-mail',
              dataIndex: 'email',
              sorter: (a, b) => byText(a.email, b.email),
              render: (email: string | null) => email ?? <Typography.Text type="secondary">—</Typography.Text>,
            },
            {
              title: 'Role',
              dataIndex: 'admin',
              sorter: (a, b) => Number(a.admin) - Number(b.admin),
              render: (admin: boolean, row) => (
                <>
                  {admin ? (
                    <StatusTag tone="info">Admin</StatusTag>
                  ) : row.adminViaGroup ? (
                    <Tooltip title="Administrator through a group with administrator privileges">
                      <span>
                        <StatusTag tone="info">Admin (group)</StatusTag>
                      </span>
                    </Tooltip>
                  ) : (
                    <StatusTag tone="neutral">User</StatusTag>
                  )}
                  {row.lockedUntil && (
                    <Tooltip title={`Too many failed sign-ins: locked until ${formatDateTime(row.lockedUntil)}`}>
                      <span>
                        <StatusTag tone="error">Locked until {formatTime(row.lockedUntil)}</StatusTag>
                      </span>
                    </Tooltip>
                  )}
                  {row.disableUIAccess && <StatusTag tone="warning">No UI access</StatusTag>}
                  {row.mfaEnrolled && <StatusTag tone="success">2FA</StatusTag>}
                </>
              ),
            },
            {
              title: 'Groups',
              dataIndex: 'groups',
              render: (groups: string[]) =>
                groups.length ? (
                  <Typography.Text ellipsis={{ tooltip: groups.join(', ') }} style={{ maxWidth: 200 }}>
                    {groups.join(', ')}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            { title: 'Realm', dataIndex: 'realm' },
            {
              title: 'Last login',
              dataIndex: 'lastLoggedIn',
              sorter: (a, b) => byText(a.lastLoggedIn, b.lastLoggedIn),
              render: (at: string | null) =>
                at ? (
                  <Tooltip title={formatDateTime(at)}>
                    <span>{formatRelative(at)}</span>
                  </Tooltip>
                ) : (
                  <Typography.Text type="secondary">Never</Typography.Text>
                ),
            },
          ]}
        />
      </Card>
      <UserModal open={creating || editedUser !== undefined} user={editedUser} onClose={closeEditor} />
    </>
  );
}
