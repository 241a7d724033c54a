import { Descriptions, Typography } from 'antd';
import type { AuditEvent } from '@arca/contracts';

const show = (value: unknown) =>
  value === undefined ? (
    <Typography.Text type="secondary">—</Typography.Text>
  ) : (
    <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {typeof value === 'string' ? value : JSON.stringify(value)}
    </Typography.Text>
  );

/** The fields an event changed, before and after; unchanged fields are left out. */
export function ChangeDetails({ event }: { event: AuditEvent }) {
  const { before, after, message } = event.details;
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]),
  );
  if (!keys.length && !message) return <Typography.Text type="secondary">No further details.</Typography.Text>;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      items={[
        ...(message ? [{ key: 'message', label: 'Message', children: message }] : []),
        ...keys.map((k) => ({
          key: k,
          label: k,
          children: (
            <span>
              {show(b[k])} → {show(a[k])}
            </span>
          ),
        })),
      ]}
    />
  );
}
