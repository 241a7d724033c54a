import { SearchOutlined } from '@ant-design/icons';
import { Card, Empty, Input, Table, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DEFAULT_LIST_PAGE_SIZE, type UserListItem } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useUsers } from '../api/get-users';

const byText = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '');

/** The real users of this deployment: name, e-mail, admin flag and last login. */
export function UsersPage() {
  const users = useUsers();
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (users.data ?? []).filter(
      (u) => !q || u.name.toLowerCase().includes(q) || (u.email ?? '').toLowerCase().includes(q),
    );
  }, [users.data, query]);

  return (
    <>
      <PageHeader title="Users" description="Everyone who can sign in to this deployment." />
      <Card>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder="Filter by name or e-mail"
          aria-label="Filter users"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          style={{ maxWidth: 340, marginBottom: 16 }}
        />
        <Table<UserListItem>
          rowKey="name"
          loading={users.isPending}
          dataSource={rows}
          pagination={{
            pageSize: DEFAULT_LIST_PAGE_SIZE,
            hideOnSinglePage: true,
            showTotal: (n) => `${n} user${n === 1 ? '' : 's'}`,
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  query
                    ? `No user matches “${query.trim()}”.`
                    : users.isError
                      ? 'The users could not be loaded.'
                      : 'No users yet.'
                }
              />
            ),
          }}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              sorter: (a, b) => byText(a.name, b.name),
              defaultSortOrder: 'ascend',
              render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
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
                  {admin ? <StatusTag tone="info">Admin</StatusTag> : <StatusTag tone="neutral">User</StatusTag>}
                  {row.disableUIAccess && <StatusTag tone="warning">No UI access</StatusTag>}
                </>
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
    </>
  );
}
