import type { AuditCategory, AuditEvent, AuditFilter, AuditPage } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { AuditEventRow } from '../../db/schema.js';

function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    sourceIp: row.source_ip,
    category: row.category as AuditCategory,
    action: row.action,
    target: row.target,
    outcome: row.outcome as 'success' | 'failure',
    details: JSON.parse(row.details) as AuditEvent['details'],
  };
}

/** Newest first, filtered; `q` matches the target, action or actor. */
export async function queryAudit(db: Db, query: AuditFilter): Promise<AuditPage> {
  let base = db.selectFrom('audit_events');
  if (query.category) base = base.where('category', '=', query.category);
  if (query.outcome) base = base.where('outcome', '=', query.outcome);
  if (query.actor) base = base.where('actor', '=', query.actor);
  if (query.from !== undefined) base = base.where('at', '>=', query.from);
  if (query.to !== undefined) base = base.where('at', '<=', query.to);
  if (query.q) {
    const like = `%${query.q.toLowerCase()}%`;
    base = base.where((eb) =>
      eb.or(
        (['target', 'action', 'actor', 'source_ip'] as const).map((column) =>
          eb(eb.fn<string>('lower', [column]), 'like', like),
        ),
      ),
    );
  }
  const total = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  return { total: Number(total.n), events: rows.map(toAuditEvent) };
}

/** Most events one export holds (newest first). */
export const AUDIT_EXPORT_LIMIT = 100_000;

/** Every event the filter selects, newest first, up to AUDIT_EXPORT_LIMIT. */
export async function exportAudit(db: Db, filter: Omit<AuditFilter, 'page' | 'pageSize'>): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for (let page = 1; events.length < AUDIT_EXPORT_LIMIT; page++) {
    const batch = await queryAudit(db, { ...filter, page, pageSize: 1000 });
    events.push(...batch.events);
    if (batch.events.length < 1000) break;
  }
  return events.slice(0, AUDIT_EXPORT_LIMIT);
}

/** A CSV field: quoted, quotes doubled; a leading =, +, - or @ is defused so spreadsheets show it as text. */
function csvField(value: unknown): string {
  let text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The events as RFC 4180 CSV with a header row. */
export function auditCsv(events: AuditEvent[]): string {
  const header = [
    'time',
    'actor',
    'source ip',
    'category',
    'action',
    'target',
    'outcome',
    'message',
    'before',
    'after',
  ];
  const lines = events.map((e) =>
    [
      e.at,
      e.actor,
      e.sourceIp,
      e.category,
      e.action,
      e.target,
      e.outcome,
      e.details.message,
      e.details.before,
      e.details.after,
    ]
      .map(csvField)
      .join(','),
  );
  return [header.map(csvField).join(','), ...lines].join('\r\n') + '\r\n';
}
