import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Skeleton, Space, Table, Typography } from 'antd';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { LoadError } from '../../../components/load-error';
import { AdvisoryCell, severityColumn, severityRank } from '../../../components/severity-tag';
import { StatusTag, type Tone } from '../../../components/status-tag';
import { useArtifactSecurity, useScanNow, type ArtifactSecurity, type SecurityIssue } from '../api/get-security';

/** A scan status as the spec names them, in its tone. */
const STATUS_TONES: Record<string, Tone> = {
  scanned: 'success',
  'in progress': 'info',
  'not scanned': 'neutral',
  'not supported': 'neutral',
  'scan failed': 'error',
};

/** The advisories an artifact is affected by, most severe first; what its scan status means when there is none. */
function SecurityIssues({ security }: { security: ArtifactSecurity }) {
  const status = security.scan_status;
  const inImage = security.issues.some((i) => i.impact_path.length > 1);
  return (
    <Table<SecurityIssue>
      size="small"
      rowKey={(issue) => `${issue.issue_id} ${issue.impact_path.join(' ')}`}
      pagination={false}
      dataSource={[...security.issues].sort((a, b) => severityRank(a.severity) - severityRank(b.severity))}
      locale={{
        emptyText: (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              status === 'scanned'
                ? 'No known vulnerability: none of the advisories imported concerns this version.'
                : status === 'not supported'
                  ? 'Versions of this package type are not matched against advisories.'
                  : 'Not scanned yet. An administrator imports advisories in the OSV format (see the README, Scanning).'
            }
          />
        ),
      }}
      columns={[
        severityColumn,
        {
          title: 'Advisory',
          dataIndex: 'issue_id',
          render: (id: string, issue) => <AdvisoryCell id={id} detail={issue.summary} />,
        },
        {
          title: 'CVE',
          render: (_: unknown, issue) =>
            issue.cves.length
              ? issue.cves.map((c) => {
                  const score = c.cvss_v4_score ?? c.cvss_v3_score ?? c.cvss_v2_score;
                  const vector = c.cvss_v4_vector ?? c.cvss_v3_vector;
                  return (
                    <div key={c.cve}>
                      {c.cve}
                      {score && (
                        <Typography.Text type="secondary" title={vector}>
                          {` · CVSS ${score}`}
                        </Typography.Text>
                      )}
                    </div>
                  );
                })
              : '—',
        },
        // an image's findings are in the packages its layers install
        ...(inImage
          ? [
              {
                title: 'Found in',
                render: (_: unknown, issue: SecurityIssue) => issue.impact_path.slice(1).join(' › ') || '—',
              },
            ]
          : []),
        {
          title: 'Fixed in',
          render: (_: unknown, issue) =>
            issue.components.flatMap((c) => c.fixed_versions).join(', ') || 'No fixed version',
        },
      ]}
    />
  );
}

/** The licenses a version declares, normalised to SPDX. */
function Licenses({ security }: { security: ArtifactSecurity }) {
  if (!security.licenses.length) return null;
  return (
    <Space wrap size={4} style={{ marginBottom: 12 }}>
      <Typography.Text type="secondary">{security.licenses.length > 1 ? 'Licenses' : 'License'}:</Typography.Text>
      {security.licenses.map((l) => (
        <StatusTag key={l.name} tone="neutral">
          <span title={l.full_name}>{l.name}</span>
        </StatusTag>
      ))}
    </Space>
  );
}

/** The scan of an artifact as one block: loading, error, licenses and advisories. */
function SecurityBody({ security }: { security: ReturnType<typeof useArtifactSecurity> }) {
  if (security.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (security.isError)
    return <LoadError what="The security scan" error={security.error} onRetry={() => void security.refetch()} />;
  return (
    <>
      <Licenses security={security.data} />
      <SecurityIssues security={security.data} />
    </>
  );
}

const statusTag = (status: string | undefined) =>
  status && <StatusTag tone={STATUS_TONES[status] ?? 'neutral'}>{status}</StatusTag>;

/**
 * The security card of a package version: its scan status, the licenses it declares and the
 * advisories its lead file is affected by, most severe first, with their CVE ids and the versions
 * that fix them.
 */
export function SecurityCard({ repoKey, path }: { repoKey: string; path: string }) {
  const security = useArtifactSecurity(repoKey, path);
  return (
    <Card title="Security" extra={statusTag(security.data?.scan_status)}>
      <SecurityBody security={security} />
    </Card>
  );
}

/** The same for a file of the tree: the scan of the version the file belongs to. */
export function SecurityTab({ repoKey, path }: { repoKey: string; path: string }) {
  const security = useArtifactSecurity(repoKey, path);
  const scanNow = useScanNow(repoKey, path);
  const scan = () =>
    runSafely(async () => {
      const { scan_status, issues } = await scanNow.mutateAsync();
      notifySuccess(
        scan_status === 'scanned'
          ? `Scanned: ${issues === 0 ? 'no advisory affects it' : `${issues} ${issues === 1 ? 'advisory affects' : 'advisories affect'} it`}`
          : `Scan status: ${scan_status}`,
      );
    });
  return (
    <>
      {security.data && (
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginBottom: 12 }}>
          <span>
            <Typography.Text type="secondary">Scan status: </Typography.Text>
            {statusTag(security.data.scan_status)}
          </span>
          <Button size="small" icon={<ReloadOutlined />} loading={scanNow.isPending} onClick={() => void scan()}>
            Scan now
          </Button>
        </div>
      )}
      <SecurityBody security={security} />
    </>
  );
}
