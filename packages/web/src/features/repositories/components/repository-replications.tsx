import { Card, Empty, Table, Typography } from 'antd';
import { Link } from 'react-router';
import type { Replication } from '@arca/contracts';
import { ListEmpty } from '../../../components/list-empty';
import { formatRelative } from '../../../components/time';
import { RunStatusTag, useReplications } from '../../replications';

const REPLICATIONS = '/admin/mission_control/replications';

/** The replications that copy this repository elsewhere, with how each last ran. */
export function RepositoryReplications({ repoKey }: { repoKey: string }) {
  const replications = useReplications();
  const rows = (replications.data ?? []).filter((r) => r.repo_key === repoKey);
  return (
    <Card title="Replications" style={{ marginBottom: 20 }} extra={<Link to={REPLICATIONS}>All replications</Link>}>
      <Table<Replication>
        size="small"
        rowKey="key"
        loading={replications.isLoading}
        dataSource={rows}
        pagination={false}
        locale={{
          emptyText: (
            <ListEmpty query={replications} what="The replications">
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={
                  <>
                    No replication copies {repoKey} yet. <Link to={REPLICATIONS}>Create one under Replications</Link>.
                  </>
                }
              />
            </ListEmpty>
          ),
        }}
        columns={[
          { title: 'Name', dataIndex: 'key' },
          {
            title: 'To',
            key: 'to',
            render: (_: unknown, r) => (
              <Typography.Text>
                {r.remote_repo_key} on {r.deployment}
              </Typography.Text>
            ),
          },
          { title: 'Strategy', dataIndex: 'strategy', render: (s: string) => (s === 'push' ? 'Push' : 'Pull') },
          {
            title: 'When',
            key: 'when',
            render: (_: unknown, r) =>
              [r.event_based ? 'On every change' : '', r.cron ? `Cron ${r.cron}` : ''].filter(Boolean).join(' · ') ||
              'On demand',
          },
          {
            title: 'Last run',
            key: 'last',
            render: (_: unknown, r) =>
              r.last_run ? (
                <>
                  <RunStatusTag status={r.last_run.status} /> {formatRelative(r.last_run.started)}
                </>
              ) : (
                <Typography.Text type="secondary">Never</Typography.Text>
              ),
          },
        ]}
      />
    </Card>
  );
}
