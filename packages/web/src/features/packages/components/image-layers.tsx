import { Card, Descriptions, Skeleton, Table, Tag, Typography } from 'antd';
import { formatBytes } from '../../../components/format';
import { useImageView, type ImageView } from '../api/get-image-view';

type Layer = ImageView['blobsInfo'][number];

/** An image tag's platforms, size and layers, each layer's share of the size drawn as a bar. */
export function ImageLayers({ repoKey, path }: { repoKey: string; path: string }) {
  const view = useImageView(repoKey, path);
  if (view.isPending)
    return (
      <Card title="Layers">
        <Skeleton active />
      </Card>
    );
  if (view.isError)
    return (
      <Card title="Layers">
        <Typography.Text type="danger">{view.error.message}</Typography.Text>
      </Card>
    );
  const { tagInfo, blobsInfo, config } = view.data;
  const largest = Math.max(1, ...blobsInfo.map((l) => l.size));
  return (
    <Card title={`Layers (${blobsInfo.length})`}>
      <Descriptions column={{ xs: 1, md: 2 }} size="small" style={{ marginBottom: 12 }}>
        <Descriptions.Item label="Platforms">
          {tagInfo.platforms.length ? tagInfo.platforms.map((p) => <Tag key={p}>{p}</Tag>) : 'Not stated'}
        </Descriptions.Item>
        <Descriptions.Item label="Total size">{formatBytes(tagInfo.totalSize)}</Descriptions.Item>
        <Descriptions.Item label="Manifest type">{tagInfo.mediaType}</Descriptions.Item>
        {config && (
          <Descriptions.Item label="Config">
            <Typography.Text code>{config.digest.slice(0, 19)}…</Typography.Text> ({formatBytes(config.size)})
          </Descriptions.Item>
        )}
      </Descriptions>
      <Table<Layer>
        size="small"
        rowKey="digest"
        pagination={false}
        dataSource={blobsInfo}
        locale={{ emptyText: 'This image has no layers.' }}
        columns={[
          { title: '#', key: 'n', width: 48, render: (_v, _l, i) => i + 1 },
          {
            title: 'Digest',
            dataIndex: 'digest',
            render: (digest: string) => (
              <Typography.Text code copyable={{ text: digest }}>
                {digest.slice(7, 19)}
              </Typography.Text>
            ),
          },
          {
            title: 'Size',
            dataIndex: 'size',
            width: 260,
            render: (size: number) => (
              <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                <div
                  aria-hidden
                  style={{
                    height: 8,
                    borderRadius: 4,
                    background: '#1d4ed8',
                    width: `${Math.max(2, (size / largest) * 140)}px`,
                  }}
                />
                <span>{formatBytes(size)}</span>
              </div>
            ),
          },
          {
            title: 'Created by',
            dataIndex: 'command',
            render: (command: string) =>
              command ? (
                <Typography.Text code>{command}</Typography.Text>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
        ]}
      />
    </Card>
  );
}
