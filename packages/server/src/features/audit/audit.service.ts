import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuditCategory, AuditEvent, AuditFilter, AuditPage } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { AuditEventRow } from '../../db/schema.js';

export interface AuditEntry {
  category: AuditCategory;
  action: string;
  target: string;
  outcome?: 'success' | 'failure';
  before?: unknown;
  after?: unknown;
  message?: string;
}

/** Field names whose values never reach the audit trail. */
const SECRET_FIELDS = /password|secret|token|otp/i;

function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, SECRET_FIELDS.test(key) ? '••••••' : redact(v)]),
    );
  }
  return value;
}

/** Who did it and from where: the signed-in user (or the name tried at sign-in) and the client address. */
export function auditActor(request: FastifyRequest, actorOverride?: string): { actor: string; sourceIp: string } {
  const actor = actorOverride ?? (request.principal?.kind === 'user' ? request.principal.user.name : 'anonymous');
  return { actor, sourceIp: request.ip };
}

/** Records one event. `db` may be a transaction, so that the record lands with the change or not at all. */
export async function recordAudit(
  db: Db,
  who: { actor: string; sourceIp: string },
  entry: AuditEntry,
  now = Date.now(),
): Promise<void> {
  const details: Record<string, unknown> = {};
  if (entry.before !== undefined) details.before = redact(entry.before);
  if (entry.after !== undefined) details.after = redact(entry.after);
  if (entry.message !== undefined) details.message = entry.message;
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      at: now,
      actor: who.actor.slice(0, 256),
      source_ip: who.sourceIp.slice(0, 64),
      category: entry.category,
      action: entry.action,
      target: entry.target.slice(0, 512),
      outcome: entry.outcome ?? 'success',
      details: JSON.stringify(details),
    })
    .execute();
}

/** Shortcut for route handlers. */
export function audit(request: FastifyRequest, entry: AuditEntry, db: Db = request.server.db): Promise<void> {
  return recordAudit(db, auditActor(request), entry);
}

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
