import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  DeleteOutlined,
  RocketOutlined,
  SafetyCertificateOutlined,
  SendOutlined,
} from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  Tabs,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  RELEASE_BUNDLE_SOURCE_LABELS,
  type BundleArtifact,
  type ReleaseBundleSourceType,
  type VerifyAnswer,
} from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { formatBytes } from '../../../components/format';
import { ThingLoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { formatDateTime, formatRelative } from '../../../components/time';
import {
  useBundleContent,
  useBundleVersion,
  useBundleVersions,
  useDeleteBundleVersion,
  useEnvironments,
  usePromotions,
  useVerifyBundle,
} from '../api/release-bundles';
import { EnvironmentTrail } from '../components/environment-trail';
import { versionHref } from '../components/links';
import { PromoteDialog } from '../components/promote-dialog';
import { DistributeDialog, DistributionTab } from '../components/distribution';
import { treeHref } from '../../../lib/tree-href';

/** What a version was made from, one line per source as it was asked. */
function SourceList({ sources }: { sources: Record<string, unknown>[] }) {
  return (
    <ul style={{ margin: 0, paddingLeft: 18 }}>
      {sources.map((source, i) => {
        const type = source.source_type as ReleaseBundleSourceType;
        const label = RELEASE_BUNDLE_SOURCE_LABELS[type] ?? type;
        let detail: React.ReactNode = null;
        if (type === 'builds')
          detail = (source.builds as { build_name: string; build_number: string }[]).map((b) => (
            <Link
              key={`${b.build_name}/${b.build_number}`}
              to={`/builds/${encodeURIComponent(b.build_name)}/${encodeURIComponent(b.build_number)}`}
              style={{ marginRight: 8 }}
            >
              {b.build_name} #{b.build_number}
            </Link>
          ));
        else if (type === 'release_bundles')
          detail = (source.release_bundles as { release_bundle_name: string; release_bundle_version: string }[]).map(
            (b) => (
              <Link
                key={`${b.release_bundle_name}/${b.release_bundle_version}`}
                to={versionHref(b.release_bundle_name, b.release_bundle_version)}
                style={{ marginRight: 8 }}
              >
                {b.release_bundle_name} {b.release_bundle_version}
              </Link>
            ),
          );
        else if (type === 'aql') detail = <Typography.Text code>{String(source.aql)}</Typography.Text>;
        else if (type === 'artifacts') detail = `${(source.artifacts as unknown[]).length} path(s)`;
        else if (type === 'packages')
          detail = (source.packages as { package_name: string; package_version: string }[])
            .map((p) => `${p.package_name} ${p.package_version}`)
            .join(', ');
        return (
          <li key={i}>
            <strong>{label}</strong>: {detail}
          </li>
        );
      })}
    </ul>
  );
}

function VerifyResult({ answer }: { answer: VerifyAnswer }) {
  return (
    <Alert
      type={answer.verified ? 'success' : 'error'}
      showIcon
      role="status"
      style={{ marginBottom: 16 }}
      title={answer.message}
      description={
        answer.artifacts_failed.length ? (
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {answer.artifacts_failed.slice(0, 20).map((f) => (
              <li key={f.path}>
                {f.path}: {f.reason}
              </li>
            ))}
          </ul>
        ) : (
          `${answer.artifacts_checked} artifact(s) checked; signed by the key ${answer.key_fingerprint.slice(-16)}.`
        )
      }
    />
  );
}

/** `/bundles/:name/:version`: one version, its artifacts, where it came from and where it went. */
export function BundleVersionPage() {
  const params = useParams();
  const name = params.name ?? '';
  const versions = useBundleVersions(name);
  const version = params.version ?? versions.data?.[0]?.release_bundle_version ?? '';
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const current = useBundleVersion(name, version);
  const content = useBundleContent(name, version);
  const promotions = usePromotions(name, version);
  const environments = useEnvironments();
  const verify = useVerifyBundle(name, version);
  const remove = useDeleteBundleVersion();
  const [promoting, setPromoting] = useState(false);
  const [distributing, setDistributing] = useState(false);

  const back = { backTo: '/bundles', backLabel: 'Back to Release Bundles' };
  if (versions.isError && !params.version)
    return (
      <ThingLoadError
        what={`Release bundle ${name}`}
        error={versions.error}
        onRetry={() => void versions.refetch()}
        {...back}
      />
    );
  if (!version && versions.isPending) return <Skeleton active />;
  if (current.isError)
    return (
      <ThingLoadError
        what={`Release bundle ${name} ${version}`}
        error={current.error}
        onRetry={() => void current.refetch()}
        {...back}
      />
    );
  const row = current.data;
  const confirmDelete = () =>
    modal.confirm({
      title: `Delete ${name} ${version}?`,
      content:
        'Its manifest goes to the trash can and its artifacts may be changed or deleted again. The copies its promotions made stay where they are.',
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await remove.mutateAsync({ name, version });
          notifySuccess(`${name} ${version} was deleted.`);
          void navigate('/bundles');
        }),
    });

  return (
    <>
      <PageHeader
        title={`${name} ${version}`}
        description={row?.description || 'A signed, immutable release bundle version.'}
        extra={
          <Space wrap>
            <Select
              aria-label="Version"
              style={{ minWidth: 140 }}
              value={version}
              loading={versions.isPending}
              onChange={(v) => void navigate(versionHref(name, v))}
              options={(versions.data ?? []).map((v) => ({
                value: v.release_bundle_version,
                label: v.release_bundle_version,
              }))}
            />
            <Button icon={<SafetyCertificateOutlined />} loading={verify.isPending} onClick={() => verify.mutate()}>
              Verify
            </Button>
            <Button type="primary" icon={<RocketOutlined />} onClick={() => setPromoting(true)} disabled={!row}>
              Promote
            </Button>
            <Button icon={<SendOutlined />} onClick={() => setDistributing(true)} disabled={!row}>
              Distribute
            </Button>
            <Button danger icon={<DeleteOutlined />} onClick={confirmDelete} disabled={!row}>
              Delete
            </Button>
          </Space>
        }
      />
      {verify.data && <VerifyResult answer={verify.data} />}
      {!row ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <Flex vertical gap={16}>
          <Card>
            <Flex gap={32} wrap style={{ marginBottom: 16 }}>
              <Statistic title="Artifacts" value={row.artifact_count} />
              <Statistic title="Size" value={formatBytes(row.total_size)} />
              <div>
                <Typography.Text type="secondary">Environments</Typography.Text>
                <div style={{ marginTop: 8 }}>
                  <EnvironmentTrail environments={environments.data ?? []} reached={row.environments} />
                </div>
              </div>
            </Flex>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 2, xl: 3 }}
              items={[
                {
                  key: 'created',
                  label: 'Created',
                  children: `${formatDateTime(row.created)} by ${row.created_by}`,
                },
                { key: 'project', label: 'Project', children: row.project_key },
                {
                  key: 'signed',
                  label: 'Signed with',
                  children: (
                    <span>
                      {row.signing_key} <Typography.Text code>{row.key_fingerprint.slice(-16)}</Typography.Text>
                    </span>
                  ),
                },
                {
                  key: 'origin',
                  label: 'Origin',
                  children:
                    row.origin === 'received'
                      ? `Received from ${row.origin_deployment ?? 'another deployment'}`
                      : 'Made here',
                },
                { key: 'sources', label: 'Made from', children: <SourceList sources={row.sources} /> },
              ]}
            />
          </Card>
          <Card>
            <Tabs
              items={[
                {
                  key: 'content',
                  label: `Content (${row.artifact_count})`,
                  children: (
                    <Table<BundleArtifact>
                      rowKey={(a) => `${a.repository_key}/${a.path}`}
                      size="small"
                      loading={content.isPending}
                      dataSource={content.data?.artifacts ?? []}
                      pagination={{ pageSize: 50, hideOnSinglePage: true, showTotal: (n) => `${n} artifacts` }}
                      locale={{ emptyText: content.isError ? 'The content could not be read.' : <Empty /> }}
                      columns={[
                        {
                          title: 'Path',
                          key: 'path',
                          render: (_: unknown, a) => (
                            <Link to={treeHref(a.repository_key, a.path)}>
                              {a.repository_key}/{a.path}
                            </Link>
                          ),
                        },
                        { title: 'Type', dataIndex: 'package_type', width: 100 },
                        {
                          title: 'Size',
                          dataIndex: 'size',
                          width: 100,
                          align: 'right',
                          render: (n: number) => formatBytes(n),
                        },
                        {
                          title: 'SHA-256',
                          dataIndex: 'sha256',
                          width: 160,
                          render: (sha: string) => (
                            <Typography.Text code copyable={{ text: sha }} title={sha}>
                              {sha.slice(0, 12)}
                            </Typography.Text>
                          ),
                        },
                        { title: 'From', dataIndex: 'source', width: 200 },
                      ]}
                    />
                  ),
                },
                {
                  key: 'promotions',
                  label: `Promotions (${promotions.data?.length ?? 0})`,
                  children: promotions.isPending ? (
                    <Skeleton active />
                  ) : promotions.data?.length ? (
                    <Timeline
                      items={promotions.data.map((p) => ({
                        color: p.status === 'COMPLETED' ? 'green' : 'red',
                        dot: p.status === 'COMPLETED' ? <CheckCircleOutlined /> : <CloseCircleOutlined />,
                        children: (
                          <>
                            <Space size={6}>
                              <strong>{p.environment}</strong>
                              <StatusTag tone={p.status === 'COMPLETED' ? 'success' : 'error'}>
                                {p.status === 'COMPLETED' ? 'completed' : 'failed'}
                              </StatusTag>
                              <span>
                                {p.operation === 'move' ? 'moved' : 'copied'} to {p.included_repository_keys.join(', ')}{' '}
                                by {p.created_by},{' '}
                                <time dateTime={p.created} title={formatDateTime(p.created)}>
                                  {formatRelative(p.created)}
                                </time>
                              </span>
                            </Space>
                            {p.messages.map((m) => (
                              <div key={m.text} style={{ color: '#9b1c1c' }}>
                                {m.text}
                              </div>
                            ))}
                          </>
                        ),
                      }))}
                    />
                  ) : (
                    <Empty description="Not promoted yet. Promote it to its first environment with Promote." />
                  ),
                },
                {
                  key: 'distribution',
                  label: 'Distribution',
                  children: <DistributionTab name={name} version={version} />,
                },
              ]}
            />
          </Card>
        </Flex>
      )}
      {row && distributing && (
        <DistributeDialog name={name} version={version} open onClose={() => setDistributing(false)} />
      )}
      {row && promoting && (
        <PromoteDialog
          name={name}
          version={version}
          reached={row.environments}
          open
          onClose={() => setPromoting(false)}
        />
      )}
    </>
  );
}
