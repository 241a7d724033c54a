import { Card, Empty, Skeleton, Space, Table, Typography } from 'antd';
import { LoadError } from '../../../components/load-error';
import { StatusTag, type Tone } from '../../../components/status-tag';
import { useArtifactSecurity, type SecurityIssue } from '../api/get-security';

/** Severities, most severe first, each with the tone its tag is shown in. */
const SEVERITY_TONES: Record<string, Tone> = {
  Critical: 'error',
  High: 'error',
  Medium: 'warning',
  Low: 'info',
  Unknown: 'neutral',
};
const SEVERITY_ORDER = Object.keys(SEVERITY_TONES);

/** A scan status as the spec names them, in its tone. */
const STATUS_TONES: Record<string, Tone> = {
  scanned: 'success',
  'in progress': 'info',
  'not scanned': 'neutral',
  'not supported': 'neutral',
  'scan failed': 'error',
};

const rank = (severity: string) => {
  const index = SEVERITY_ORDER.indexOf(severity);
  return index < 0 ? SEVERITY_ORDER.length : index;
};

/**
 * The security card of a package version: its scan status and the advisories its lead file is
 * affected by, most severe first, with their CVE ids and the versions that fix them.
 */
export function SecurityCard({ repoKey, path }: { repoKey: string; path: string }) {
  const security = useArtifactSecurity(repoKey, path);
  const status = security.data?.scan_status;
  return (
    <Card title="Security" extra={status && <StatusTag tone={STATUS_TONES[status] ?? 'neutral'}>{status}</StatusTag>}>
      {security.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : security.isError ? (
        <LoadError what="The security scan" error={security.error} onRetry={() => void security.refetch()} />
      ) : (
        <Table<SecurityIssue>
          size="small"
          rowKey="issue_id"
          pagination={false}
          dataSource={[...security.data.issues].sort((a, b) => rank(a.severity) - rank(b.severity))}
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
            {
              title: 'Severity',
              dataIndex: 'severity',
              width: 110,
              render: (severity: string) => (
                <StatusTag tone={SEVERITY_TONES[severity] ?? 'neutral'}>{severity}</StatusTag>
              ),
            },
            {
              title: 'Advisory',
              dataIndex: 'issue_id',
              render: (id: string, issue) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Link href={`https://osv.dev/vulnerability/${encodeURIComponent(id)}`} target="_blank">
                    {id}
                  </Typography.Link>
                  <Typography.Text type="secondary">{issue.summary}</Typography.Text>
                </Space>
              ),
            },
            {
              title: 'CVE',
              render: (_: unknown, issue) => issue.cves.map((c) => c.cve).join(', ') || '—',
            },
            {
              title: 'Fixed in',
              render: (_: unknown, issue) =>
                issue.components.flatMap((c) => c.fixed_versions).join(', ') || 'No fixed version',
            },
          ]}
        />
      )}
    </Card>
  );
}
