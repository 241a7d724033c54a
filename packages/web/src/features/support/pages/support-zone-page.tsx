import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DownOutlined,
  LoadingOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Dropdown,
  Empty,
  Form,
  Input,
  InputNumber,
  Row,
  Space,
  Switch,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { type SupportBundle, supportBundleBodySchema, type SupportBundleService } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { formatBytes } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime } from '../../../components/time';
import { REQUIRED, schemaField } from '../../../lib/schema-rules';
import { bundleDownloadUrl, useBundles, useCreateBundle, useDeleteBundle } from '../api/support';
import { ListEmpty } from '../../../components/list-empty';

const SERVICES: { key: SupportBundleService; label: string }[] = [
  { key: 'artifactory', label: 'Artifactory (repositories, every log)' },
  { key: 'access', label: 'Access (users, security, access logs)' },
];
const SERVICE_NAMES: Record<string, string> = { artifactory: 'Artifactory', access: 'Access' };

interface BundleForm {
  name: string;
  description: string;
  configuration: boolean;
  system: boolean;
  logs: boolean;
  period: [Dayjs, Dayjs];
  count: number;
  interval: number;
  environment: boolean;
}

function StatusOf({ bundle }: { bundle: SupportBundle }) {
  if (bundle.status === 'in progress')
    return (
      <StatusTag tone="info" icon={<LoadingOutlined />}>
        In progress
      </StatusTag>
    );
  if (bundle.status === 'failure')
    return (
      <Tooltip title={bundle.error ?? 'The bundle could not be made.'}>
        <span>
          <StatusTag tone="error" icon={<CloseCircleOutlined />}>
            Failed
          </StatusTag>
        </span>
      </Tooltip>
    );
  return (
    <StatusTag tone="success" icon={<CheckCircleOutlined />}>
      Ready
    </StatusTag>
  );
}

/**
 * The support zone (spec part 1 §2, §4): support bundles of the services Arca runs — made in the
 * background, listed with their state (refreshed every 3 s while one is being made), downloaded
 * as a zip, deleted after a confirmation.
 */
export function SupportZonePage() {
  const bundles = useBundles();
  const create = useCreateBundle();
  const remove = useDeleteBundle();
  const { modal } = App.useApp();
  const [creating, setCreating] = useState<SupportBundleService | undefined>();
  const [form] = Form.useForm<BundleForm>();
  const list = bundles.data?.bundles ?? [];
  const inProgress = list.filter((b) => b.status === 'in progress').length;

  const confirmDelete = (bundle: SupportBundle) =>
    modal.confirm({
      title: `Delete support bundle ${bundle.name}?`,
      content: 'Its zip is removed; a bundle handed to someone already stays with them.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(() =>
          remove.mutateAsync(bundle.id).then(() => notifySuccess(`Deleted support bundle ${bundle.name}`)),
        ),
    });

  const submit = (values: BundleForm) => {
    const [start, end] = values.period;
    return create
      .mutateAsync({
        name: values.name,
        description: values.description ?? '',
        service: creating ?? 'artifactory',
        parameters: {
          configuration: values.configuration,
          system: values.system,
          logs: { include: values.logs, start_date: start.format('YYYY-MM-DD'), end_date: end.format('YYYY-MM-DD') },
          // whole numbers (spec part 1 §5)
          thread_dump: {
            count: Math.round(values.count),
            interval: Math.round(values.interval),
            environment: values.environment,
          },
        },
      })
      .then((bundle) => notifySuccess(`Making support bundle ${bundle.name}; it can be downloaded in a moment`));
  };

  return (
    <>
      <PageHeader
        title="Support Zone"
        description="Support bundles collect the logs of every node, the configuration and system information — every password, token and key masked — in one zip to hand to whoever helps you."
        extra={
          <Space>
            {inProgress > 0 && (
              <Typography.Text type="secondary" aria-live="polite">
                <LoadingOutlined /> {inProgress} being made
              </Typography.Text>
            )}
            <Dropdown
              menu={{
                items: SERVICES.map((s) => ({ key: s.key, label: s.label })),
                onClick: ({ key }) => setCreating(key as SupportBundleService),
              }}
            >
              <Button type="primary" icon={<PlusOutlined />}>
                Create Support Bundle <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        }
      />
      <Card>
        <Table<SupportBundle>
          rowKey="id"
          loading={bundles.isPending}
          dataSource={list}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{
            emptyText: (
              <ListEmpty query={bundles} what="The support bundles">
                <Empty description="No support bundles yet. Create one when someone helping you asks for logs and configuration." />
              </ListEmpty>
            ),
          }}
          columns={[
            {
              title: 'Name',
              dataIndex: 'name',
              render: (_: string, bundle) => (
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{bundle.name}</Typography.Text>
                  {bundle.description && <Typography.Text type="secondary">{bundle.description}</Typography.Text>}
                </Space>
              ),
            },
            { title: 'Service', dataIndex: 'service', render: (s: string) => SERVICE_NAMES[s] ?? s, width: 120 },
            {
              title: 'Created',
              dataIndex: 'create_date',
              width: 220,
              render: (date: string, bundle) => (
                <Space direction="vertical" size={0}>
                  <span>{formatDateTime(date)}</span>
                  <Typography.Text type="secondary">by {bundle.created_by}</Typography.Text>
                </Space>
              ),
            },
            {
              title: 'Status',
              dataIndex: 'status',
              width: 140,
              render: (_: string, bundle) => <StatusOf bundle={bundle} />,
            },
            {
              title: 'Size',
              dataIndex: 'size',
              width: 100,
              render: (size: number | null) => (size === null ? '—' : formatBytes(size)),
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 190,
              render: (_: unknown, bundle) => (
                <Space>
                  <Button
                    size="small"
                    icon={<DownloadOutlined />}
                    href={bundle.status === 'success' ? bundleDownloadUrl(bundle.id) : undefined}
                    disabled={bundle.status !== 'success'}
                    aria-label={`Download ${bundle.name}`}
                  >
                    Download
                  </Button>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={bundle.status === 'in progress'}
                    aria-label={`Delete ${bundle.name}`}
                    onClick={() => confirmDelete(bundle)}
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <FormModal<BundleForm>
        open={creating !== undefined}
        title={`Create ${SERVICE_NAMES[creating ?? 'artifactory']} Support Bundle`}
        okText="Create"
        form={form}
        width={620}
        onSubmit={submit}
        onClose={() => {
          setCreating(undefined);
          form.resetFields();
        }}
        failureText="The support bundle could not be created."
        initialValues={{
          name: `support-bundle-${dayjs().format('YYYY-MM-DD-HHmm')}`,
          description: '',
          configuration: true,
          system: true,
          logs: true,
          period: [dayjs().subtract(7, 'day'), dayjs()],
          count: 1,
          interval: 0,
          environment: false,
        }}
      >
        <Form.Item label="Name" name="name" {...schemaField(supportBundleBodySchema.shape.name)}>
          <Input />
        </Form.Item>
        <Form.Item label="Description" name="description" {...schemaField(supportBundleBodySchema.shape.description)}>
          <Input.TextArea rows={2} placeholder="What happened, and when" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="configuration" valuePropName="checked" noStyle>
              <Checkbox>Configuration</Checkbox>
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="system" valuePropName="checked" noStyle>
              <Checkbox>System information</Checkbox>
            </Form.Item>
          </Col>
        </Row>
        <Form.Item label="Logs" style={{ marginTop: 16, marginBottom: 8 }}>
          <Space align="center" wrap>
            <Form.Item name="logs" valuePropName="checked" noStyle>
              <Switch aria-label="Include logs" />
            </Form.Item>
            <Form.Item noStyle shouldUpdate={(a, b) => a.logs !== b.logs}>
              {() => (
                <Form.Item
                  name="period"
                  noStyle
                  rules={[{ required: form.getFieldValue('logs') === true, message: 'Choose the period of the logs.' }]}
                >
                  <DatePicker.RangePicker
                    aria-label="Logs period"
                    disabled={form.getFieldValue('logs') !== true}
                    disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                    allowClear={false}
                  />
                </Form.Item>
              )}
            </Form.Item>
          </Space>
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 16 }}>
          The logs of every node written during the period.
        </Typography.Paragraph>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              label="Thread dumps"
              name="count"
              extra="Node.js diagnostic reports, 0 for none"
              rules={[REQUIRED]}
            >
              <InputNumber min={0} max={10} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="Interval (seconds)" name="interval" extra="Time between two reports" rules={[REQUIRED]}>
              <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="environment"
          valuePropName="checked"
          extra="The reports leave the process environment out unless you tick this; secret values are masked either way."
        >
          <Checkbox>Include the process environment in the reports</Checkbox>
        </Form.Item>
      </FormModal>
    </>
  );
}
