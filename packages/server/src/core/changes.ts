import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { AuditCategory, ArcaEvent } from '@arca/contracts';
import { bumpConfigGeneration } from './config-cache.js';
import type { Db } from '../db/database.js';

/** Who made a change and from where. */
export interface ChangeActor {
  actor: string;
  sourceIp: string;
}

/** An entry of the audit trail. */
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

/** Listeners told of every audit entry this process records (the audit log file). */
const auditListeners = new Set<(who: ChangeActor, entry: AuditEntry) => void>();

/**
 * Calls `listener` with each audit entry this process records — when it is written, inside the
 * change's transaction: the database's audit trail is the record; a file line may stand for a
 * change that then rolled back. Answers the call that stops listening.
 */
export function onAuditRecorded(listener: (who: ChangeActor, entry: AuditEntry) => void): () => void {
  auditListeners.add(listener);
  return () => auditListeners.delete(listener);
}

/** Records one audit entry. `db` may be a transaction, so that the record lands with the change or not at all. */
export async function recordAudit(db: Db, who: ChangeActor, entry: AuditEntry, now = Date.now()): Promise<void> {
  const details: Record<string, unknown> = {};
  if (entry.before !== undefined) details.before = redact(entry.before);
  if (entry.after !== undefined) details.after = redact(entry.after);
  if (entry.message !== undefined) details.message = entry.message;
  await db
    .insertInto('audit_events')
    .values({
      // time-ordered, so that entries written in the same millisecond list in the order they were made
      id: uuidv7(),
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
  for (const listener of auditListeners) listener(who, entry);
}

let counter = 0;

/** Listeners told when this process records an event (see `onEventRecorded`). */
const recordedListeners = new Set<(event: ArcaEvent) => void>();

/**
 * Calls `listener` whenever this process writes an event to the outbox — inside the writer's
 * transaction, so the event may not be visible yet: a listener looks a moment later, and its
 * regular poll finds what that look missed. Answers the call that stops listening.
 */
export function onEventRecorded(listener: (event: ArcaEvent) => void): () => void {
  recordedListeners.add(listener);
  return () => recordedListeners.delete(listener);
}

/** Writers told of each event inside the writer's transaction (see `onEventWriting`). */
const eventWriters = new Set<(trx: Db, event: ArcaEvent, actor: string, now: number) => Promise<void>>();

/**
 * Calls `writer` with each event this process records, inside the change's transaction, so that
 * what it writes (a logical clock) commits with the change or not at all. Answers the call that
 * stops it.
 */
export function onEventWriting(writer: (trx: Db, event: ArcaEvent, actor: string, now: number) => Promise<void>) {
  eventWriters.add(writer);
  return () => eventWriters.delete(writer);
}

/** An event's outbox row. */
function eventRow(actor: string, event: ArcaEvent, now: number) {
  counter = (counter + 1) % 1000;
  return {
    id: randomUUID(),
    seq: now * 1000 + counter,
    type: event.type,
    repo_key: 'repoKey' in event ? event.repoKey : null,
    path: 'path' in event ? event.path : null,
    payload: JSON.stringify(event.payload),
    actor,
    created_at: now,
  };
}

/** Events rows a single insert carries (8 values each: far below either database's limit). */
const EVENTS_PER_INSERT = 500;

/**
 * Writes events to the outbox in the caller's transaction, so that the change and its events
 * commit together (many in one insert). `seq` orders events roughly (milliseconds × 1000 plus a
 * per-process counter); consumers must not treat it as commit order (see `core/outbox.ts`).
 */
async function recordEvents(trx: Db, actor: string, events: ArcaEvent[], now: number): Promise<void> {
  for (let i = 0; i < events.length; i += EVENTS_PER_INSERT) {
    const rows = events.slice(i, i + EVENTS_PER_INSERT).map((event) => eventRow(actor, event, now));
    await trx.insertInto('events').values(rows).execute();
  }
  for (const event of events) {
    for (const writer of eventWriters) await writer(trx, event, actor, now);
    for (const listener of recordedListeners) listener(event);
  }
}

/**
 * The one call that records a change: its audit entry and its event, both inside the change's
 * transaction (`trx`), so that neither exists without the change nor the change without them.
 * `who` is a name alone for a change without an audit entry (a deploy, a cached remote file).
 */
export async function recordChange(
  trx: Db,
  who: ChangeActor | string,
  change: { audit?: AuditEntry; event?: ArcaEvent },
  now = Date.now(),
): Promise<void> {
  const actor = typeof who === 'string' ? { actor: who, sourceIp: '' } : who;
  if (change.audit) await recordAudit(trx, actor, change.audit, now);
  if (change.event) await recordEvents(trx, actor.actor, [change.event], now);
  // an administrative change may alter what the per-process configuration caches hold; a sign-in,
  // repository content and builds do not (they would empty every cache on every deploy)
  const configuration =
    (change.audit !== undefined && change.audit.category !== 'auth') ||
    (change.event !== undefined && changesConfiguration(change.event));
  if (configuration) await bumpConfigGeneration(trx);
}

const changesConfiguration = (event: ArcaEvent) =>
  !/^(artifact|build|release_bundle|distribution|security)\./.test(event.type);

/**
 * Records many changes of one actor that have events and no audit entries (the files a retention
 * run moves): as `recordChange` does each, with one insert per few hundred events.
 */
export async function recordEventChanges(
  trx: Db,
  who: ChangeActor | string,
  events: ArcaEvent[],
  now = Date.now(),
): Promise<void> {
  if (!events.length) return;
  await recordEvents(trx, typeof who === 'string' ? who : who.actor, events, now);
  if (events.some(changesConfiguration)) await bumpConfigGeneration(trx);
}

/** A hook a service calls inside its transaction with what it changed, to record the change. */
export type OnChange<T> = (trx: Db, result: T) => Promise<void>;
