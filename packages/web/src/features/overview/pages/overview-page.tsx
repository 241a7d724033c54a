import {
  AppstoreOutlined,
  ArrowRightOutlined,
  CloudServerOutlined,
  DatabaseOutlined,
  FileOutlined,
  HddOutlined,
} from '@ant-design/icons';
import { Card, Col, Empty, List, Row, Skeleton, Statistic, Typography } from 'antd';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HomeWidgetInfo } from '@arca/contracts';
import { formatBytes, plural } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, formatRelative } from '../../../components/time';
import { menuItemState } from '../../../lib/menu';
import { menuIcon } from '../../../lib/menu-icons';
import { useStartupData } from '../../../lib/startup';
import { useFooter } from '../../auth';
import { useNodes } from '../../system';
import { useVersion } from '../../system';
import { useHomeInfo } from '../api/get-home-info';
import { SecurityOverviewCard } from '../../scanning';
import { treeHref } from '../../../lib/tree-href';

const buildHref = (name: string, number: string) => `/builds/${encodeURIComponent(name)}/${encodeURIComponent(number)}`;

/** One figure of the dashboard's first row. */
function Figure({
  title,
  value,
  icon,
  loading,
  footer,
}: {
  title: string;
  value: React.ReactNode;
  icon: React.ReactNode;
  loading: boolean;
  footer?: React.ReactNode;
}) {
  return (
    <Card className="arca-figure">
      <Statistic title={title} value={loading ? ' ' : (value as string)} loading={loading} prefix={icon} />
      {footer && <div className="arca-figure-footer">{footer}</div>}
    </Card>
  );
}

/** Files deployed per day over the last two weeks, as bars (the numbers are in the tooltip and a caption). */
function ActivityChart({ days }: { days: HomeWidgetInfo['deploymentsByDay'] }) {
  const total = days.reduce((sum, d) => sum + d.files, 0);
  if (!total)
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description="Nothing was deployed in the last two weeks. Deploy from the Artifacts page or with any client."
      />
    );
  const data = days.map((d) => ({ ...d, label: d.day.slice(5) }));
  return (
    <>
      <div
        style={{ width: '100%', height: 220 }}
        role="img"
        aria-label={`Files deployed per day over the last ${days.length} days: ${total} in all`}
      >
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke="#eef0f3" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: '#4b5563' }} tickLine={false} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: '#4b5563' }} tickLine={false} axisLine={false} />
            <Tooltip
              formatter={(value, _name, item) => [
                `${plural(Number(value), 'file')}, ${formatBytes((item.payload as { bytes: number }).bytes)}`,
                'Deployed',
              ]}
              labelFormatter={(label) => `Day ${String(label)}`}
            />
            <Bar dataKey="files" fill="#2563eb" radius={[3, 3, 0, 0]} maxBarSize={28} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <Typography.Text type="secondary">
        {plural(total, 'file')} deployed in the last {days.length} days.
      </Typography.Text>
    </>
  );
}

/** The most downloaded files, each with a bar of its share of the most downloaded one. */
function MostDownloaded({ files }: { files: HomeWidgetInfo['mostDownloaded'] }) {
  if (!files.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No file was downloaded yet." />;
  const top = files[0]!.downloads;
  return (
    <List
      size="small"
      dataSource={files}
      renderItem={(f) => (
        <List.Item>
          <div style={{ width: '100%', minWidth: 0 }}>
            <div className="arca-row-between">
              <Link to={treeHref(f.repoKey, f.path)} className="arca-ellipsis" title={`${f.repoKey}/${f.path}`}>
                {f.name}
              </Link>
              <Typography.Text type="secondary" style={{ flex: 'none' }}>
                {f.downloads.toLocaleString()}
              </Typography.Text>
            </div>
            <div className="arca-share-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(4, (f.downloads / top) * 100)}%` }} />
            </div>
          </div>
        </List.Item>
      )}
    />
  );
}

/**
 * The administrator's landing page (ordinary users land on Packages): what is stored and how
 * it moves — files and space, deployments per day, the newest deployments, the most downloaded
 * files, the latest builds, the open security issues by severity — with the license, version and
 * nodes for administrators.
 */
export function OverviewPage() {
  const { user, menu, menuItems } = useStartupData();
  const admin = Boolean(user?.admin);
  const footer = useFooter();
  const version = useVersion();
  const info = useHomeInfo();
  const nodes = useNodes(admin);
  const online = nodes.data?.nodes.filter((n) => n.status === 'Online').length ?? 0;
  const data = info.data;
  const loading = info.isPending;
  const shortcuts = menu
    ? menuItems.filter((i) => i.sidebar === 'administration' && menuItemState(i, menu).state === 'visible')
    : [];

  return (
    <>
      <PageHeader
        title="Overview"
        description={user ? `Signed in as ${user.name}. Figures count what you may read.` : undefined}
      />
      {info.isError && (
        <Card style={{ marginBottom: 20 }}>
          <LoadError what="The overview" error={info.error} onRetry={() => void info.refetch()} />
        </Card>
      )}
      <Row gutter={[20, 20]}>
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title="Artifacts"
            icon={<FileOutlined />}
            loading={loading}
            value={data?.artifactCount.toLocaleString()}
            footer={<Link to="/repos/tree/General">Browse artifacts</Link>}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title="Storage"
            icon={<HddOutlined />}
            loading={loading}
            value={data ? formatBytes(data.artifactsSize) : ''}
            footer={admin ? <Link to="/admin/monitoring/storage-summary">Storage summary</Link> : 'Space of your files'}
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Figure
            title="Repositories"
            icon={<DatabaseOutlined />}
            loading={loading}
            value={data?.repositoryCount.toLocaleString()}
            footer={
              admin ? (
                <Link to="/admin/repositories">Repositories</Link>
              ) : (
                <Link to="/repos/tree/General">Browse repositories</Link>
              )
            }
          />
        </Col>
        <Col xs={24} sm={12} xl={6}>
          {admin ? (
            <Figure
              title="Nodes online"
              icon={<CloudServerOutlined />}
              loading={nodes.isPending}
              value={`${online} / ${nodes.data?.nodes.length ?? 0}`}
              footer={
                <Link to="/admin/monitoring/service-status">
                  Service status <ArrowRightOutlined />
                </Link>
              }
            />
          ) : (
            <Figure
              title="Version"
              icon={<AppstoreOutlined />}
              loading={version.isPending}
              value={version.data?.version ?? ''}
              footer={footer.data?.licenseLabel}
            />
          )}
        </Col>

        <Col xs={24} xl={16}>
          <Card title="Deployments, last two weeks">
            {loading ? <Skeleton active /> : data && <ActivityChart days={data.deploymentsByDay} />}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title="Most downloaded">
            {loading ? <Skeleton active /> : data && <MostDownloaded files={data.mostDownloaded} />}
          </Card>
        </Col>

        <Col xs={24} xl={12}>
          <Card title="Recent deployments">
            {loading ? (
              <Skeleton active />
            ) : (
              <List
                size="small"
                dataSource={data?.recentDeployments ?? []}
                locale={{
                  emptyText: (
                    <Empty
                      image={Empty.PRESENTED_IMAGE_SIMPLE}
                      description="Nothing deployed yet. Create a repository, then deploy from Artifacts or with curl, npm, mvn, pip or docker."
                    />
                  ),
                }}
                renderItem={(f) => (
                  <List.Item extra={<span title={formatDateTime(f.createdAt)}>{formatRelative(f.createdAt)}</span>}>
                    <List.Item.Meta
                      title={
                        <Link to={treeHref(f.repoKey, f.path)} className="arca-ellipsis">
                          {f.name}
                        </Link>
                      }
                      description={
                        <span className="arca-ellipsis">{`${f.repoKey} · ${formatBytes(f.size)} · ${f.createdBy}`}</span>
                      }
                    />
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="Latest builds" extra={<Link to="/builds">All builds</Link>}>
            {loading ? (
              <Skeleton active />
            ) : (
              <List
                size="small"
                dataSource={data?.latestBuilds ?? []}
                locale={{
                  emptyText: (
                    <Empty
                      image={Empty.PRESENTED_IMAGE_SIMPLE}
                      description="No build info yet. CI jobs publish it with JFrog's CLI or PUT /artifactory/api/build."
                    />
                  ),
                }}
                renderItem={(b) => (
                  <List.Item extra={b.started.slice(0, 16).replace('T', ' ')}>
                    <Link to={buildHref(b.name, b.number)}>{`${b.name} #${b.number}`}</Link>
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>

        <Col xs={24} lg={12}>
          <SecurityOverviewCard
            manage={admin ? menuItems.find((i) => i.key === 'security-scanning')?.path : undefined}
          />
        </Col>
        {admin && (
          <Col xs={24} lg={12}>
            <Card title="This deployment">
              <Statistic title="License" value={footer.data?.licenseLabel ?? '…'} />
              <Typography.Paragraph type="secondary">
                {footer.data?.licensedTo ? `Licensed to ${footer.data.licensedTo}` : 'No valid license'} · Version{' '}
                {version.data?.version ?? '…'} (revision {version.data?.revision ?? '…'})
              </Typography.Paragraph>
            </Card>
          </Col>
        )}
        {shortcuts.length > 0 && (
          <Col xs={24}>
            <Card title="Administration">
              <div className="arca-admin-entries">
                {shortcuts.map((item) => (
                  <Link key={item.key} to={item.path} className="arca-admin-entry">
                    <span className="arca-admin-entry-icon" aria-hidden="true">
                      {menuIcon(item.key)}
                    </span>
                    <span>
                      <span className="arca-admin-entry-label">{item.label}</span>
                      <Typography.Text type="secondary" className="arca-admin-entry-description">
                        {item.description}
                      </Typography.Text>
                    </span>
                  </Link>
                ))}
              </div>
            </Card>
          </Col>
        )}
      </Row>
    </>
  );
}
