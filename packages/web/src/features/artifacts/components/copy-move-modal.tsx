import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { copyOrMoveItem } from '../api/copy-move-item';
import { useTreeRepos } from '../api/get-tree-repos';
import { useServerErrors } from '../../../lib/server-errors';

export interface CopyMoveModalProps {
  mode: 'copy' | 'move' | undefined;
  repoKey: string;
  path: string;
  onClose: () => void;
  onDone: (target: { repoKey: string; path: string }) => void;
}

/** Copy or move an item (with everything below it) to a local repository. */
export function CopyMoveModal({ mode, repoKey, path, onClose, onDone }: CopyMoveModalProps) {
  const repos = useTreeRepos();
  const [targetRepo, setTargetRepo] = useState<string>();
  const [targetPath, setTargetPath] = useState(path);
  const { errors, clear, capture } = useServerErrors();
  const [busy, setBusy] = useState(false);
  const verb = mode === 'move' ? 'Move' : 'Copy';
  const submit = async () => {
    if (!mode || !targetRepo) return;
    setBusy(true);
    clear();
    try {
      const result = await copyOrMoveItem(mode, { repoKey, path, targetRepoKey: targetRepo, targetPath });
      notifySuccess(
        `${verb === 'Move' ? 'Moved' : 'Copied'} ${result.files} file(s) to ${result.repoKey}/${result.path}`,
      );
      onDone({ repoKey: result.repoKey, path: result.path });
    } catch (error) {
      capture(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={mode !== undefined}
      title={`${verb} ${repoKey}/${path}`}
      okText={verb}
      onOk={() => void submit()}
      okButtonProps={{ disabled: !targetRepo }}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
    >
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form layout="vertical">
        <Form.Item label="Target repository" required>
          <Select
            aria-label="Target repository"
            value={targetRepo}
            onChange={setTargetRepo}
            placeholder="Pick a local repository"
            options={(repos.data ?? [])
              .filter((r) => r.repoType === 'local')
              .map((r) => ({ value: r.repoKey, label: r.repoKey }))}
          />
        </Form.Item>
        <Form.Item label="Target path" extra="Empty keeps the same path.">
          <Input aria-label="Target path" value={targetPath} onChange={(e) => setTargetPath(e.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
