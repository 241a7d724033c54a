import { CloudUploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Empty, Progress, Table, Typography } from 'antd';
import type { BackupEntry } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { formatBytes } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../components/time';
import { useBackups, useStartBackup } from '../api/backups';
import { ListEmpty } from '../../../components/list-empty';

const STEP_LABELS: Record<string, string> = {
  starting: 'Starting',
  'linking the previous backup': 'Taking over the previous backup’s binaries',
  database: 'Copying the database',
  binaries: 'Copying new binaries',
};

/**
 * Backups (`/admin/configuration/backups`): back the deployment up now while it keeps serving,
 * follow the copy, and see the backups the backup folder holds.
 */
export function BackupsPage() {
  const backups = useBackups();
  const start = useStartBackup();
  const data = backups.data;
  const running = data?.running;
  return (
    <>
      <PageHeader
        title="Backups"
        description="A backup holds the database as of one moment, the binaries it references and the deployment's keys; Arca keeps serving while it is made. Restore one on a new machine with arca restore --from DIR."
        extra={
          <Button
            type="primary"
            icon={<CloudUploadOutlined />}
            loading={start.isPending}
            disabled={Boolean(running) || Boolean(data?.refused)}
            onClick={() =>
              void runSafely(() => start.mutateAsync().then(() => notifySuccess('Backing up; progress is shown below')))
            }
          >
            Back Up Now
          </Button>
        }
      />
      {running && (
        <Card size="small" style={{ marginBottom: 20 }} aria-live="polite">
          <Typography.Text strong>{STEP_LABELS[running.step] ?? running.step}</Typography.Text>
          <Progress
            percent={running.total ? Math.floor((running.done / running.total) * 100) : 0}
            status="active"
            aria-label="Backup progress"
          />
          <Typography.Text type="secondary">
            Started {formatDateTime(new Date(running.startedAt).toISOString())}
            {running.node ? ` on ${running.node}` : ''}
          </Typography.Text>
        </Card>
      )}
      {data?.refused && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 20 }}
          title="Backups need a folder every node shares"
          description={data.refused}
        />
      )}
      {data?.lastError && !running && !data.refused && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 20 }}
          title="The last backup failed"
          description={data.lastError}
        />
      )}
      <Card size="small" style={{ marginBottom: 20 }}>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'dir', label: 'Backup folder', children: <code>{data?.directory ?? '…'}</code> },
            {
              key: 'schedule',
              label: 'Schedule',
              children: data?.schedule ? <code>{data.schedule}</code> : 'Only when asked (set ARCA_BACKUP_SCHEDULE)',
            },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          Keep the backup folder on another disk than the data directory (ARCA_BACKUP_DIR): a backup next to what it
          saves is lost with it.
        </Typography.Paragraph>
      </Card>
      <Card title="Backups">
        <Table<BackupEntry>
          rowKey="name"
          loading={backups.isPending}
          dataSource={data?.backups ?? []}
          pagination={false}
          locale={{
            emptyText: (
              <ListEmpty query={backups} what="The backups">
                <Empty description="No backup yet. Back up now, or set a schedule." />
              </ListEmpty>
            ),
          }}
          columns={[
            { title: 'Backup', dataIndex: 'name', render: (n: string) => <code>{n}</code> },
            { title: 'Made', dataIndex: 'created', render: (c: string) => formatDateTime(c) },
            {
              title: 'Database',
              dataIndex: 'engine',
              render: (e: string, b) =>
                e === 'sqlite' ? 'SQLite' : b.method === 'pg_dump' ? 'PostgreSQL (pg_dump)' : 'PostgreSQL (export)',
            },
            { title: 'Rows', dataIndex: 'rows', align: 'right', render: (n: number) => n.toLocaleString() },
            { title: 'Binaries', dataIndex: 'binaries', align: 'right', render: (n: number) => n.toLocaleString() },
            { title: 'Size', dataIndex: 'bytes', align: 'right', render: formatBytes },
            {
              title: 'New binaries copied',
              dataIndex: 'copied',
              align: 'right',
              render: (n: number, b) => `${n.toLocaleString()} of ${b.binaries.toLocaleString()}`,
            },
            { title: 'Took', dataIndex: 'seconds', align: 'right', render: (s: number) => `${s} s` },
          ]}
        />
      </Card>
    </>
  );
}
