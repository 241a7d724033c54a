import { BuildOutlined } from '@ant-design/icons';
import {
  Alert,
  Card,
  Descriptions,
  Empty,
  Flex,
  Select,
  Skeleton,
  Table,
  Tabs,
  Tag,
  Timeline,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { NotFoundResult } from '../../../components/not-found-result';
import { PageHeader } from '../../../components/page-header';
import { ProjectScopeNote } from '../../../components/project-scope-note';
import { useSetMeUp } from '../../../lib/queries/set-me-up';
import { useCurrentUser } from '../../auth';
import { buildInfoSnippets } from '../../formats';
import { useSelectedProject } from '../../../lib/selected-project';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useBuildDiff, useBuildHistory, useBuildInfo, useBuildNames, isoOf } from '../api/builds';
import { LoadError } from '../../../components/load-error';
import type { BuildFileRow, BuildName, BuildRun, BuildRunInfo } from '@arca/contracts';
import { ListEmpty } from '../../../components/list-empty';
import { treeHref } from '../../../lib/tree-href';

export const buildHref = (name: string, number?: string) =>
  `/builds/${encodeURIComponent(name)}${number !== undefined ? `/${encodeURIComponent(number)}` : ''}`;
const when = (started: string) => (
  <Tooltip title={formatDateTime(isoOf(started))}>{formatRelative(isoOf(started))}</Tooltip>
);

/** `/builds`, `/builds/:name`, `/builds/:name/:number`: the builds CI tools published. */
export function BuildsRoute() {
  const { name, number } = useParams();
  if (name && number) return <BuildRunPage name={name} number={number} />;
  if (name) return <BuildRunsPage name={name} />;
  return <BuildsListPage />;
}

function BuildsListPage() {
  const names = useBuildNames(useSelectedProject());
  const server = useSetMeUp();
  const user = useCurrentUser();
  const [publish] = buildInfoSnippets({
    baseUrl: server.data?.baseUrl ?? window.location.origin,
    repoKey: '<REPOSITORY>',
    user: user.data?.name ?? 'user',
  });
  const columns: TableColumnsType<BuildName> = [
    {
      title: 'Build name',
      dataIndex: 'name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (name: string) => <Link to={buildHref(name)}>{name}</Link>,
    },
    {
      title: 'Last build',
      dataIndex: 'lastNumber',
      key: 'lastNumber',
      render: (n: string, row) => <Link to={buildHref(row.name, n)}>#{n}</Link>,
    },
    {
      title: 'Last build time',
      dataIndex: 'lastStarted',
      key: 'lastStarted',
      defaultSortOrder: 'descend',
      sorter: (a, b) => Date.parse(isoOf(a.lastStarted)) - Date.parse(isoOf(b.lastStarted)),
      render: when,
    },
    { title: 'Runs', dataIndex: 'runs', key: 'runs', align: 'right', width: 100 },
    { title: 'Project', dataIndex: 'project', key: 'project', render: (p: string | null) => p ?? '—' },
  ];
  return (
    <>
      <PageHeader title="Builds" description="Build runs your CI tools published, with what they produced and used." />
      <ProjectScopeNote what="the builds" />
      <Card>
        <Table
          rowKey="name"
          loading={names.isLoading}
          columns={columns}
          dataSource={names.data ?? []}
          pagination={{ defaultPageSize: 50, hideOnSinglePage: true }}
          locale={{
            emptyText: names.isError ? (
              <LoadError what="The builds" error={names.error} onRetry={() => void names.refetch()} />
            ) : names.isLoading ? (
              ' '
            ) : (
              <Empty
                image={<BuildOutlined style={{ fontSize: 48, color: '#9ca3af' }} />}
                description={
                  <Flex vertical gap={8} align="center">
                    <span>
                      No builds yet. Publish build info from your CI job, for example with JFrog&apos;s CLI (a
                      repository&apos;s Set Me Up shows it for that repository, with curl too):
                    </span>
                    <Typography.Paragraph copyable={{ text: publish!.code }} style={{ margin: 0 }}>
                      <pre style={{ textAlign: 'left', margin: 0 }}>{publish!.code}</pre>
                    </Typography.Paragraph>
                  </Flex>
                }
              />
            ),
          }}
        />
      </Card>
    </>
  );
}

function BuildRunsPage({ name }: { name: string }) {
  const history = useBuildHistory(name);
  if (history.error instanceof ApiError && history.error.status === 404)
    return <NotFoundResult title={`No build named ${name}`} backTo="/builds" backLabel="All builds" />;
  const columns: TableColumnsType<BuildRun> = [
    {
      title: 'Build number',
      dataIndex: 'number',
      key: 'number',
      render: (n: string) => <Link to={buildHref(name, n)}>#{n}</Link>,
    },
    { title: 'Started', dataIndex: 'started', key: 'started', render: when },
    { title: 'Published by', dataIndex: 'createdBy', key: 'createdBy' },
    {
      title: 'Status',
      key: 'status',
      render: (_, run) => {
        const last = run.statuses.at(-1);
        return last ? <Tag color="green">{last.status}</Tag> : <Typography.Text type="secondary">—</Typography.Text>;
      },
    },
  ];
  return (
    <>
      <PageHeader title={name} description={<Link to="/builds">All builds</Link>} />
      <Card>
        <Table
          rowKey="number"
          loading={history.isLoading}
          columns={columns}
          dataSource={history.data ?? []}
          pagination={{ defaultPageSize: 50, hideOnSinglePage: true }}
          locale={{
            emptyText: (
              <ListEmpty query={history} what="The runs">
                No runs.
              </ListEmpty>
            ),
          }}
        />
      </Card>
    </>
  );
}

function FilesTable({ files, dependencies }: { files: BuildFileRow[]; dependencies?: boolean }) {
  const columns: TableColumnsType<BuildFileRow> = [
    {
      title: dependencies ? 'Dependency' : 'Artifact',
      dataIndex: 'name',
      key: 'name',
      render: (n: string, row) =>
        row.location ? (
          <Link to={treeHref(row.location.repoKey, row.location.path)}>{n}</Link>
        ) : (
          <Tooltip title="No copy you can read is stored here">
            <span>{n}</span>
          </Tooltip>
        ),
    },
    { title: 'Type', dataIndex: 'type', key: 'type', width: 100 },
    ...(dependencies
      ? [
          {
            title: 'Scopes',
            dataIndex: 'scopes',
            key: 'scopes',
            render: (s: string[] = []) => s.map((x) => <Tag key={x}>{x}</Tag>),
          },
        ]
      : []),
    {
      title: 'Repository',
      key: 'repo',
      render: (_: unknown, row: BuildFileRow) => row.location?.repoKey ?? '—',
    },
    {
      title: 'SHA-1',
      dataIndex: 'sha1',
      key: 'sha1',
      render: (s: string) => <Typography.Text code>{s.slice(0, 12)}</Typography.Text>,
    },
  ];
  return (
    <Table size="small" rowKey={(r) => `${r.name}-${r.sha1}`} columns={columns} dataSource={files} pagination={false} />
  );
}

/** The issues a run's commits name (`jf rt build-add-git --config`), linked to their tracker. */
function IssuesTable({ issues }: { issues: BuildRunInfo['buildInfo']['issues'] }) {
  const tracker = [issues?.tracker?.name, issues?.tracker?.version].filter(Boolean).join(' ');
  return (
    <Flex vertical gap={8}>
      {tracker && <Typography.Text type="secondary">Tracker: {tracker}</Typography.Text>}
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={issues?.affectedIssues ?? []}
        columns={[
          {
            title: 'Issue',
            dataIndex: 'key',
            key: 'key',
            render: (key: string, row) => (row.url ? <a href={row.url}>{key}</a> : key),
          },
          { title: 'Summary', dataIndex: 'summary', key: 'summary' },
          {
            title: 'From',
            dataIndex: 'aggregated',
            key: 'aggregated',
            width: 160,
            render: (aggregated?: boolean) => (aggregated ? 'An earlier run' : 'This run'),
          },
        ]}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="No issues recorded. JFrog CLI collects them from commit messages with jf rt build-add-git --config."
            />
          ),
        }}
      />
    </Flex>
  );
}

function BuildRunPage({ name, number }: { name: string; number: string }) {
  const info = useBuildInfo(name, number);
  const history = useBuildHistory(name);
  const [other, setOther] = useState<string>();
  const diff = useBuildDiff(name, number, other);
  if (info.error instanceof ApiError && info.error.status === 404)
    return (
      <NotFoundResult
        title={`No build ${name} #${number}`}
        backTo={buildHref(name)}
        backLabel={`All runs of ${name}`}
      />
    );
  const doc = info.data?.buildInfo;
  const statuses = doc?.statuses ?? [];
  const vcs = doc?.vcs?.[0];
  return (
    <>
      <PageHeader title={`${name} #${number}`} description={<Link to={buildHref(name)}>All runs of {name}</Link>} />
      {!doc ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <Flex vertical gap={16}>
          <Card>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 2, xl: 3 }}
              items={[
                { key: 'started', label: 'Started', children: formatDateTime(isoOf(doc.started)) },
                {
                  key: 'duration',
                  label: 'Duration',
                  children: doc.durationMillis !== undefined ? `${(doc.durationMillis / 1000).toFixed(1)} s` : '—',
                },
                {
                  key: 'agent',
                  label: 'Agent',
                  children: [doc.agent?.name, doc.agent?.version].filter(Boolean).join(' ') || '—',
                },
                { key: 'principal', label: 'Principal', children: doc.principal ?? '—' },
                { key: 'url', label: 'CI run', children: doc.url ? <a href={doc.url}>{doc.url}</a> : '—' },
                {
                  key: 'vcs',
                  label: 'Revision',
                  children: vcs ? `${vcs.revision ?? ''}${vcs.branch ? ` (${vcs.branch})` : ''}` : '—',
                },
                {
                  key: 'status',
                  label: 'Status',
                  children: statuses.length ? <Tag color="green">{statuses.at(-1)!.status}</Tag> : 'Not promoted',
                },
              ]}
            />
          </Card>
          <Card>
            <Tabs
              items={[
                {
                  key: 'modules',
                  label: 'Published modules',
                  children: info.data!.modules.length ? (
                    <Flex vertical gap={24}>
                      {info.data!.modules.map((m) => (
                        <div key={m.id}>
                          <Typography.Title level={2} style={{ fontSize: 16 }}>
                            {m.id || 'Module'}
                          </Typography.Title>
                          <FilesTable files={m.artifacts} />
                          {m.dependencies.length > 0 && (
                            <div style={{ marginTop: 12 }}>
                              <FilesTable files={m.dependencies} dependencies />
                            </div>
                          )}
                        </div>
                      ))}
                    </Flex>
                  ) : (
                    <Empty description="This run published no modules." />
                  ),
                },
                {
                  key: 'environment',
                  label: 'Environment',
                  children: (
                    <Table
                      size="small"
                      rowKey="key"
                      pagination={false}
                      columns={[
                        { title: 'Variable', dataIndex: 'key', key: 'key' },
                        { title: 'Value', dataIndex: 'value', key: 'value' },
                      ]}
                      dataSource={Object.entries(doc.properties ?? {}).map(([key, value]) => ({ key, value }))}
                      locale={{ emptyText: 'No environment was recorded.' }}
                    />
                  ),
                },
                {
                  key: 'issues',
                  label: `Issues${doc.issues?.affectedIssues?.length ? ` (${doc.issues.affectedIssues.length})` : ''}`,
                  children: <IssuesTable issues={doc.issues} />,
                },
                {
                  key: 'history',
                  label: 'Release history',
                  children: statuses.length ? (
                    <Timeline
                      items={[...statuses].reverse().map((s) => ({
                        color: 'green',
                        children: (
                          <>
                            <strong>{s.status}</strong>
                            {s.repository ? ` to ${s.repository}` : ''} by {s.user}
                            {s.ciUser ? ` (CI user ${s.ciUser})` : ''} — {s.timestamp}
                            {s.comment && <div style={{ color: '#4b5563' }}>{s.comment}</div>}
                          </>
                        ),
                      }))}
                    />
                  ) : (
                    <Empty description="Not promoted yet. Promote it with POST /artifactory/api/build/promote." />
                  ),
                },
                {
                  key: 'diff',
                  label: 'Diff',
                  children: (
                    <Flex vertical gap={12}>
                      <Select
                        aria-label="Compare with build number"
                        placeholder="Compare with build number…"
                        style={{ width: 260 }}
                        value={other}
                        onChange={setOther}
                        options={(history.data ?? [])
                          .filter((r) => r.number !== number)
                          .map((r) => ({ value: r.number, label: `#${r.number}` }))}
                      />
                      {diff.data && (
                        <Table
                          size="small"
                          rowKey={(r) => `${r.kind}-${r.change}-${r.name}`}
                          pagination={false}
                          columns={[
                            { title: 'Kind', dataIndex: 'kind', key: 'kind', width: 120 },
                            {
                              title: 'Change',
                              dataIndex: 'change',
                              key: 'change',
                              width: 120,
                              render: (c: string) => (
                                <Tag
                                  color={
                                    c === 'new'
                                      ? 'green'
                                      : c === 'removed'
                                        ? 'red'
                                        : c === 'updated'
                                          ? 'gold'
                                          : undefined
                                  }
                                >
                                  {c}
                                </Tag>
                              ),
                            },
                            { title: 'Name', dataIndex: 'name', key: 'name' },
                          ]}
                          dataSource={(['artifacts', 'dependencies', 'properties'] as const).flatMap((kind) =>
                            (['new', 'updated', 'removed'] as const).flatMap((change) =>
                              (diff.data![kind][change] as { name?: string; id?: string; key?: string }[]).map((x) => ({
                                kind,
                                change,
                                name: x.name ?? x.id ?? x.key ?? '',
                              })),
                            ),
                          )}
                          locale={{ emptyText: 'The two runs published the same files and environment.' }}
                        />
                      )}
                    </Flex>
                  ),
                },
              ]}
            />
          </Card>
          {info.isError && !(info.error instanceof ApiError && info.error.status === 404) && (
            <Alert type="error" showIcon message="The build could not be loaded." />
          )}
        </Flex>
      )}
    </>
  );
}
