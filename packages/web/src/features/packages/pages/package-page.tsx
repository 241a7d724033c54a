import { DownloadOutlined } from '@ant-design/icons';
import { Card, Col, Descriptions, Row, Skeleton, Space, Statistic, Table, Tabs, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { packageTypeLabel, type CatalogueVersion } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { NotFoundResult } from '../../../components/not-found-result';
import { formatBytes } from '../../../components/format';
import { formatDateTime, formatRelative } from '../../../components/time';
import { usePackage, useVersions } from '../api/get-package';
import { InstallCommand, dockerImageName } from '../components/install-command';
import { packageHref } from '../components/package-link';
import { Readme } from '../components/readme';
import { DependenciesTable } from '../components/dependencies-table';

/** One package: what it is, how to install it, its readme, versions (newest first) and dependencies. */
export function PackagePage({ packageId }: { packageId: string }) {
  const pkg = usePackage(packageId);
  const versions = useVersions(packageId);
  if (pkg.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (pkg.isError || !pkg.data) {
    return (
      <NotFoundResult
        title={`Package '${packageId.replace(/^[a-z0-9]+:\/\//, '')}' was not found`}
        backTo="/packages"
        backLabel="Back to Packages"
      />
    );
  }
  const p = pkg.data;
  const latest = versions.data?.find((v) => v.name === p.latestVersion);
  return (
    <>
      <PageHeader
        title={p.name}
        description={
          <Space wrap>
            <Tag color="blue">{packageTypeLabel(p.packageType)}</Tag>
            <span>
              {p.packageType === 'docker' ? 'Newest tag' : 'Latest version'}: {p.latestVersion}
            </span>
            <span>· updated {formatRelative(p.modified)}</span>
          </Space>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card>
            {p.description && <Typography.Paragraph style={{ fontSize: 15 }}>{p.description}</Typography.Paragraph>}
            <InstallCommand
              type={p.packageType}
              name={p.packageType === 'docker' ? dockerImageName(latest?.repos[0]?.name, p.name) : p.name}
              version={p.latestVersion}
            />
            <Tabs
              style={{ marginTop: 8 }}
              items={[
                { key: 'readme', label: 'Readme', children: <Readme text={p.readme} /> },
                {
                  key: 'versions',
                  label: `Versions (${p.versionsCount})`,
                  children: (
                    <VersionsTable packageId={packageId} versions={versions.data} loading={versions.isPending} />
                  ),
                },
                {
                  key: 'dependencies',
                  label: `Dependencies (${latest?.dependencies.length ?? 0})`,
                  children: (
                    <DependenciesTable
                      dependencies={latest?.dependencies ?? []}
                      emptyText={`${p.name} ${p.latestVersion} declares no dependencies.`}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card>
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              <Row gutter={16}>
                <Col span={12}>
                  <Statistic title="Downloads" value={p.stats.downloads} prefix={<DownloadOutlined aria-hidden />} />
                </Col>
                <Col span={12}>
                  <Statistic title="Versions" value={p.versionsCount} />
                </Col>
              </Row>
              <Descriptions column={1} size="small">
                <Descriptions.Item label="Licenses">
                  {p.licenses.length ? p.licenses.map((l) => <Tag key={l.name}>{l.name}</Tag>) : 'None declared'}
                </Descriptions.Item>
                <Descriptions.Item label="Keywords">
                  {p.tags.length ? (
                    <Space wrap size={4}>
                      {p.tags.map((t) => (
                        <Tag key={t} bordered={false}>
                          {t}
                        </Tag>
                      ))}
                    </Space>
                  ) : (
                    'None'
                  )}
                </Descriptions.Item>
                <Descriptions.Item label="First published">{formatDateTime(p.created)}</Descriptions.Item>
                <Descriptions.Item label="Last updated">{formatDateTime(p.modified)}</Descriptions.Item>
              </Descriptions>
            </Space>
          </Card>
        </Col>
      </Row>
    </>
  );
}

function VersionsTable({
  packageId,
  versions,
  loading,
}: {
  packageId: string;
  versions: CatalogueVersion[] | undefined;
  loading: boolean;
}) {
  return (
    <Table
      size="small"
      rowKey="name"
      loading={loading}
      dataSource={versions ?? []}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      columns={[
        {
          title: 'Version',
          dataIndex: 'name',
          render: (name: string) => <Link to={packageHref(packageId, name)}>{name}</Link>,
        },
        { title: 'Published', dataIndex: 'created', render: (iso: string) => formatDateTime(iso) },
        { title: 'Size', dataIndex: 'size', render: (size: number) => formatBytes(size) },
        {
          title: 'Downloads',
          key: 'downloads',
          render: (_: unknown, v: CatalogueVersion) => v.stats.downloadCount.toLocaleString(),
        },
        {
          title: 'Repositories',
          key: 'repos',
          render: (_: unknown, v: CatalogueVersion) => v.repos.map((r) => <Tag key={r.name}>{r.name}</Tag>),
        },
      ]}
    />
  );
}
