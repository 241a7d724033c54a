import { Card, Empty, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { plural } from '../../../components/format';
import { LoadError } from '../../../components/load-error';
import { useScanStats } from '../api/scanning';

/** A colour per severity, most severe the darkest (each passes 3:1 against white). */
const SEVERITY_COLOURS: Record<string, string> = {
  Critical: '#991b1b',
  High: '#dc2626',
  Medium: '#c2410c',
  Low: '#a16207',
  Unknown: '#6b7280',
};

/**
 * The overview's security card: the open issues of the versions the caller may read by severity,
 * as bars, with how many versions are affected of those scanned; `manage`: where policies are.
 */
export function SecurityOverviewCard({ manage }: { manage?: string | undefined }) {
  const stats = useScanStats();
  const data = stats.data;
  const scanned = data ? Object.values(data.statuses).reduce((sum, n) => sum + n, 0) : 0;
  const issues = data ? data.severities.reduce((sum, s) => sum + s.count, 0) : 0;
  return (
    <Card title="Open security issues" extra={manage && <Link to={manage}>Policies and watches</Link>}>
      {stats.isPending ? (
        <Skeleton active />
      ) : stats.isError ? (
        <LoadError what="The scan figures" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : !scanned ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="No package version has been scanned yet. Import advisories in the OSV format (see the README, Scanning): every version deployed or cached is then matched against them."
        />
      ) : (
        <>
          <div
            style={{ width: '100%', height: 200 }}
            role="img"
            aria-label={`Open issues by severity: ${data!.severities.map((s) => `${s.severity} ${s.count}`).join(', ')}`}
          >
            <ResponsiveContainer>
              <BarChart data={data!.severities} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 8 }}>
                <CartesianGrid horizontal={false} stroke="#eef0f3" />
                <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11, fill: '#4b5563' }} tickLine={false} />
                <YAxis
                  type="category"
                  dataKey="severity"
                  width={70}
                  tick={{ fontSize: 12, fill: '#374151' }}
                  tickLine={false}
                  axisLine={false}
                />
                <Tooltip formatter={(value) => [plural(Number(value), 'issue'), 'Open']} />
                <Bar dataKey="count" radius={[0, 3, 3, 0]} maxBarSize={22}>
                  {data!.severities.map((s) => (
                    <Cell key={s.severity} fill={SEVERITY_COLOURS[s.severity] ?? '#6b7280'} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
          <Typography.Text type="secondary">
            {issues
              ? `${plural(issues, 'open issue')} in ${plural(data!.affectedVersions, 'version')} of ${plural(scanned, 'version')} scanned.`
              : `No known vulnerability in the ${plural(scanned, 'version')} scanned.`}
          </Typography.Text>
        </>
      )}
    </Card>
  );
}
