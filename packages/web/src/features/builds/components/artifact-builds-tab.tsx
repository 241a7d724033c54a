import { Empty, Flex, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { formatDateTime } from '../../../components/time';
import { isoOf, useArtifactBuilds } from '../api/builds';
import { buildHref } from '../pages/builds-page';
import { ListEmpty } from '../../../components/list-empty';

/** The artifact's Builds tab: the builds that produced this file and those that used it. */
export function ArtifactBuildsTab({ repoKey, path }: { repoKey: string; path: string }) {
  const builds = useArtifactBuilds(repoKey, path);
  const table = (rows: { name: string; number: string; started: string; moduleID: string }[], empty: string) => (
    <Table
      size="small"
      rowKey={(r) => `${r.name}#${r.number}#${r.moduleID}`}
      loading={builds.isLoading}
      pagination={false}
      dataSource={rows}
      columns={[
        {
          title: 'Build',
          key: 'build',
          render: (_, r) => <Link to={buildHref(r.name, r.number)}>{`${r.name} #${r.number}`}</Link>,
        },
        { title: 'Module', dataIndex: 'moduleID', key: 'moduleID', render: (m: string) => m || '—' },
        { title: 'Started', dataIndex: 'started', key: 'started', render: (s: string) => formatDateTime(isoOf(s)) },
      ]}
      locale={{
        emptyText: (
          <ListEmpty query={builds} what="The builds of this file">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />
          </ListEmpty>
        ),
      }}
    />
  );
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={2} style={{ fontSize: 15 }}>
          Produced by
        </Typography.Title>
        {table(builds.data?.producedBy ?? [], 'No published build lists this file among its artifacts.')}
      </div>
      <div>
        <Typography.Title level={2} style={{ fontSize: 15 }}>
          Used by
        </Typography.Title>
        {table(builds.data?.usedBy ?? [], 'No published build lists this file among its dependencies.')}
      </div>
    </Flex>
  );
}
