import { MoreOutlined, PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Dropdown,
  Empty,
  Form,
  Input,
  InputNumber,
  Progress,
  Result,
  Space,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  LICENSE_BUCKET_MESSAGES,
  LICENSE_EDITION_LABELS,
  type LicenseBucket,
  type LicenseEdition,
  type LicenseSplit,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { PageHeader } from '../../../components/page-header';
import { formatDate } from '../../../components/time';
import { bucketKey, downloadUrl, useBucketActions, useBuckets } from '../api/license-buckets';
import { ExpiryTag } from '../components/expiry-tag';
import { bucketNameRules, countRules } from '../components/rules';

export const BUCKETS_PATH = '/admin/license_management/license_buckets';

export const editionLabel = (edition: string) => LICENSE_EDITION_LABELS[edition as LicenseEdition] ?? edition;

/** Used over size, as a bar that turns amber when the bucket runs low. */
export function UsageBar({ used, size }: { used: number; size: number }) {
  const percent = size ? Math.round((used / size) * 100) : 0;
  return (
    <Space orientation="vertical" size={0} style={{ minWidth: 120 }}>
      <Typography.Text>
        {used} / {size}
      </Typography.Text>
      <Progress
        percent={percent}
        size="small"
        showInfo={false}
        status={percent >= 90 ? 'exception' : 'normal'}
        aria-label={`${used} of ${size} licenses used`}
      />
    </Space>
  );
}

function SplitDialog({ bucket, onClose }: { bucket: LicenseBucket | undefined; onClose: () => void }) {
  const [form] = Form.useForm<LicenseSplit>();
  const { split } = useBucketActions();
  return (
    <FormModal<LicenseSplit>
      open={Boolean(bucket)}
      title={`Split ${bucket?.name ?? ''}`}
      okText="Split"
      form={form}
      intro={
        <Typography.Paragraph type="secondary">
          A split bucket takes free licenses of this one, for a team or for another management deployment (download its
          file or copy its key there). {bucket?.available ?? 0} of {bucket?.size ?? 0} licenses are free.
        </Typography.Paragraph>
      }
      onClose={onClose}
      onSubmit={async (values) => {
        const made = await split.mutateAsync({ id: bucket!.id, body: values });
        notifySuccess(`Split bucket ${made.name} holds ${made.size} licenses`);
      }}
    >
      <Form.Item name="name" label="Split bucket name" rules={bucketNameRules}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="quantity" label="Number of licenses" rules={countRules(bucket?.available ?? 0)}>
        <InputNumber min={1} style={{ width: 160 }} />
      </Form.Item>
    </FormModal>
  );
}

function BucketActions({ bucket, onSplit }: { bucket: LicenseBucket; onSplit: () => void }) {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const { remove } = useBucketActions();
  const copyKey = () =>
    void runSafely(async () => {
      await navigator.clipboard.writeText(await bucketKey(bucket.id));
      notifySuccess(bucket.parent ? 'The split bucket key was copied' : 'The bucket key was copied');
    });
  const confirmDelete = () =>
    modal.confirm({
      title: `Delete bucket ${bucket.name}?`,
      content: bucket.parent ? LICENSE_BUCKET_MESSAGES.deleteSplit : LICENSE_BUCKET_MESSAGES.deleteParent,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await remove.mutateAsync(bucket.id);
          notifySuccess(LICENSE_BUCKET_MESSAGES.removed);
        }),
    });
  const items = [
    { key: 'attach', label: 'Attach License', disabled: bucket.expired || bucket.available === 0 },
    { key: 'report', label: 'Bucket Report' },
    ...(bucket.parent ? [] : [{ key: 'split', label: 'Split', disabled: bucket.available === 0 || bucket.expired }]),
    { key: 'download', label: <a href={downloadUrl(bucket.id)}>Download Bucket</a> },
    bucket.parent ? { key: 'split-key', label: 'Split Bucket Key' } : { key: 'copy-key', label: 'Copy Key' },
    { type: 'divider' as const },
    { key: 'delete', label: 'Delete', danger: true },
  ];
  const onClick = ({ key }: { key: string }) => {
    if (key === 'attach') void navigate(`${BUCKETS_PATH}/attach/${bucket.id}`);
    if (key === 'report') void navigate(`${BUCKETS_PATH}/report/${bucket.id}`);
    if (key === 'split') onSplit();
    if (key === 'copy-key' || key === 'split-key') copyKey();
    if (key === 'delete') confirmDelete();
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']}>
      <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${bucket.name}`} />
    </Dropdown>
  );
}

/** The license buckets of this management deployment (spec part 1 §2, License buckets). */
export function LicenseBucketsPage() {
  const buckets = useBuckets();
  const [splitting, setSplitting] = useState<LicenseBucket>();
  const addButton = (
    <Link to={`${BUCKETS_PATH}/add`}>
      <Button type="primary" icon={<PlusOutlined />}>
        Add New Bucket
      </Button>
    </Link>
  );
  const columns = [
    {
      title: 'Bucket Name',
      key: 'name',
      width: 170,
      render: (_: unknown, b: LicenseBucket) => (
        <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap', paddingLeft: b.parent ? 20 : 0 }}>
          <Link to={`${BUCKETS_PATH}/report/${b.id}`}>{b.name}</Link>
          {b.parent && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              Split of {b.parent.name}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: 'Bucket ID',
      dataIndex: 'id',
      render: (id: string) => (
        <Typography.Text
          code
          copyable={{ text: id, tooltips: ['Copy the bucket ID', 'Copied'] }}
          style={{ whiteSpace: 'nowrap' }}
        >
          {id.slice(0, 6)}…
        </Typography.Text>
      ),
    },
    { title: 'License Type', dataIndex: 'license_type', render: editionLabel },
    {
      title: 'Issue Date',
      dataIndex: 'issued',
      render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v)}</span>,
    },
    {
      title: 'Expiry Date',
      dataIndex: 'expires',
      render: (v: string) => <ExpiryTag expires={v} />,
    },
    {
      title: 'Used / Bucket Size',
      key: 'used',
      render: (_: unknown, b: LicenseBucket) => <UsageBar used={b.used} size={b.size} />,
    },
    { title: 'Customer Name', dataIndex: 'customer' },
    { title: 'Total Projects', dataIndex: 'projects', align: 'right' as const },
    { title: '# Licenses to Attach', dataIndex: 'available', align: 'right' as const },
    { title: '# Licenses', dataIndex: 'size', align: 'right' as const },
    {
      title: <span className="arca-sr-only">Actions</span>,
      key: 'actions',
      width: 48,
      render: (_: unknown, b: LicenseBucket) => <BucketActions bucket={b} onSplit={() => setSplitting(b)} />,
    },
  ];
  return (
    <>
      <PageHeader
        title="License Buckets"
        description="Licenses bought for the fleet, attached from here to the platform deployments that need them."
        extra={addButton}
      />
      {buckets.isError ? (
        <Result
          status="warning"
          title={LICENSE_BUCKET_MESSAGES.fetchFailed}
          extra={<Button onClick={() => void buckets.refetch()}>Retry</Button>}
        />
      ) : (
        <Card>
          <Table<LicenseBucket>
            rowKey="id"
            loading={buckets.isPending}
            dataSource={buckets.data ?? []}
            columns={columns}
            pagination={false}
            size="middle"
            locale={{
              emptyText: (
                <Empty
                  description={
                    <Space orientation="vertical">
                      <Typography.Text strong>No license buckets yet</Typography.Text>
                      <Typography.Text type="secondary">
                        Add the bucket file you received, its URL or its key; then attach its licenses to your
                        deployments.
                      </Typography.Text>
                    </Space>
                  }
                >
                  {addButton}
                </Empty>
              ),
            }}
          />
        </Card>
      )}
      <SplitDialog bucket={splitting} onClose={() => setSplitting(undefined)} />
    </>
  );
}
