import { DeleteOutlined, RedoOutlined, StopOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DistributionTracker } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { formatBytes, plural } from '../../../components/format';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useCurrentUser } from '../../auth';
import { useDeployments } from '../../deployments';
import { useAbortDistribution, useDistribute, useTrackers } from '../api/release-bundles';

const PAIRING_PAGE = '/admin/mission_control/platform_units';

/** The spec's rule: admins get the way to add a target when there is none; others are told who can. */
function NoTargets({ admin }: { admin: boolean }) {
  return admin ? (
    <Alert
      type="info"
      showIcon
      title="No deployment is paired for distribution yet."
      description={
        <span>
          <Link to={PAIRING_PAGE}>Pair a deployment</Link> under Platform Deployments: it becomes a distribution target.
        </span>
      }
    />
  ) : (
    <Alert
      type="info"
      showIcon
      title="Release bundles are distributed to the deployments an administrator pairs with this one."
    />
  );
}

export interface DistributeDialogProps {
  name: string;
  version: string;
  open: boolean;
  onClose: () => void;
}

/** Distributes a version to paired deployments: the targets (by name, `*` for all), confirmed here. */
export function DistributeDialog({ name, version, open, onClose }: DistributeDialogProps) {
  const admin = useCurrentUser().data?.admin ?? false;
  const deployments = useDeployments();
  const distribute = useDistribute(name, version);
  const [form] = Form.useForm<{ sites: string[]; site: string; autoCreate: boolean }>();
  const [errors, setErrors] = useState<string[]>([]);
  const noTargets = admin && deployments.data?.length === 0;
  const submit = async () => {
    const values = await form.validateFields();
    setErrors([]);
    try {
      const sites = admin ? values.sites : [values.site || '*'];
      const answer = await distribute.mutateAsync({ action: 'distribute', sites, autoCreate: values.autoCreate });
      notifySuccess(`${name} ${version} is being distributed to ${answer.trackers.map((t) => t.target).join(', ')}.`);
      onClose();
    } catch (error) {
      setErrors(error instanceof ApiError ? error.messages : [String(error)]);
    }
  };
  return (
    <Modal
      title={`Distribute ${name} ${version}`}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="Distribute"
      okButtonProps={{ disabled: noTargets }}
      confirmLoading={distribute.isPending}
      destroyOnHidden
    >
      {noTargets ? (
        <NoTargets admin />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ sites: [], site: '*', autoCreate: true }} preserve={false}>
          {admin ? (
            <Form.Item
              label="Targets"
              name="sites"
              rules={[{ required: true, message: 'Choose at least one deployment.' }]}
              extra="Only the files a target lacks are sent; each target checks the signature before it takes the bundle."
            >
              <Select
                mode="multiple"
                aria-label="Targets"
                loading={deployments.isPending}
                placeholder="Choose deployments"
                options={[
                  { value: '*', label: 'Every paired deployment' },
                  ...(deployments.data ?? []).map((d) => ({ value: d.name, label: `${d.name} (${d.url})` })),
                ]}
              />
            </Form.Item>
          ) : (
            <>
              <NoTargets admin={false} />
              <Form.Item label="Targets (deployment names, * for all)" name="site" style={{ marginTop: 16 }}>
                <Input aria-label="Targets" />
              </Form.Item>
            </>
          )}
          <Form.Item name="autoCreate" valuePropName="checked">
            <Checkbox>Create missing repositories on the targets</Checkbox>
          </Form.Item>
        </Form>
      )}
      <ErrorList messages={errors} />
    </Modal>
  );
}

/** Says why the server refused an action taken from the tab (its calls are silent: the dialog's own show errors inline). */
const refused = (error: unknown) => notifyError(error instanceof ApiError ? error.messages.join(' ') : String(error));

const TONE = { IN_PROGRESS: 'info', COMPLETED: 'success', ABORTED: 'warning', FAILED: 'error' } as const;
const LABEL = { IN_PROGRESS: 'in progress', COMPLETED: 'completed', ABORTED: 'aborted', FAILED: 'failed' } as const;

/** A version's distributions: every target with its status and progress, sent again or deleted there on demand. */
export function DistributionTab({ name, version }: { name: string; version: string }) {
  const trackers = useTrackers(name, version);
  const distribute = useDistribute(name, version);
  const abort = useAbortDistribution(name, version);
  const { modal } = App.useApp();
  const underWay = (trackers.data ?? []).filter((t) => t.type === 'distribute' && t.status === 'IN_PROGRESS');
  const confirmAbort = () =>
    modal.confirm({
      title: `Abort the distribution of ${name} ${version}?`,
      content: `${underWay.map((t) => t.target).join(', ')} will not take this version; the files sent so far stay there. You can distribute it again later.`,
      okText: 'Abort distribution',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const stopped = await abort.mutateAsync();
          notifySuccess(`The distribution to ${stopped.map((t) => t.name).join(', ')} was aborted.`);
        } catch (error) {
          refused(error);
        }
      },
    });
  const again = (tracker: DistributionTracker, action: 'distribute' | 'remote_delete') =>
    modal.confirm({
      title:
        action === 'distribute'
          ? `Distribute again to ${tracker.target}?`
          : `Delete ${name} ${version} from ${tracker.target}?`,
      content:
        action === 'distribute'
          ? 'Only what the target lacks is sent.'
          : 'The version is deleted there; its files stay in their repositories.',
      okText: action === 'distribute' ? 'Distribute' : 'Delete',
      okButtonProps: action === 'remote_delete' ? { danger: true } : {},
      onOk: async () => {
        try {
          await distribute.mutateAsync({ action, sites: [tracker.target], autoCreate: true });
        } catch (error) {
          refused(error);
        }
      },
    });
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {underWay.length > 0 && (
        <Alert
          type="info"
          showIcon
          title={`Distributing to ${underWay.map((t) => t.target).join(', ')}…`}
          action={
            <Button danger icon={<StopOutlined />} onClick={confirmAbort} loading={abort.isPending}>
              Abort distribution
            </Button>
          }
        />
      )}
      <Table<DistributionTracker>
        rowKey="distribution_tracker_id"
        size="small"
        loading={trackers.isPending}
        dataSource={trackers.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{
          emptyText: (
            <Empty description="Not distributed yet. Distribute it to the deployments paired with this one." />
          ),
        }}
        columns={[
          {
            title: 'Target',
            dataIndex: 'target',
            width: 160,
            render: (t: string) => <Typography.Text strong>{t}</Typography.Text>,
          },
          {
            title: 'Action',
            dataIndex: 'type',
            width: 100,
            render: (t: string) => (t === 'delete' ? 'deletion' : 'distribution'),
          },
          {
            title: 'Status',
            dataIndex: 'status',
            width: 120,
            render: (s: DistributionTracker['status']) => <StatusTag tone={TONE[s]}>{LABEL[s]}</StatusTag>,
          },
          {
            title: 'Progress',
            key: 'progress',
            width: 220,
            render: (_: unknown, t) =>
              t.type === 'delete' ? null : (
                <Tooltip
                  title={`${plural(t.files_sent, 'file')} sent, ${formatBytes(t.bytes_sent)}; the rest the target held already`}
                >
                  <Progress
                    size="small"
                    percent={t.files_total ? Math.floor((t.files_done / t.files_total) * 100) : 100}
                    status={
                      t.status === 'FAILED'
                        ? 'exception'
                        : t.status === 'COMPLETED'
                          ? 'success'
                          : t.status === 'ABORTED'
                            ? 'normal'
                            : 'active'
                    }
                    format={() => <span style={{ color: '#374151' }}>{`${t.files_done}/${t.files_total}`}</span>}
                    aria-label={`Files distributed to ${t.target}`}
                  />
                </Tooltip>
              ),
          },
          {
            title: 'Sent',
            key: 'sent',
            width: 130,
            render: (_: unknown, t) =>
              t.type === 'delete' ? '—' : `${formatBytes(t.bytes_sent)} (${plural(t.files_sent, 'file')})`,
          },
          {
            title: 'When',
            dataIndex: 'created',
            width: 140,
            render: (iso: string, t) => (
              <time dateTime={iso} title={`${formatDateTime(iso)} by ${t.created_by}`}>
                {formatRelative(iso)}
              </time>
            ),
          },
          {
            title: 'Message',
            dataIndex: 'message',
            render: (m: string) =>
              m ? (
                <Typography.Text type={m.startsWith('attempt') || m.startsWith('Aborted') ? 'warning' : 'danger'}>
                  {m}
                </Typography.Text>
              ) : null,
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 100,
            render: (_: unknown, t) => (
              <Space size={0}>
                <Tooltip title="Distribute again">
                  <Button
                    type="text"
                    icon={<RedoOutlined />}
                    aria-label={`Distribute again to ${t.target}`}
                    onClick={() => again(t, 'distribute')}
                  />
                </Tooltip>
                <Tooltip title="Delete from this target">
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Delete from ${t.target}`}
                    onClick={() => again(t, 'remote_delete')}
                  />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
