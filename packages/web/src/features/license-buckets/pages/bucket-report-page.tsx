import { Button, Card, Col, Empty, Row, Space, Statistic, Table, Typography } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip as ChartTooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DeploymentStatus, LicenseBucketStatus } from '@arca/contracts';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { DeploymentStatusTag } from '../../deployments';
import { useBucketStatus } from '../api/license-buckets';
import { ExpiryTag } from '../components/expiry-tag';
import { BUCKETS_PATH, UsageBar, editionLabel } from './license-buckets-page';

type DeploymentRow = LicenseBucketStatus['deployments'][number];

function Tile({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card size="small" style={{ height: '100%' }}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div style={{ fontSize: 18, marginTop: 4 }}>{children}</div>
    </Card>
  );
}

/** Bucket Report: its size and expiry, the most licenses in use each day, who holds them, its splits. */
export function BucketReportPage() {
  const { bucketId = '' } = useParams();
  const navigate = useNavigate();
  const status = useBucketStatus(bucketId);
  const bucket = status.data;
  const back = <Button onClick={() => void navigate(BUCKETS_PATH)}>Back to License Buckets</Button>;

  if (status.isError) {
    return (
      <>
        <PageHeader title="Bucket Report" extra={back} />
        <LoadError what="The bucket report" error={status.error} onRetry={() => void status.refetch()} />
      </>
    );
  }
  const holders = (bucket?.deployments ?? []).filter((d) => d.attached > 0);
  return (
    <>
      <PageHeader
        title={bucket ? `Bucket Report: ${bucket.name}` : 'Bucket Report'}
        description={bucket ? `${editionLabel(bucket.license_type)} licenses for ${bucket.customer}` : undefined}
        extra={
          <Space>
            {bucket && !bucket.expired && bucket.available > 0 && (
              <Link to={`${BUCKETS_PATH}/attach/${bucket.id}`}>
                <Button type="primary">Attach License</Button>
              </Link>
            )}
            {back}
          </Space>
        }
      />
      {status.isPending || !bucket ? (
        <Card loading />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Row gutter={[16, 16]}>
            <Col xs={12} lg={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic title="Total Licenses" value={bucket.size} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic title="Maximum consumed" value={bucket.max_used} suffix={`/ ${bucket.size}`} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card size="small" style={{ height: '100%' }}>
                <Statistic title="Total Projects" value={bucket.projects} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Tile title="In use now">
                <UsageBar used={bucket.used} size={bucket.size} />
              </Tile>
            </Col>
            <Col xs={12} lg={4}>
              <Tile title="Expiry Date">
                <ExpiryTag expires={bucket.expires} />
              </Tile>
            </Col>
            <Col xs={12} lg={4}>
              <Tile title="Bucket Identifier">
                <Typography.Text code copyable style={{ fontSize: 12 }}>
                  {bucket.id}
                </Typography.Text>
              </Tile>
            </Col>
          </Row>
          <Card size="small" title="Maximum consumed licenses over time">
            <div
              style={{ height: 260 }}
              role="img"
              aria-label={`At most ${bucket.max_used} of ${bucket.size} licenses used`}
            >
              <ResponsiveContainer>
                <BarChart data={bucket.usage}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="day" tickFormatter={(day: string) => day.slice(5)} />
                  <YAxis allowDecimals={false} domain={[0, bucket.size]} />
                  <ChartTooltip />
                  <ReferenceLine
                    y={bucket.size}
                    stroke="#a8071a"
                    strokeDasharray="4 4"
                    label={{ value: `Bucket size (${bucket.size})`, position: 'insideTopRight', fill: '#a8071a' }}
                  />
                  <Bar
                    dataKey="max_used"
                    name="Licenses in use (daily maximum)"
                    fill="#1677ff"
                    isAnimationActive={false}
                  />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </Card>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={14}>
              <Card size="small" title="Platform deployments">
                <Table<DeploymentRow>
                  rowKey="id"
                  size="small"
                  pagination={false}
                  dataSource={holders}
                  locale={{ emptyText: 'No deployment holds licenses of this bucket yet: attach some.' }}
                  columns={[
                    { title: 'Deployment', dataIndex: 'name' },
                    {
                      title: 'Status',
                      dataIndex: 'status',
                      render: (s: string) => <DeploymentStatusTag status={s as DeploymentStatus} />,
                    },
                    { title: 'Nodes', dataIndex: 'nodes', align: 'right' },
                    { title: 'Licenses', dataIndex: 'attached', align: 'right' },
                    {
                      title: 'Installed',
                      key: 'installed',
                      render: (_: unknown, d: DeploymentRow) =>
                        d.installed === d.attached ? (
                          <StatusTag tone="success">All {d.installed}</StatusTag>
                        ) : (
                          <StatusTag tone="warning">
                            {d.installed} of {d.attached}
                          </StatusTag>
                        ),
                    },
                    { title: 'Projects', dataIndex: 'projects', align: 'right' },
                  ]}
                />
              </Card>
            </Col>
            <Col xs={24} xl={10}>
              <Space orientation="vertical" size={16} style={{ width: '100%' }}>
                <Card size="small" title="Unknown Usage">
                  {bucket.unknown_usage.length ? (
                    <Table
                      rowKey={(r) => `${r.name}-${r.reason}`}
                      size="small"
                      pagination={false}
                      dataSource={bucket.unknown_usage}
                      columns={[
                        { title: 'Used by', dataIndex: 'name' },
                        { title: 'Licenses', dataIndex: 'count', align: 'right' },
                        { title: 'Why unknown', dataIndex: 'reason' },
                      ]}
                    />
                  ) : (
                    <Empty
                      image={Empty.PRESENTED_IMAGE_SIMPLE}
                      description="Every license in use is on a registered deployment."
                    />
                  )}
                </Card>
                <Card size="small" title="Split Buckets">
                  {bucket.parent && (
                    <Typography.Paragraph>
                      Split of <Link to={`${BUCKETS_PATH}/report/${bucket.parent.id}`}>{bucket.parent.name}</Link>
                    </Typography.Paragraph>
                  )}
                  {bucket.splits.length ? (
                    <ul style={{ margin: 0, paddingLeft: 20 }}>
                      {bucket.splits.map((s) => (
                        <li key={s.id}>
                          <Link to={`${BUCKETS_PATH}/report/${s.id}`}>{s.name}</Link> — {s.size} licenses
                        </li>
                      ))}
                    </ul>
                  ) : (
                    !bucket.parent && <Typography.Text type="secondary">No split buckets.</Typography.Text>
                  )}
                </Card>
              </Space>
            </Col>
          </Row>
        </Space>
      )}
    </>
  );
}
