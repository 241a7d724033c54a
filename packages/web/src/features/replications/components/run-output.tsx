import { Button, Modal, Progress, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { type ReplicationRunStatus } from '@arca/contracts';
import { LoadError } from '../../../components/load-error';
import { StatusTag, type Tone } from '../../../components/status-tag';
import { formatDateTime } from '../../../components/time';
import { useRunOutput } from '../api/replications';

/** A replication run's status, and its output with each file linked to the tree. */

const TONES: Record<ReplicationRunStatus, Tone> = {
  running: 'info',
  success: 'success',
  partial: 'warning',
  failed: 'error',
};
export const LABELS: Record<ReplicationRunStatus, string> = {
  running: 'Running',
  success: 'Success',
  partial: 'Partly failed',
  failed: 'Failed',
};

export const RunStatusTag = ({ status }: { status: ReplicationRunStatus }) => (
  <StatusTag tone={TONES[status]}>{LABELS[status]}</StatusTag>
);

export const treeLink = (repo: string, path = '') => `/repos/tree/General/${repo}${path ? `/${path}` : ''}`;
const legacyLink = (repo: string, path = '') =>
  `/artifactory/webapp/#/artifacts/browse/tree/General/${repo}${path ? `/${path}` : ''}`;

/** A run's output, each line naming a file linked to it in the tree (and the legacy address). */
export function RunOutputDialog({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const output = useRunOutput(id);
  const run = output.data?.run;
  return (
    <Modal
      open={Boolean(id)}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
      width={900}
      title="Run output"
    >
      {output.isPending && <Typography.Text type="secondary">Loading the run…</Typography.Text>}
      {output.isError && <LoadError what="The run" error={output.error} onRetry={() => void output.refetch()} />}
      {run && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <RunStatusTag status={run.status} />
            <Typography.Text>{`${run.replication_key}: ${run.repo_key} ${run.strategy === 'push' ? '→' : '←'} ${run.deployment} / ${run.remote_repo_key}`}</Typography.Text>
            <Typography.Text type="secondary">{formatDateTime(run.started)}</Typography.Text>
          </Space>
          {run.status === 'running' && (
            <Progress percent={run.files_total ? Math.floor((run.files_done / run.files_total) * 100) : 0} />
          )}
          <div
            aria-label="Output"
            tabIndex={0}
            style={{
              fontFamily: 'monospace',
              fontSize: 12,
              background: '#f6f8fa',
              padding: 12,
              maxHeight: 420,
              overflow: 'auto',
            }}
          >
            {(output.data?.output ?? '').split('\n').map((line, i) => {
              const match = /^(\S+) (Sent|Deleted|Failed|Failed to delete) ([^\s:]+)/.exec(line);
              return (
                <div key={i}>
                  {line}
                  {match && match[3] && match[2] !== 'Deleted' && (
                    <>
                      {' '}
                      <Link to={treeLink(run.repo_key, match[3])}>tree</Link>{' '}
                      <a href={legacyLink(run.repo_key, match[3])}>legacy</a>
                    </>
                  )}
                </div>
              );
            })}
          </div>
        </Space>
      )}
    </Modal>
  );
}
