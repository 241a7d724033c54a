import { CheckCircleFilled, CloseOutlined, InboxOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  Flex,
  Form,
  Input,
  Modal,
  Progress,
  Row,
  Select,
  Typography,
  Upload,
} from 'antd';
import { useRef, useState } from 'react';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { formatBytes, plural } from '../../../components/format';
import { messagesOf } from '../../../lib/server-errors';
import { uploadBundle, uploadFile } from '../api/upload-file';
import { coordinatesFromPom, isArchiveName, layoutPath, type MavenCoordinates } from './deploy-layout';

export interface DeployModalProps {
  open: boolean;
  repoKey: string;
  /** The repository's package type: Maven repositories deploy by their layout. */
  packageType: string;
  /** Folder the files land in by default ('' for the repository root). */
  folder: string;
  onClose: () => void;
  /** After a deploy: the path of the (last) file deployed, or of the bundle's folder. */
  onDeployed: (path: string) => void;
}

interface Pending {
  id: number;
  file: File;
  target: string;
  progress?: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error?: string;
}

const PROPERTY = /^[^=;,\s][^=;,]*=[^;]*$/;

/**
 * Deploys files, as Artifactory's deploy dialog does: several at once (dropped or picked, each
 * with its target path and its own progress), by the repository's layout (Maven coordinates read
 * from a dropped POM), with properties, or one archive as a bundle whose files land in a folder.
 */
export function DeployModal({ open, repoKey, packageType, folder, onClose, onDeployed }: DeployModalProps) {
  const maven = packageType === 'maven' || packageType === 'gradle' || packageType === 'ivy' || packageType === 'sbt';
  const [files, setFiles] = useState<Pending[]>([]);
  const [properties, setProperties] = useState<string[]>([]);
  const [bundle, setBundle] = useState(false);
  const [byLayout, setByLayout] = useState(true);
  const [gav, setGav] = useState<MavenCoordinates>({ groupId: '', artifactId: '', version: '' });
  const [bundleFolder, setBundleFolder] = useState(folder);
  const [running, setRunning] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const abort = useRef<AbortController | undefined>(undefined);
  const nextId = useRef(0);

  const archiveOnly = files.length === 1 && isArchiveName(files[0]!.file.name);
  const asBundle = bundle && archiveOnly;
  const layoutOn = maven && byLayout && !asBundle;
  const targetOf = (p: Pending, coordinates = gav) =>
    layoutOn && coordinates.groupId && coordinates.artifactId && coordinates.version
      ? layoutPath(coordinates, p.file.name)
      : p.target;
  const badProperties = properties.filter((p) => !PROPERTY.test(p));

  const reset = () => {
    setFiles([]);
    setProperties([]);
    setBundle(false);
    setErrors([]);
    setGav({ groupId: '', artifactId: '', version: '' });
    setBundleFolder(folder);
  };
  const close = () => {
    abort.current?.abort();
    reset();
    onClose();
  };
  const add = (picked: File) => {
    const id = nextId.current++;
    setFiles((current) => [
      ...current,
      { id, file: picked, target: folder ? `${folder}/${picked.name}` : picked.name, state: 'waiting' },
    ]);
    setErrors([]);
    if (maven && picked.name.endsWith('.pom')) {
      // the POM says where everything of this deploy belongs
      void picked.text().then((text) => {
        const found = coordinatesFromPom(text);
        if (found) setGav(found);
      });
    }
    return false;
  };
  const change = (id: number, patch: Partial<Pending>) =>
    setFiles((current) => current.map((p) => (p.id === id ? { ...p, ...patch } : p)));

  const deploy = async () => {
    abort.current = new AbortController();
    setRunning(true);
    setErrors([]);
    const matrix = properties.join(';');
    try {
      if (asBundle) {
        const only = files[0]!;
        change(only.id, { state: 'uploading', progress: 0 });
        try {
          const done = await uploadBundle(
            { repoKey, path: bundleFolder.trim(), name: only.file.name, properties: matrix },
            only.file,
            (progress) => change(only.id, { progress }),
            abort.current.signal,
          );
          change(only.id, { state: 'done', progress: 1 });
          notifySuccess(
            `Deployed ${plural(done.files.length, 'file')} of ${only.file.name} to ${repoKey}/${done.path}`,
          );
          reset();
          onDeployed(done.path);
        } catch (error) {
          change(only.id, { state: 'failed', error: messagesOf(error)[0] });
        }
        return;
      }
      let last: string | undefined;
      let failed = 0;
      for (const pending of files) {
        if (pending.state === 'done') continue;
        if (abort.current.signal.aborted) break;
        change(pending.id, { state: 'uploading', progress: 0, error: undefined });
        try {
          const created = await uploadFile(
            repoKey,
            targetOf(pending).trim(),
            pending.file,
            (progress) => change(pending.id, { progress }),
            abort.current.signal,
            matrix,
          );
          change(pending.id, { state: 'done', progress: 1 });
          last = created.path.replace(/^\//, '');
        } catch (error) {
          failed += 1;
          change(pending.id, { state: 'failed', error: messagesOf(error)[0] });
        }
      }
      if (failed) {
        setErrors([`${plural(failed, 'file')} could not be deployed: see the list. Deploy again to retry them.`]);
      } else if (last !== undefined) {
        notifySuccess(files.length === 1 ? `Deployed ${repoKey}/${last}` : `Deployed ${plural(files.length, 'file')}`);
        reset();
        onDeployed(last);
      }
    } finally {
      setRunning(false);
    }
  };

  const ready =
    files.length > 0 &&
    !badProperties.length &&
    (asBundle || files.every((p) => targetOf(p).trim())) &&
    (!layoutOn || Boolean(gav.groupId && gav.artifactId && gav.version) || files.every((p) => p.target.trim()));

  return (
    <Modal
      open={open}
      width={760}
      title={`Deploy to ${repoKey}`}
      okText={files.length > 1 ? `Deploy ${files.length} files` : 'Deploy'}
      onOk={() => void deploy()}
      okButtonProps={{ disabled: !ready || running }}
      confirmLoading={running}
      onCancel={close}
      cancelText={running ? 'Cancel upload' : 'Cancel'}
      destroyOnHidden
    >
      <Upload.Dragger
        beforeUpload={add}
        showUploadList={false}
        multiple
        disabled={running}
        aria-label="Choose files to deploy"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">Drop files here, or click to choose them</p>
        <p className="ant-upload-hint">
          Several at once; large files stream straight to the store.
          {maven ? ' Drop the POM with the jar to deploy both by their coordinates.' : ''}
        </p>
      </Upload.Dragger>

      {maven && files.length > 0 && !asBundle && (
        <div style={{ marginTop: 16 }}>
          <Checkbox checked={byLayout} onChange={(e) => setByLayout(e.target.checked)} disabled={running}>
            Deploy according to the Maven layout
          </Checkbox>
          {layoutOn && (
            <Row gutter={12} style={{ marginTop: 8 }}>
              {(['groupId', 'artifactId', 'version'] as const).map((key) => (
                <Col span={8} key={key}>
                  <Form.Item label={key} required layout="vertical" style={{ marginBottom: 8 }} htmlFor={`gav-${key}`}>
                    <Input
                      id={`gav-${key}`}
                      value={gav[key]}
                      disabled={running}
                      onChange={(e) => setGav({ ...gav, [key]: e.target.value.trim() })}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          )}
        </div>
      )}

      {files.length > 0 && (
        <div style={{ marginTop: 16 }} aria-label="Files to deploy" role="list">
          {files.map((p) => (
            <div key={p.id} role="listitem" className="arca-deploy-file">
              <Flex justify="space-between" align="center" gap={8}>
                <Typography.Text strong className="arca-ellipsis" title={p.file.name}>
                  {p.file.name}
                </Typography.Text>
                <Flex gap={8} align="center" style={{ flex: 'none' }}>
                  <Typography.Text type="secondary">{formatBytes(p.file.size)}</Typography.Text>
                  {p.state === 'done' ? (
                    <CheckCircleFilled style={{ color: '#15803d' }} aria-label="Deployed" />
                  ) : (
                    <Button
                      size="small"
                      type="text"
                      icon={<CloseOutlined />}
                      aria-label={`Remove ${p.file.name}`}
                      disabled={running}
                      onClick={() => setFiles((current) => current.filter((f) => f.id !== p.id))}
                    />
                  )}
                </Flex>
              </Flex>
              {!asBundle && (
                <Input
                  size="small"
                  style={{ marginTop: 4 }}
                  value={targetOf(p)}
                  disabled={running || layoutOn}
                  onChange={(e) => change(p.id, { target: e.target.value })}
                  addonBefore={`${repoKey}/`}
                  aria-label={`Target path of ${p.file.name}`}
                />
              )}
              {p.progress !== undefined && (
                <Progress
                  size="small"
                  percent={Math.round(p.progress * 100)}
                  status={p.state === 'failed' ? 'exception' : p.state === 'done' ? 'success' : 'active'}
                  aria-label={`Progress of ${p.file.name}`}
                />
              )}
              {p.error && <Typography.Text type="danger">{p.error}</Typography.Text>}
            </div>
          ))}
        </div>
      )}

      {archiveOnly && (
        <div style={{ marginTop: 12 }}>
          <Checkbox checked={bundle} onChange={(e) => setBundle(e.target.checked)} disabled={running}>
            Deploy as a bundle: the files inside the archive, not the archive
          </Checkbox>
          {asBundle && (
            <Form.Item
              label="Target folder"
              layout="vertical"
              style={{ marginTop: 8, marginBottom: 0 }}
              htmlFor="bundle-folder"
              extra="Every file of the archive lands under this folder, with its path inside the archive."
            >
              <Input
                id="bundle-folder"
                value={bundleFolder}
                disabled={running}
                addonBefore={`${repoKey}/`}
                onChange={(e) => setBundleFolder(e.target.value)}
              />
            </Form.Item>
          )}
        </div>
      )}

      {files.length > 0 && (
        <Form.Item
          label="Properties"
          layout="vertical"
          style={{ marginTop: 12, marginBottom: 0 }}
          htmlFor="deploy-properties"
          validateStatus={badProperties.length ? 'error' : undefined}
          help={
            badProperties.length
              ? `Write each property as key=value (several values: key=a,b): ${badProperties.join(', ')}`
              : 'Set on every file deployed, e.g. release=1.0 or team=web,api.'
          }
        >
          <Select
            id="deploy-properties"
            mode="tags"
            open={false}
            value={properties}
            disabled={running}
            onChange={(values: string[]) => setProperties(values.map((v) => v.trim()).filter(Boolean))}
            placeholder="key=value, then Enter"
            aria-label="Properties"
          />
        </Form.Item>
      )}
      <ErrorList messages={errors} style={{ marginTop: 12 }} />
      {!files.length && folder && (
        <Alert
          style={{ marginTop: 12 }}
          type="info"
          showIcon
          title={`Files land in ${folder}/ unless you change their target paths.`}
        />
      )}
    </Modal>
  );
}
