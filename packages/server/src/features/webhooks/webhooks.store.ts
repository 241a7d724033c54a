import { sql } from 'kysely';
import type { WebhookDeliveryState } from '@arca/contracts';
import { cachedConfig } from '../../core/config-cache.js';
import type { Db } from '../../db/database.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.js';

export type WebhookRow = WebhooksTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

/* ---------- Subscriptions ---------- */

export function listWebhooks(db: Db): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().orderBy('key').execute();
}

/** The enabled subscriptions, cached per configuration generation (every change bumps it). */
export function enabledWebhooks(db: Db): Promise<WebhookRow[]> {
  return cachedConfig(db, 'webhooks:enabled', () =>
    db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).orderBy('key').execute(),
  );
}

/**
 * The enabled subscriptions as the database holds them now, never a process's cached copy: what
 * an event is matched against. A node whose cache lags a subscription made on another node would
 * otherwise take the event as handled and it would never be sent.
 */
export function currentWebhooks(db: Db): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).orderBy('key').execute();
}

export function findWebhook(db: Db, key: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('key', '=', key).executeTakeFirst();
}

/** A subscription by its key in any case (keys are unique without case). */
export function findWebhookAnyCase(db: Db, key: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['key']), '=', key.toLowerCase()))
    .executeTakeFirst();
}

export async function insertWebhook(trx: Db, row: WebhookRow): Promise<void> {
  await trx.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(trx: Db, key: string, row: Omit<WebhookRow, 'key' | 'created_at' | 'created_by'>) {
  await trx.updateTable('webhooks').set(row).where('key', '=', key).execute();
}

/** Removes a subscription with its deliveries and their attempts: nothing of it is sent any more. */
export async function deleteWebhook(trx: Db, key: string): Promise<void> {
  await trx
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('webhook_key', '=', key))
    .execute();
  await trx.deleteFrom('webhook_deliveries').where('webhook_key', '=', key).execute();
  await trx.deleteFrom('webhooks').where('key', '=', key).execute();
}

/** Each subscription's newest delivery: its state, the receiver's last status and when it was made. */
export async function lastDeliveries(
  db: Db,
): Promise<Map<string, { state: WebhookDeliveryState; status: number | null; at: number }>> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .select(['d.webhook_key', 'd.state', 'd.last_status', 'd.created_at', 'd.settled_at'])
    .where('d.created_at', '=', (eb) =>
      eb
        .selectFrom('webhook_deliveries as n')
        .select((n) => n.fn.max('n.created_at').as('m'))
        .whereRef('n.webhook_key', '=', 'd.webhook_key'),
    )
    .execute();
  const last = new Map<string, { state: WebhookDeliveryState; status: number | null; at: number }>();
  for (const row of rows)
    last.set(row.webhook_key, {
      state: row.state,
      status: row.last_status,
      at: Number(row.settled_at ?? row.created_at),
    });
  return last;
}

/* ---------- Deliveries ---------- */

/** Adds deliveries in one statement; one that exists already (the same event for the same handler) is left alone. */
export async function insertDeliveries(db: Db, rows: DeliveryRow[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['webhook_key', 'handler', 'event_id']).doNothing())
    .execute();
}

/** The handlers' queues that hold pending deliveries, of enabled webhooks. */
export function pendingQueues(db: Db): Promise<{ webhook_key: string; handler: number }[]> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.key', 'd.webhook_key')
    .select(['d.webhook_key', 'd.handler'])
    .distinct()
    .where('w.enabled', '=', 1)
    .where('d.state', '=', 'pending')
    .execute();
}

/** The front of one handler's queue: its first `limit` pending deliveries in event order. */
export function queueFront(db: Db, webhookKey: string, handler: number, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_key', '=', webhookKey)
    .where('handler', '=', handler)
    .where('state', '=', 'pending')
    .orderBy('event_seq')
    .orderBy('event_id')
    .limit(limit)
    .execute();
}

/** What one attempt of a delivery came to. */
export interface Settlement {
  delivery: DeliveryRow;
  attempt: AttemptRow;
  state: WebhookDeliveryState;
  nextAttemptAt: number;
}

/**
 * Records attempts and what they mean for their deliveries, in one transaction that `fence`
 * opens (it throws when the sending node no longer holds the queue: nothing is recorded).
 */
export async function settleAttempts(db: Db, settled: Settlement[], fence: (trx: Db) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await fence(trx);
    for (const { delivery, attempt, state, nextAttemptAt } of settled) {
      await trx.insertInto('webhook_attempts').values(attempt).execute();
      await trx
        .updateTable('webhook_deliveries')
        .set({
          attempts: attempt.attempt,
          state,
          next_attempt_at: nextAttemptAt,
          settled_at: state === 'pending' ? null : attempt.at,
          last_status: attempt.status,
          last_error: attempt.error,
        })
        .where('id', '=', delivery.id)
        .execute();
    }
  });
}

export async function deliveriesPage(
  db: Db,
  key: string,
  query: { state?: WebhookDeliveryState; eventType?: string; limit: number; offset: number },
) {
  let base = db.selectFrom('webhook_deliveries').where('webhook_key', '=', key);
  if (query.state) base = base.where('state', '=', query.state);
  if (query.eventType) base = base.where('event_type', '=', query.eventType);
  const total = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('event_seq', 'desc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { total: Number(total.n), rows };
}

export function findDelivery(db: Db, key: string, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_key', '=', key)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function attemptsOf(db: Db, deliveryId: string): Promise<AttemptRow[]> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('at')
    .orderBy('attempt')
    .execute();
}

/**
 * Makes deliveries due again now (one, or every failed one of a subscription), from their next
 * attempt on: they keep their place in event order. Answers how many.
 */
export async function resendDeliveries(db: Db, key: string, now: number, id?: string): Promise<number> {
  let update = db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: now, settled_at: null })
    .where('webhook_key', '=', key);
  update = id ? update.where('id', '=', id) : update.where('state', '=', 'failed');
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Removes attempts and settled deliveries older than `before`; pending ones stay. Answers how many deliveries went. */
export async function pruneWebhookLog(db: Db, before: number): Promise<number> {
  await db.deleteFrom('webhook_attempts').where('at', '<', before).execute();
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('state', '!=', 'pending')
    .where(sql<number>`coalesce(settled_at, created_at)`, '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
