import {
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  FolderOpenOutlined,
  PlusOutlined,
  SearchOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { Button, Card, Dropdown, Empty, Input, Segmented, Space, Table, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_LIST_PAGE_SIZE, packageTypeLabel, type RepositorySummary } from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { useSelectedProject } from '../../../lib/selected-project';
import { DeleteRepositoryModal } from '../components/delete-repository-modal';
import { useRepositories } from '../../../lib/queries/repositories';
import { QuickCreateModal } from '../components/quick-create-modal';
import { RepositoryClassTag } from '../components/repository-class-tag';
import { ProjectScopeNote } from '../../../components/project-scope-note';
import { LoadError } from '../../../components/load-error';

type Filter = 'all' | 'local' | 'remote' | 'virtual';

/** Every repository with its class, package type and usage (`admin.repositories.list`). */
export function RepositoriesPage() {
  const projectKey = useSelectedProject();
  const repositories = useRepositories(true, projectKey);
  const navigate = useNavigate();
  const [filter, setFilter] = useState<Filter>('all');
  const [query, setQuery] = useState('');
  const [params, setParams] = useSearchParams();
  // the admin menu's Quick Repository Creation opens the dialog at once
  const [quickOpen, setQuickOpen] = useState(() => params.has('quick'));
  const closeQuick = () => {
    setQuickOpen(false);
    if (params.has('quick')) setParams({}, { replace: true });
  };
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (repositories.data ?? []).filter(
      (r) =>
        (filter === 'all' || r.rclass === filter) &&
        (!q || r.key.toLowerCase().includes(q) || r.packageType.includes(q)),
    );
  }, [repositories.data, filter, query]);

  const [deleting, setDeleting] = useState<RepositorySummary>();
  const confirmDelete = (repo: RepositorySummary) => setDeleting(repo);
  const closeDelete = useCallback(() => setDeleting(undefined), []);

  const count = (c: Filter) => (repositories.data ?? []).filter((r) => c === 'all' || r.rclass === c).length;
  return (
    <>
      <PageHeader
        title="Repositories"
        description="Local repositories hold what you deploy, remote ones proxy and cache an upstream, virtual ones serve several under one URL."
        extra={
          <Space>
            <Button icon={<ThunderboltOutlined />} onClick={() => setQuickOpen(true)}>
              Quick Repository Creation
            </Button>
            <Dropdown
              menu={{
                items: (['local', 'remote', 'virtual'] as const).map((rclass) => ({
                  key: rclass,
                  label: `New ${rclass[0]!.toUpperCase()}${rclass.slice(1)} Repository`,
                  onClick: () => navigate(`/admin/repositories/new?rclass=${rclass}`),
                })),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />}>
                New repository <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        }
      />
      <ProjectScopeNote what="the repositories" />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Segmented<Filter>
            aria-label="Repository class"
            value={filter}
            onChange={setFilter}
            options={(['all', 'local', 'remote', 'virtual'] as const).map((c) => ({
              value: c,
              label: `${c === 'all' ? 'All' : c[0]!.toUpperCase() + c.slice(1)} (${count(c)})`,
            }))}
          />
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Filter by key or type"
            aria-label="Filter repositories"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ width: 260 }}
          />
        </Space>
        <Table<RepositorySummary>
          rowKey="key"
          loading={repositories.isPending}
          dataSource={rows}
          pagination={{ pageSize: DEFAULT_LIST_PAGE_SIZE, hideOnSinglePage: true }}
          // narrow windows scroll the table inside its card; the actions stay in view on the right
          scroll={{ x: 720 }}
          tableLayout="auto"
          locale={{
            emptyText: repositories.isError ? (
              <LoadError
                what="The repositories"
                error={repositories.error}
                onRetry={() => void repositories.refetch()}
              />
            ) : (
              <Empty
                description={
                  repositories.data?.length
                    ? 'No repository matches the filter.'
                    : 'No repositories yet. Quick Repository Creation sets up a local, a remote and a virtual one in one step.'
                }
              >
                {!repositories.data?.length && (
                  <Button type="primary" onClick={() => setQuickOpen(true)}>
                    Quick Repository Creation
                  </Button>
                )}
              </Empty>
            ),
          }}
          columns={[
            {
              title: 'Key',
              dataIndex: 'key',
              sorter: (a, b) => a.key.localeCompare(b.key),
              defaultSortOrder: 'ascend',
              fixed: 'left',
              render: (key: string) => (
                <Link to={`/admin/repositories/edit/${encodeURIComponent(key)}`} style={{ whiteSpace: 'nowrap' }}>
                  {key}
                </Link>
              ),
            },
            {
              title: 'Class',
              dataIndex: 'rclass',
              render: (rclass: RepositorySummary['rclass']) => <RepositoryClassTag rclass={rclass} />,
            },
            {
              title: 'Package type',
              dataIndex: 'packageType',
              render: (t: string) => packageTypeLabel(t),
              sorter: (a, b) => a.packageType.localeCompare(b.packageType),
            },
            {
              title: 'Upstream / members',
              key: 'target',
              responsive: ['xl'],
              render: (_: unknown, r) =>
                r.rclass === 'remote' ? (
                  <Typography.Text ellipsis style={{ maxWidth: 280 }}>
                    {r.url}
                  </Typography.Text>
                ) : r.rclass === 'virtual' ? (
                  r.repositories.join(', ') || <Typography.Text type="secondary">No members</Typography.Text>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            { title: 'Files', dataIndex: 'files', align: 'right', sorter: (a, b) => a.files - b.files },
            {
              title: 'Used space',
              dataIndex: 'usedSpace',
              align: 'right',
              render: formatBytes,
              sorter: (a, b) => a.usedSpace - b.usedSpace,
            },
            {
              title: 'Actions',
              key: 'actions',
              fixed: 'right',
              width: 120,
              render: (_: unknown, r) => (
                <Space>
                  <Tooltip title="Browse">
                    <Button
                      size="small"
                      type="text"
                      aria-label={`Browse ${r.key}`}
                      icon={<FolderOpenOutlined />}
                      onClick={() => navigate(`/repos/tree/General/${encodeURIComponent(r.key)}`)}
                    />
                  </Tooltip>
                  <Tooltip title="Edit">
                    <Button
                      size="small"
                      type="text"
                      aria-label={`Edit ${r.key}`}
                      icon={<EditOutlined />}
                      onClick={() => navigate(`/admin/repositories/edit/${encodeURIComponent(r.key)}`)}
                    />
                  </Tooltip>
                  <Tooltip title="Delete">
                    <Button
                      size="small"
                      type="text"
                      danger
                      aria-label={`Delete ${r.key}`}
                      icon={<DeleteOutlined />}
                      onClick={() => confirmDelete(r)}
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <QuickCreateModal open={quickOpen} onClose={closeQuick} />
      {deleting && <DeleteRepositoryModal repo={deleting} onClose={closeDelete} />}
    </>
  );
}
