import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PERMISSION_RESOURCES, PERMISSION_RESOURCE_LABELS, type PermissionTarget } from '@arca/contracts';
import { ListToolbar, useBulkDelete } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { useDeletePermissions, usePermissions } from '../api/permissions';
import { QueryTable } from '../../../components/query-table';

function principals(target: PermissionTarget, kind: 'users' | 'groups'): string[] {
  const names = new Set<string>();
  for (const resource of PERMISSION_RESOURCES) Object.keys(target[resource]?.[kind] ?? {}).forEach((n) => names.add(n));
  return [...names].sort();
}

const list = (names: string[], empty: string) =>
  names.length ? (
    <Typography.Text ellipsis={{ tooltip: names.join(', ') }} style={{ maxWidth: 220 }}>
      {names.join(', ')}
    </Typography.Text>
  ) : (
    <Typography.Text type="secondary">{empty}</Typography.Text>
  );

/** Permission targets: which users and groups may do what with which repositories and paths. */
export function PermissionsPage() {
  const targets = usePermissions();
  const remove = useDeletePermissions();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (targets.data ?? []).filter(
      (t) =>
        !q ||
        t.name.toLowerCase().includes(q) ||
        (t.repo?.repositories ?? []).some((r) => r.toLowerCase().includes(q)) ||
        [...principals(t, 'users'), ...principals(t, 'groups')].some((p) => p.toLowerCase().includes(q)),
    );
  }, [targets.data, query]);
  const { selected, setSelected, confirmDelete } = useBulkDelete({
    noun: 'permission',
    consequence: (names) => `Everyone who gets rights from ${names} loses them at once. This cannot be undone.`,
    remove: (names) => remove.mutateAsync(names),
  });

  return (
    <>
      <PageHeader
        title="Permissions"
        description="Grant users and groups read, annotate, deploy, delete or manage rights on repositories and paths."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/admin/management/permissions/new')}>
            New Permission
          </Button>
        }
      />
      <Card>
        <ListToolbar
          query={query}
          onQuery={setQuery}
          placeholder="Filter by name, repository, user or group"
          label="Filter permissions"
          width={340}
          selectedCount={selected.length}
          onDelete={confirmDelete}
        />
        <QueryTable<PermissionTarget>
          rowKey="name"
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (row) => ({ 'aria-label': `Select ${row.name}` }),
          }}
          query={targets}
          rows={rows}
          noun={['permission', 'permissions']}
          filter={query}
          emptyText="No permissions yet. Create one to let users other than administrators read or deploy."
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              sorter: (a, b) => a.name.localeCompare(b.name),
              defaultSortOrder: 'ascend',
              render: (name: string) => (
                <Link
                  to={`/admin/management/permissions/edit/${encodeURIComponent(name)}`}
                  style={{ fontWeight: 600 }}
                  aria-label={`Edit ${name}`}
                >
                  {name}
                </Link>
              ),
            },
            {
              title: 'Resources',
              key: 'resources',
              render: (_: unknown, row) => (
                <>
                  {PERMISSION_RESOURCES.filter((r) => row[r]).map((r) => (
                    <Tag key={r}>{PERMISSION_RESOURCE_LABELS[r]}</Tag>
                  ))}
                </>
              ),
            },
            {
              title: 'Repositories',
              key: 'repositories',
              render: (_: unknown, row) => list(row.repo?.repositories ?? [], '—'),
            },
            { title: 'Users', key: 'users', render: (_: unknown, row) => list(principals(row, 'users'), 'None') },
            { title: 'Groups', key: 'groups', render: (_: unknown, row) => list(principals(row, 'groups'), 'None') },
          ]}
        />
      </Card>
    </>
  );
}
