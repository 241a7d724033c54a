import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { type Group } from '@arca/contracts';
import { ListToolbar, useBulkDelete } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { useDeleteGroups } from '../api/groups';
import { useGroups } from '../../../lib/queries/directory';
import { GroupModal } from '../components/group-modal';
import { QueryTable } from '../../../components/query-table';

/** Groups of users: list, search, create, edit and bulk delete. */
export function GroupsPage() {
  const groups = useGroups();
  const remove = useDeleteGroups();
  // the editor follows the route: /new, /edit/:name (admin.management.groups.new / .edit)
  const { name: editName } = useParams();
  const creating = useLocation().pathname.endsWith('/new');
  const navigate = useNavigate();
  const editedGroup = editName ? groups.data?.find((g) => g.name === editName) : undefined;
  const close = () => navigate('/admin/management/groups');
  const [query, setQuery] = useState('');
  const { selected, setSelected, confirmDelete } = useBulkDelete({
    noun: 'group',
    consequence: (names) => `${names} will be removed, with their memberships and permissions. This cannot be undone.`,
    remove: (names) => remove.mutateAsync(names),
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
        <ListToolbar
          query={query}
          onQuery={setQuery}
          placeholder="Filter by name or description"
          label="Filter groups"
          selectedCount={selected.length}
          onDelete={confirmDelete}
        />
        <QueryTable<Group>
          rowKey="name"
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ 'aria-label': `Select ${row.name}` }),
          }}
          query={groups}
          rows={rows}
          noun={['group', 'groups']}
          filter={query}
          emptyText="No groups yet. Create one to give permissions to several users at once."
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
                  {row.policyManager && <StatusTag tone="neutral">Policy manager</StatusTag>}
                  {row.watchManager && <StatusTag tone="neutral">Watch manager</StatusTag>}
                  {row.policyViewer && <StatusTag tone="neutral">Policy viewer</StatusTag>}
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
