import { Card, Empty, Progress, Select, Table } from 'antd';
import { useState } from 'react';
import { formatBytes } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { useLargestFolders } from '../api/get-storage-summary';

/** Where a repository's space goes: its folders holding the most bytes, below each at any depth. */
export function LargestFoldersCard({ repositories }: { repositories: { repoKey: string; usedSpace: number }[] }) {
  const choices = repositories.filter((r) => r.usedSpace > 0).sort((a, b) => b.usedSpace - a.usedSpace);
  const [chosen, setChosen] = useState<string | undefined>();
  const repoKey = chosen ?? choices[0]?.repoKey;
  const folders = useLargestFolders(repoKey);
  const total = choices.find((r) => r.repoKey === repoKey)?.usedSpace ?? 0;
  return (
    <Card
      title="Largest folders"
      style={{ marginBottom: 20 }}
      extra={
        <Select
          aria-label="Repository"
          style={{ width: 220 }}
          value={repoKey}
          placeholder="Repository"
          options={choices.map((r) => ({ value: r.repoKey, label: r.repoKey }))}
          onChange={setChosen}
        />
      }
    >
      {repoKey === undefined ? (
        <Empty description="Nothing is stored yet." />
      ) : folders.isError ? (
        <LoadError what="The folders" error={folders.error} onRetry={() => void folders.refetch()} />
      ) : (
        <Table
          rowKey="path"
          size="small"
          loading={folders.isPending}
          dataSource={folders.data?.folders ?? []}
          pagination={false}
          locale={{ emptyText: <Empty description="Every file of this repository is at its top level." /> }}
          columns={[
            { title: 'Folder', dataIndex: 'path', render: (p: string) => <code>{p}/</code> },
            {
              title: 'Files',
              dataIndex: 'files',
              align: 'right',
              width: 100,
              render: (n: number) => n.toLocaleString(),
            },
            { title: 'Size', dataIndex: 'size', align: 'right', width: 110, render: formatBytes },
            {
              title: 'Share of the repository',
              dataIndex: 'size',
              key: 'share',
              width: 220,
              render: (size: number) => (
                <Progress
                  percent={total ? Math.round((size / total) * 1000) / 10 : 0}
                  size="small"
                  aria-label={`${total ? ((size / total) * 100).toFixed(1) : 0} % of the repository`}
                />
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
