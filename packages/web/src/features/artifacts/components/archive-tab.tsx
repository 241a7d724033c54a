import { FileOutlined, FolderOutlined } from '@ant-design/icons';
import { Button, Empty, Table } from 'antd';
import type { ArchiveEntry } from '@arca/contracts';
import { formatBytes } from '../../../components/format';
import { useArchiveEntries } from '../api/get-archive-entries';

/** The entries inside a zip, jar or tgz; a file entry can be viewed as text. */
export function ArchiveTab({
  repoKey,
  path,
  onView,
}: {
  repoKey: string;
  path: string;
  onView: (entry: string) => void;
}) {
  const entries = useArchiveEntries(repoKey, path);
  return (
    <Table<ArchiveEntry>
      rowKey="path"
      size="small"
      loading={entries.isPending}
      dataSource={entries.data}
      pagination={{ pageSize: 100, hideOnSinglePage: true }}
      locale={{
        emptyText: (
          <Empty description={entries.isError ? 'This archive could not be read.' : 'The archive is empty.'} />
        ),
      }}
      columns={[
        {
          title: 'Entry',
          dataIndex: 'path',
          render: (p: string, e) =>
            e.folder ? (
              <span>
                <FolderOutlined /> {p}
              </span>
            ) : (
              <Button type="link" size="small" icon={<FileOutlined />} onClick={() => onView(p)} style={{ padding: 0 }}>
                {p}
              </Button>
            ),
        },
        {
          title: 'Size',
          dataIndex: 'size',
          align: 'right',
          width: 120,
          render: (s: number, e) => (e.folder ? '' : formatBytes(s)),
        },
      ]}
    />
  );
}
