import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Statistic, Table, Typography } from 'antd';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { packageTypeLabel } from '@arca/contracts';
import { formatBytes, plural } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { useStorageSummary } from '../api/get-storage-summary';
import { ProjectScopeNote } from '../../../components/project-scope-note';
import { LoadError } from '../../../components/load-error';
import { LargestFoldersCard } from '../components/largest-folders';
import { StorageGrowthCard } from '../components/storage-growth';

type Row = {
  repoKey: string;
  repoType: string;
  packageType: string;
  filesCount: number;
  foldersCount: number;
  usedSpace: number;
  percentage: number;
};

/** Used space per repository, totals and the deduplication gain (`/admin/monitoring/storage-summary`). */
export function StorageSummaryPage() {
  const summary = useStorageSummary();
  const data = summary.data;
  const top = [...(data?.repositories ?? [])]
    .filter((r) => r.usedSpace > 0)
    .sort((a, b) => b.usedSpace - a.usedSpace)
    .slice(0, 10);
  return (
    <>
      <PageHeader
        title="Storage Summary"
        description="What the repositories hold, and how much identical content stored once saves."
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void summary.refetch()} loading={summary.isFetching}>
            Refresh
          </Button>
        }
      />
      <ProjectScopeNote what="the storage" />
      <Row gutter={[20, 20]} style={{ marginBottom: 20 }}>
        <Col xs={12} lg={6}>
          <Card size="small">
            <Statistic title="Artifacts" value={data?.artifactsCount ?? 0} loading={summary.isPending} />
            <Typography.Text type="secondary">{formatBytes(data?.artifactsSize ?? 0)}</Typography.Text>
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small">
            <Statistic title="Binaries stored" value={data?.binariesCount ?? 0} loading={summary.isPending} />
            <Typography.Text type="secondary">{formatBytes(data?.binariesSize ?? 0)}</Typography.Text>
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small">
            <Statistic
              title="Deduplication gain"
              value={data?.optimization ?? 0}
              suffix="%"
              precision={1}
              loading={summary.isPending}
            />
            <Typography.Text type="secondary">
              {formatBytes(Math.max(0, (data?.artifactsSize ?? 0) - (data?.binariesSize ?? 0)))} saved
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card size="small">
            <Statistic title="Items (files and folders)" value={data?.itemsCount ?? 0} loading={summary.isPending} />
            <Typography.Text type="secondary">
              {/* counted as the Repositories page counts them: the trash can is no repository of its own */}
              {plural(
                data?.repositories.filter((r) => r.repoType !== 'trashcan').length ?? 0,
                'repository',
                'repositories',
              )}
            </Typography.Text>
          </Card>
        </Col>
      </Row>
      <Card title="Used space by repository" style={{ marginBottom: 20 }}>
        {summary.isError ? (
          <LoadError what="The storage summary" error={summary.error} onRetry={() => void summary.refetch()} />
        ) : top.length === 0 ? (
          <Empty description="Nothing is stored yet. Deploy a file to a repository to see it here." />
        ) : (
          <div
            style={{ width: '100%', height: 60 + top.length * 40 }}
            role="img"
            aria-label={`Bar chart of used space: ${top.map((r) => `${r.repoKey} ${formatBytes(r.usedSpace)}`).join(', ')}`}
          >
            <ResponsiveContainer>
              <BarChart data={top} layout="vertical" margin={{ left: 24, right: 24 }}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" tickFormatter={(v: number) => formatBytes(v)} />
                <YAxis type="category" dataKey="repoKey" width={140} />
                <Tooltip formatter={(v) => formatBytes(Number(v))} />
                <Bar dataKey="usedSpace" name="Used space" fill="#1f4fd1" radius={[0, 4, 4, 0]} maxBarSize={28} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </Card>
      <StorageGrowthCard />
      <LargestFoldersCard repositories={data?.repositories.filter((r) => r.repoType !== 'trashcan') ?? []} />
      <Card title="Repositories">
        <Table<Row>
          rowKey="repoKey"
          size="small"
          loading={summary.isPending}
          dataSource={data?.repositories}
          pagination={{ pageSize: 100, hideOnSinglePage: true }}
          columns={[
            { title: 'Repository', dataIndex: 'repoKey', sorter: (a, b) => a.repoKey.localeCompare(b.repoKey) },
            { title: 'Type', dataIndex: 'repoType' },
            { title: 'Package type', dataIndex: 'packageType', render: packageTypeLabel },
            { title: 'Files', dataIndex: 'filesCount', align: 'right', sorter: (a, b) => a.filesCount - b.filesCount },
            { title: 'Folders', dataIndex: 'foldersCount', align: 'right' },
            {
              title: 'Used space',
              dataIndex: 'usedSpace',
              align: 'right',
              render: formatBytes,
              sorter: (a, b) => a.usedSpace - b.usedSpace,
              defaultSortOrder: 'descend',
            },
            { title: 'Share', dataIndex: 'percentage', align: 'right', render: (p: number) => `${p.toFixed(1)} %` },
          ]}
        />
      </Card>
    </>
  );
}
