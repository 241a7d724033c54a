import { Space, Typography } from 'antd';
import { StatusTag, type Tone } from './status-tag';

/** Severities, most severe first, each with the tone its tag is shown in. */
const SEVERITY_TONES: Record<string, Tone> = {
  Critical: 'error',
  High: 'error',
  Medium: 'warning',
  Low: 'info',
  Unknown: 'neutral',
};
const ORDER = Object.keys(SEVERITY_TONES);

/** Where a severity sorts, most severe first (one not known last). */
export const severityRank = (severity: string) => {
  const index = ORDER.indexOf(severity);
  return index < 0 ? ORDER.length : index;
};

/** An advisory's severity as a tag in its tone. */
export function SeverityTag({ severity }: { severity: string }) {
  return <StatusTag tone={SEVERITY_TONES[severity] ?? 'neutral'}>{severity}</StatusTag>;
}

/** The table column of an advisory's severity, as a tag. */
export const severityColumn = {
  title: 'Severity',
  dataIndex: 'severity',
  width: 110,
  render: (severity: string) => <SeverityTag severity={severity} />,
};

/** An advisory's id, linked to its page on osv.dev, over a line about it. */
export function AdvisoryCell({ id, detail }: { id: string; detail: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <Typography.Link href={`https://osv.dev/vulnerability/${encodeURIComponent(id)}`} target="_blank">
        {id}
      </Typography.Link>
      <Typography.Text type="secondary">{detail}</Typography.Text>
    </Space>
  );
}
