import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, InputNumber, List, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  LICENSE_BUCKET_MESSAGES,
  type LicenseAttachResult,
  type LicenseBucketStatus,
  type DeploymentStatus,
} from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { useServerErrors } from '../../../lib/server-errors';
import { DeploymentStatusTag } from '../../deployments';
import { useBucketActions, useBucketStatus } from '../api/license-buckets';
import { countError } from '../components/rules';
import { BUCKETS_PATH, UsageBar } from './license-buckets-page';

type Row = LicenseBucketStatus['deployments'][number];

function UpdateOutput({ output }: { output: LicenseAttachResult }) {
  return (
    <Card title="License Update Output" size="small" style={{ marginTop: 16 }}>
      <List
        dataSource={output.results}
        renderItem={(r) => (
          <List.Item>
            <Space align="start">
              {r.success ? (
                <CheckCircleFilled style={{ color: '#237804' }} aria-label="Succeeded" />
              ) : (
                <CloseCircleFilled style={{ color: '#a8071a' }} aria-label="Failed" />
              )}
              <div>
                <Typography.Text strong>{r.name}</Typography.Text>
                <div>{r.message}</div>
              </div>
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}

/**
 * Attach License: the bucket's counts, the deployments that can take licenses (Online and
 * Partial only), how many each takes — one per node by default — and what each answered.
 */
export function AttachLicensePage() {
  const { bucketId = '' } = useParams();
  const status = useBucketStatus(bucketId);
  const navigate = useNavigate();
  const { attach } = useBucketActions();
  const { errors, clear, capture } = useServerErrors();
  const [selected, setSelected] = useState<string[]>([]);
  const [counts, setCounts] = useState<Record<string, number | null>>({});
  const [output, setOutput] = useState<LicenseAttachResult>();

  const bucket = status.data;
  const eligible = useMemo(() => (bucket?.deployments ?? []).filter((d) => d.eligible), [bucket]);
  const countOf = (d: Row) => (d.id in counts ? counts[d.id] : Math.max(d.suggested, 1));
  const available = bucket?.available ?? 0;
  const total = selected.reduce((sum, id) => {
    const d = eligible.find((e) => e.id === id);
    return sum + (d ? (countOf(d) ?? 0) : 0);
  }, 0);
  const cellErrors = Object.fromEntries(
    selected.map((id) => {
      const d = eligible.find((e) => e.id === id);
      return [id, d ? countError(countOf(d), available) : undefined];
    }),
  );
  const tooMany = total > available;
  const invalid = !selected.length || tooMany || Object.values(cellErrors).some(Boolean);

  const submit = () => {
    clear();
    setOutput(undefined);
    attach
      .mutateAsync({
        id: bucketId,
        body: {
          targets: selected.map((id) => ({ jpd_id: id, license_count: countOf(eligible.find((d) => d.id === id)!)! })),
        },
      })
      .then(
        (result) => {
          setOutput(result);
          setSelected([]);
          setCounts({});
          void status.refetch();
        },
        (error: unknown) => capture(error),
      );
  };

  if (status.isError) {
    return (
      <>
        <PageHeader title="Attach License" />
        <LoadError what="The bucket" error={status.error} onRetry={() => void status.refetch()} />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Attach License"
        description="Licenses are installed on each deployment over its pairing; a deployment needs one per node."
        extra={<Button onClick={() => void navigate(BUCKETS_PATH)}>Back to License Buckets</Button>}
      />
      <Card loading={status.isPending} style={{ marginBottom: 16 }}>
        {bucket && (
          <Descriptions
            column={3}
            items={[
              { key: 'name', label: 'Bucket Name', children: bucket.name },
              {
                key: 'used',
                label: 'Licenses Used/Bucket Size',
                children: <UsageBar used={bucket.used} size={bucket.size} />,
              },
              { key: 'free', label: 'Licenses to attach', children: `${available} available` },
            ]}
          />
        )}
      </Card>
      <Card title="Platform deployments">
        <Alert type="warning" showIcon title={LICENSE_BUCKET_MESSAGES.onlineOnly} style={{ marginBottom: 16 }} />
        <ErrorList messages={tooMany ? [LICENSE_BUCKET_MESSAGES.tooMany, ...errors] : errors} />
        <Table<Row>
          rowKey="id"
          size="middle"
          loading={status.isPending}
          dataSource={eligible}
          pagination={false}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          locale={{
            emptyText:
              'No deployment is Online or Partial. Register deployments under Platform Deployments, or wait for them to come back.',
          }}
          columns={[
            { title: 'Deployment', dataIndex: 'name' },
            {
              title: 'Status',
              dataIndex: 'status',
              render: (s: string) => <DeploymentStatusTag status={s as DeploymentStatus} />,
            },
            { title: 'Nodes', dataIndex: 'nodes', align: 'right' },
            { title: 'Attached from this bucket', dataIndex: 'attached', align: 'right' },
            {
              title: '# Licenses to Attach',
              key: 'count',
              render: (_: unknown, d: Row) => {
                const error = selected.includes(d.id) ? cellErrors[d.id] : undefined;
                return (
                  <div>
                    <InputNumber
                      aria-label={`Licenses to attach to ${d.name}`}
                      value={countOf(d)}
                      min={0}
                      status={error ? 'error' : undefined}
                      onChange={(value) => setCounts((c) => ({ ...c, [d.id]: value }))}
                      style={{ width: 110 }}
                    />
                    {error && <div style={{ color: '#a8071a', fontSize: 12 }}>{error}</div>}
                  </div>
                );
              },
            },
          ]}
        />
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" disabled={invalid} loading={attach.isPending} onClick={submit}>
            Attach licenses{selected.length ? ` (${total})` : ''}
          </Button>
          <Button onClick={() => void navigate(BUCKETS_PATH)}>Cancel</Button>
        </Space>
        {output && <UpdateOutput output={output} />}
      </Card>
    </>
  );
}
