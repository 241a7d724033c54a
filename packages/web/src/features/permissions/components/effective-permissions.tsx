import { Alert, Empty, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  PERMISSION_ACTION_LABELS,
  type EffectivePermission,
  type EffectivePermissions as Answer,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { ListEmpty } from '../../../components/list-empty';
import { permissionsKeys } from '../api/keys';

export type EffectiveSubject = { user: string } | { group: string } | { repo: string };

const RESOURCE_LABELS: Record<EffectivePermission['resource'], string> = {
  repo: 'Repositories',
  build: 'Builds',
  releaseBundle: 'Release bundles',
};

function useEffectivePermissions(subject: EffectiveSubject) {
  const query = new URLSearchParams(subject).toString();
  return useQuery({
    queryKey: [...permissionsKeys.all, 'effective', query],
    queryFn: () => apiFetch<Answer>(`ui/effective-permissions?${query}`),
  });
}

/** Where a grant comes from, as a link to what an administrator would change. */
function Source({ source }: { source: EffectivePermission['source'] }) {
  return source.kind === 'target' ? (
    <Link to={`/admin/management/permissions/edit/${encodeURIComponent(source.name)}`}>{source.name}</Link>
  ) : (
    <Link to={`/projects/${encodeURIComponent(source.name)}/members`}>Project {source.name}</Link>
  );
}

type Column = { title: string; key: string; render: (_: unknown, g: EffectivePermission) => React.ReactNode };

/**
 * What a user (directly and through its groups), a group, or everyone on a repository may do,
 * grant by grant, from every permission target and project membership.
 */
export function EffectivePermissions({ subject }: { subject: EffectiveSubject }) {
  const effective = useEffectivePermissions(subject);
  const onRepository = 'repo' in subject;
  const through: Column = {
    title: 'Through',
    key: 'through',
    render: (_, g) => (g.principal.type === 'user' ? 'Directly' : `Group ${g.principal.name}`),
  };
  const who: Column = {
    title: 'Who',
    key: 'who',
    render: (_, g) => `${g.principal.type === 'user' ? 'User' : 'Group'} ${g.principal.name}`,
  };
  const where: Column = {
    title: 'Where',
    key: 'where',
    render: (_, g) => (
      <>
        <Typography.Text type="secondary">{RESOURCE_LABELS[g.resource]}: </Typography.Text>
        {g.covers.length ? g.covers.join(', ') : 'none yet'}
      </>
    ),
  };
  const columns: Column[] = [
    ...('user' in subject ? [through] : []),
    onRepository ? who : where,
    {
      title: 'Paths',
      key: 'paths',
      render: (_, g) =>
        `${g.includes.join(', ') || '**'}${g.excludes.length ? ` except ${g.excludes.join(', ')}` : ''}`,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, g) => (
        <Space size={4} wrap>
          {g.actions.map((a) => (
            <Tag key={a}>{PERMISSION_ACTION_LABELS[a]}</Tag>
          ))}
        </Space>
      ),
    },
    { title: 'From', key: 'source', render: (_, g) => <Source source={g.source} /> },
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {effective.data?.admin && (
        <Alert
          type="info"
          showIcon
          title="Administrator: may do everything on every repository, build and project, whatever the grants below say."
        />
      )}
      <Table<EffectivePermission>
        size="small"
        rowKey={(g) => `${g.source.kind}:${g.source.name}:${g.resource}:${g.principal.type}:${g.principal.name}`}
        loading={effective.isLoading}
        dataSource={effective.data?.grants ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={columns}
        locale={{
          emptyText: (
            <ListEmpty query={effective} what="The effective permissions">
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={
                  <>
                    {onRepository ? 'No permission target or project grants anything here.' : 'No grant yet.'}{' '}
                    <Link to="/admin/management/permissions">Grant rights under Permissions</Link>.
                  </>
                }
              />
            </ListEmpty>
          ),
        }}
      />
    </Space>
  );
}
