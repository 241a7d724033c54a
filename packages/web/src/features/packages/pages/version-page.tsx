import { DownloadOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { packageTypeLabel, type CatalogueVersion, type CatalogueVersionFile } from '@arca/contracts';
import { API_BASE } from '../../../api/client';
import { PageHeader } from '../../../components/page-header';
import { NotFoundResult } from '../../../components/not-found-result';
import { formatBytes } from '../../../components/format';
import { formatDateTime } from '../../../components/time';
import { useVersions } from '../api/get-package';
import { InstallCommand, dockerImageName } from '../components/install-command';
import { packageHref } from '../components/package-link';
import { treeHref } from '../../../lib/tree-href';
import { DependenciesTable } from '../components/dependencies-table';
import { ImageLayers } from '../components/image-layers';
import { SecurityCard } from '../components/security-card';

/** How the console names a type's own fields. */
const PROPERTY_LABELS: Record<string, string> = {
  groupId: 'Group ID',
  artifactId: 'Artifact ID',
  version: 'Version',
  packaging: 'Packaging',
  snapshotVersion: 'Snapshot build',
  digest: 'Manifest digest',
  mediaType: 'Manifest type',
  platforms: 'Platforms',
  layers: 'Layers',
  totalSize: 'Total size (bytes)',
  created: 'Created',
};

/** An image's fields the Layers card shows already. */
const SHOWN_WITH_LAYERS = ['mediaType', 'platforms', 'layers', 'totalSize'];

/** The `<dependency>` element a POM declares this Maven version with. */
function mavenDependency(v: CatalogueVersion): string {
  const field = (name: string) => v.properties.find((p) => p.name === name)?.values[0] ?? '';
  return `<dependency>\n  <groupId>${field('groupId')}</groupId>\n  <artifactId>${field('artifactId')}</artifactId>\n  <version>${v.name}</version>\n</dependency>`;
}

/** One version: its files, digest, the repositories that hold it (with links into the tree), dependencies. */
export function VersionPage({ packageId, version }: { packageId: string; version: string }) {
  const versions = useVersions(packageId);
  if (versions.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  const v = versions.data?.find((x) => x.name === version);
  const [, type = '', name = packageId] = /^([a-z0-9]+):\/\/(.+)$/.exec(packageId) ?? [];
  if (!v) {
    return (
      <NotFoundResult
        title={`Version '${version}' of ${name} was not found`}
        backTo={packageHref(packageId)}
        backLabel={`Back to ${name}`}
      />
    );
  }
  const lead = v.repos[0];
  const download = lead
    ? `${API_BASE}download?repoKey=${encodeURIComponent(lead.name)}&path=${encodeURIComponent(lead.leadFilePath)}`
    : undefined;
  return (
    <>
      <PageHeader
        title={`${name} ${v.name}`}
        description={
          <Space wrap>
            <Tag color="blue">{packageTypeLabel(type)}</Tag>
            <Link to={packageHref(packageId)}>All versions of {name}</Link>
          </Space>
        }
        extra={
          download && (
            <Button icon={<DownloadOutlined />} href={download}>
              Download
            </Button>
          )
        }
      />
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card>
          <InstallCommand
            type={type}
            name={type === 'docker' ? dockerImageName(lead?.name, name) : name}
            version={v.name}
          />
          <Descriptions column={{ xs: 1, md: 2 }} size="small" style={{ marginTop: 12 }}>
            <Descriptions.Item label="Published">{formatDateTime(v.created)}</Descriptions.Item>
            <Descriptions.Item label="Size">{formatBytes(v.size)}</Descriptions.Item>
            <Descriptions.Item label="Downloads">{v.stats.downloadCount.toLocaleString()}</Descriptions.Item>
            <Descriptions.Item label="Licenses">
              {v.licenses.length ? v.licenses.map((l) => <Tag key={l.name}>{l.name}</Tag>) : 'None declared'}
            </Descriptions.Item>
            {v.properties
              .filter((p) => !(type === 'docker' && SHOWN_WITH_LAYERS.includes(p.name)))
              .map((p) => (
                <Descriptions.Item key={p.name} label={PROPERTY_LABELS[p.name] ?? p.name}>
                  {p.values.join(', ')}
                </Descriptions.Item>
              ))}
            <Descriptions.Item label="Digest (SHA-256)" span={2}>
              <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                {v.digest}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          {type === 'maven' && (
            <Typography.Paragraph
              copyable={{ text: mavenDependency(v), tooltips: ['Copy the dependency', 'Copied'] }}
              style={{ marginTop: 12 }}
              aria-label="Maven dependency"
            >
              <pre style={{ margin: 0 }}>{mavenDependency(v)}</pre>
            </Typography.Paragraph>
          )}
        </Card>
        {lead && <SecurityCard repoKey={lead.name} path={lead.leadFilePath} />}
        <Card title="Files">
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            dataSource={v.files}
            columns={[
              {
                title: 'Name',
                dataIndex: 'name',
                render: (fileName: string, f: CatalogueVersionFile) => (
                  <Space>
                    {fileName}
                    {f.lead && <Tag>lead file</Tag>}
                  </Space>
                ),
              },
              { title: 'Size', dataIndex: 'size', render: (size: number) => formatBytes(size) },
              { title: 'Type', dataIndex: 'mimeType' },
              {
                title: 'SHA-256',
                dataIndex: 'sha256',
                render: (sha: string) => <Typography.Text code>{sha.slice(0, 16)}…</Typography.Text>,
              },
            ]}
          />
        </Card>
        <Card title="Repositories">
          <Table
            size="small"
            rowKey="name"
            pagination={false}
            dataSource={v.repos}
            columns={[
              { title: 'Repository', dataIndex: 'name' },
              { title: 'Type', dataIndex: 'type', render: (t: string) => <Tag>{t}</Tag> },
              {
                title: 'Lead file',
                dataIndex: 'leadFilePath',
                render: (path: string, r: { name: string }) => (
                  <Link to={treeHref(r.name, path)}>
                    <FolderOpenOutlined aria-hidden /> {path}
                  </Link>
                ),
              },
            ]}
          />
        </Card>
        {type === 'docker' && lead ? (
          <ImageLayers repoKey={lead.name} path={lead.leadFilePath} />
        ) : (
          <Card title="Dependencies">
            <DependenciesTable dependencies={v.dependencies} emptyText="This version declares no dependencies." />
          </Card>
        )}
      </Space>
    </>
  );
}
