import { InboxOutlined } from '@ant-design/icons';
import { Alert, Form, Input, Modal, Progress, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { formatBytes } from '../../../components/format';
import { uploadFile } from '../api/upload-file';
import { useServerErrors } from '../../../lib/server-errors';

export interface DeployModalProps {
  open: boolean;
  repoKey: string;
  /** Folder the file lands in by default ('' for the repository root). */
  folder: string;
  onClose: () => void;
  onDeployed: (path: string) => void;
}

/** Deploy a file: drag and drop or pick it, choose the target path, watch the progress. */
export function DeployModal({ open, repoKey, folder, onClose, onDeployed }: DeployModalProps) {
  const [file, setFile] = useState<File>();
  const [target, setTarget] = useState('');
  const [progress, setProgress] = useState<number>();
  const { errors, clear, capture } = useServerErrors();
  const abort = useRef<AbortController | undefined>(undefined);
  const uploading = progress !== undefined && errors.length === 0 && progress < 1;

  const reset = () => {
    setFile(undefined);
    setTarget('');
    setProgress(undefined);
    clear();
  };
  const close = () => {
    abort.current?.abort();
    reset();
    onClose();
  };
  const pick = (picked: File) => {
    setFile(picked);
    setTarget(folder ? `${folder}/${picked.name}` : picked.name);
    clear();
    setProgress(undefined);
    return false;
  };
  const deploy = async () => {
    if (!file || !target.trim()) return;
    abort.current = new AbortController();
    clear();
    setProgress(0);
    try {
      const created = await uploadFile(repoKey, target.trim(), file, setProgress, abort.current.signal);
      notifySuccess(`Deployed ${created.repo}${created.path}`);
      const path = created.path.replace(/^\//, '');
      reset();
      onDeployed(path);
    } catch (error) {
      capture(error);
    }
  };

  return (
    <Modal
      open={open}
      title={`Deploy to ${repoKey}`}
      okText="Deploy"
      onOk={() => void deploy()}
      okButtonProps={{ disabled: !file || !target.trim() || uploading }}
      confirmLoading={uploading}
      onCancel={close}
      cancelText={uploading ? 'Cancel upload' : 'Cancel'}
      destroyOnHidden
    >
      <Upload.Dragger
        beforeUpload={pick}
        showUploadList={false}
        multiple={false}
        disabled={uploading}
        aria-label="Choose a file to deploy"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">Drop a file here, or click to choose one</p>
        <p className="ant-upload-hint">
          {file
            ? `${file.name} · ${formatBytes(file.size)}`
            : 'Any file type; large files stream straight to the store.'}
        </p>
      </Upload.Dragger>
      {file && (
        <Form layout="vertical" style={{ marginTop: 16 }}>
          <Form.Item
            label="Target path"
            required
            extra={
              <>
                Deployed as{' '}
                <Typography.Text code>
                  {repoKey}/{target || '…'}
                </Typography.Text>
              </>
            }
          >
            <Input
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              disabled={uploading}
              aria-label="Target path"
            />
          </Form.Item>
        </Form>
      )}
      {progress !== undefined && (
        <Progress
          percent={Math.round(progress * 100)}
          status={errors.length ? 'exception' : progress >= 1 ? 'success' : 'active'}
          aria-label="Upload progress"
        />
      )}
      <ErrorList messages={errors} style={{ marginTop: 12 }} />
      {!file && folder && (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          title={`The file lands in ${folder}/ unless you change the target path.`}
        />
      )}
    </Modal>
  );
}
