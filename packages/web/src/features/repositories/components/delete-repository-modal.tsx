import { Alert, Form, Input, Modal, Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { RepositoryDeletion, RepositorySummary } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { formatBytes, plural } from '../../../components/format';
import { useServerErrors } from '../../../lib/server-errors';
import {
  deleteRepositoryWithContent,
  repositoryDeletionProgress,
  useRefreshRepositories,
} from '../api/delete-repository';

/** How often a running deletion is asked for its progress. */
const POLL_MS = 700;

/**
 * Deletes a repository and everything in it, for good: says how many files and bytes go, asks for
 * the key to be typed, then shows the deletion's progress until it is done.
 */
export function DeleteRepositoryModal({ repo, onClose }: { repo: RepositorySummary; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const [progress, setProgress] = useState<RepositoryDeletion>();
  const { errors, capture } = useServerErrors();
  const refresh = useRefreshRepositories();
  const running = progress?.state === 'running';

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      repositoryDeletionProgress(repo.key).then(
        // a worker that does not run the deletion answers its state without figures: keep the last ones
        (next) => setProgress((last) => (next.files === 0 && last ? { ...last, state: next.state } : next)),
        capture,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, repo.key, capture]);

  useEffect(() => {
    if (progress?.state === 'done') {
      notifySuccess(`Repository ${repo.key} was deleted with ${plural(progress.deletedFiles, 'file')}`);
      void refresh();
      onClose();
    } else if (progress?.state === 'failed') capture(new Error(progress.message ?? 'The deletion failed.'));
  }, [progress, repo.key, refresh, onClose, capture]);

  const start = async () => {
    try {
      setProgress(await deleteRepositoryWithContent(repo.key, typed));
    } catch (error) {
      capture(error);
    }
  };
  const percent = progress && progress.files > 0 ? Math.floor((100 * progress.deletedFiles) / progress.files) : 0;

  return (
    <Modal
      open
      title={`Delete repository ${repo.key}?`}
      okText="Delete repository"
      okButtonProps={{ danger: true, disabled: typed !== repo.key || running }}
      confirmLoading={running}
      cancelButtonProps={{ disabled: running }}
      closable={!running}
      maskClosable={false}
      onOk={() => void start()}
      onCancel={onClose}
    >
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      {repo.files > 0 ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={`${plural(repo.files, 'file')}, ${formatBytes(repo.usedSpace)}, ${repo.files === 1 ? 'is' : 'are'} deleted for good`}
          description="They do not go to the trash can and cannot be restored. Its configuration is removed too."
        />
      ) : (
        <Typography.Paragraph>
          The repository is empty: its configuration is removed. This cannot be undone.
        </Typography.Paragraph>
      )}
      {running || progress?.state === 'done' ? (
        <div role="status" aria-live="polite">
          <Typography.Paragraph style={{ marginBottom: 4 }}>
            Deleted {progress!.deletedFiles.toLocaleString()} of {plural(progress!.files, 'file')} (
            {formatBytes(progress!.deletedBytes)})
          </Typography.Paragraph>
          <Progress percent={percent} status="active" aria-label="Deletion progress" />
        </div>
      ) : (
        <Form layout="vertical" onFinish={() => void start()}>
          <Form.Item
            label={
              <span>
                Type <Typography.Text code>{repo.key}</Typography.Text> to confirm
              </span>
            }
            htmlFor="confirm-repository-key"
            required
          >
            <Input
              id="confirm-repository-key"
              autoComplete="off"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
