import { DeleteOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Input, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { DEFAULT_LIST_PAGE_SIZE, type Group } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { useDeleteGroups, useGroups } from '../api/groups';
import { GroupModal } from '../components/group-modal';

/** Groups of users: list, search, create, edit and bulk delete. */
export function GroupsPage() {
  const groups = useGroups();
  const remove = useDeleteGroups();
  const { modal } = App.useApp();
  // the editor follows the route: /new, /edit/:name (admin.management.groups.new / .edit)
  const { name: editName } = useParams();
  const creating = useLocation().pathname.endsWith('/new');
  const navigate = useNavigate();
  const editedGroup = editName ? groups.data?.find((g) => g.name === editName) : undefined;
  const close = () => navigate('/admin/management/groups');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const confirmDelete = () =>
    modal.confirm({
      title: `Delete ${selected.length} group${selected.length === 1 ? '' : 's'}?`,
      content: `${selected.join(', ')} will be removed, with their memberships and permissions. This cannot be undone.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        remove.mutateAsync(selected).then(() => {
          notifySuccess(`Deleted ${selected.join(', ')}`);
          setSelected([]);
        }),
    });
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (groups.data ?? []).filter(
      (g) => !q || g.name.toLowerCase().includes(q) || g.description.toLowerCase().includes(q),
    );
  }, [groups.data, query]);

  return (
    <>
      <PageHeader
        title="Groups"
        description="Give permissions to many users at once; members get every right of their groups."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/admin/management/groups/new')}>
            New Group
          </Button>
        }
      />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Filter by name or description"
            aria-label="Filter groups"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ width: 300 }}
          />
          <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={confirmDelete}>
            Delete{selected.length ? ` (${selected.length})` : ''}
          </Button>
        </Space>
        <Table<Group>
          rowKey="name"
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ 'aria-label': `Select ${row.name}` }),
          }}
          loading={groups.isPending}
          dataSource={rows}
          pagination={{
            pageSize: DEFAULT_LIST_PAGE_SIZE,
            hideOnSinglePage: true,
            showTotal: (n) => `${n} group${n === 1 ? '' : 's'}`,
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  query
                    ? `No group matches “${query.trim()}”.`
                    : groups.isError
                      ? 'The groups could not be loaded.'
                      : 'No groups yet. Create one to give permissions to several users at once.'
                }
              />
            ),
          }}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              sorter: (a, b) => a.name.localeCompare(b.name),
              defaultSortOrder: 'ascend',
              render: (name: string, row) => (
                <Button
                  type="link"
                  style={{ padding: 0, fontWeight: 600 }}
                  onClick={() => navigate(`/admin/management/groups/edit/${encodeURIComponent(row.name)}`)}
                  aria-label={`Edit ${name}`}
                >
                  {name}
                </Button>
              ),
            },
            {
              title: 'Description',
              dataIndex: 'description',
              render: (text: string) => text || <Typography.Text type="secondary">—</Typography.Text>,
            },
            {
              title: 'Members',
              dataIndex: 'members',
              sorter: (a, b) => a.members.length - b.members.length,
              render: (members: string[]) =>
                members.length ? (
                  <Typography.Text ellipsis={{ tooltip: members.join(', ') }} style={{ maxWidth: 280 }}>
                    {members.length} · {members.join(', ')}
                  </Typography.Text>
                ) : (
                  <Typography.Text type="secondary">None</Typography.Text>
                ),
            },
            {
              title: 'Settings',
              key: 'flags',
              render: (_: unknown, row) => (
                <>
                  {row.adminPrivileges && <StatusTag tone="info">Admin</StatusTag>}
                  {row.autoJoin && <StatusTag tone="neutral">Auto-join</StatusTag>}
                </>
              ),
            },
          ]}
        />
      </Card>
      <GroupModal open={creating || editedGroup !== undefined} group={editedGroup} onClose={close} />
    </>
  );
}
