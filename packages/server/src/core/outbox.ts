import { arcaEventSchema, type StoredEvent } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import { onEventRecorded } from './changes.js';

/**
 * How long after its `seq` was taken an event may still commit (the longest transaction that
 * records one). Below `now - COMMIT_WINDOW_MS` every event is visible, so a consumer's position
 * may pass it; within the window, a late commit with a lower `seq` is still found.
 */
export const COMMIT_WINDOW_MS = 5 * 60_000;

/**
 * How long after this process records an event its consumers look for it: the writer's
 * transaction has committed by then, and the events of a burst are taken in one pass.
 */
const WAKE_MS = 50;

/** How often an idle consumer moves its position (one small write), at most. */
const POSITION_INTERVAL_MS = 60_000;

/**
 * How often a polling consumer looks through its whole commit window (for events that committed
 * late, leases other nodes let run out, retries come due); in between it reads only the events
 * after the newest it took, so that a window holding many events is not read again every pass.
 */
const FULL_SCAN_MS = 5_000;

/** How a consumer retries an event its handler failed on. */
export interface RetryPolicy {
  /** Attempts in all before the event is given up (dead, visible to administrators). */
  maxAttempts: number;
  /** The wait before the second attempt; it doubles with each failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 1000, maxDelayMs: 60 * 60_000 };

/** The wait before attempt `attempts + 1`, after `attempts` failures. */
export function retryDelay(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, attempts - 1), policy.maxDelayMs);
}

/** Where a consumer seen for the first time starts: at what is recorded from now on, or at the oldest event kept. */
export type ConsumerStart = 'now' | 'beginning';

/** Registers a consumer's position once; a consumer that exists keeps its own. */
export async function ensureConsumer(db: Db, name: string, from: ConsumerStart, now = Date.now()): Promise<void> {
  await db
    .insertInto('outbox_consumers')
    // `seq` is milliseconds × 1000 plus a counter: from now means after every event of this millisecond
    .values({ name, position: from === 'now' ? now * 1000 + 999 : 0, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

async function positionOf(db: Db, consumer: string): Promise<number> {
  const row = await db
    .selectFrom('outbox_consumers')
    .select('position')
    .where('name', '=', consumer)
    .executeTakeFirst();
  if (!row) throw new Error(`the outbox consumer '${consumer}' is not registered`);
  return Number(row.position);
}

/**
 * Reading the outbox. Each consumer claims the events after its position that wait for it (never
 * claimed, or whose lease ran out and whose next attempt is due) under a lease, and settles them:
 * delivered, or failed (tried again after a backoff, dead after the last attempt). Events another
 * node claimed are left alone until its lease runs out. Nothing relies on `seq` being commit
 * order: the position stays a commit window behind, so an event that commits late with a lower
 * `seq` is still claimed by the next call.
 */
export async function claimEvents(
  db: Db,
  consumer: string,
  holder: string,
  options: { limit?: number; leaseMs?: number; now?: number; after?: number } = {},
): Promise<StoredEvent[]> {
  const { limit = 100, leaseMs = 60_000, now = Date.now() } = options;
  // `after`: only what follows an event this holder took already (the events before it were seen)
  const position = Math.max(await positionOf(db, consumer), options.after ?? 0);
  const candidates = await db
    .selectFrom('events as e')
    .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', consumer))
    .select('e.id')
    .where('e.seq', '>', position)
    .where((eb) =>
      eb.or([
        eb('r.event_id', 'is', null),
        eb.and([
          eb('r.delivered_at', 'is', null),
          eb('r.dead_at', 'is', null),
          eb('r.lease_until', '<', now),
          eb.or([eb('r.next_attempt_at', 'is', null), eb('r.next_attempt_at', '<=', now)]),
        ]),
      ]),
    )
    .orderBy('e.seq')
    .limit(limit)
    .execute();
  if (!candidates.length) return [];
  const leaseUntil = now + leaseMs;
  // claimed only where nobody else holds a live lease and it is due (re-checked in the statement)
  await db
    .insertInto('event_receipts')
    .values(
      candidates.map(({ id }) => ({ consumer, event_id: id, holder, lease_until: leaseUntil, delivered_at: null })),
    )
    .onConflict((oc) =>
      oc
        .columns(['consumer', 'event_id'])
        .doUpdateSet({ holder, lease_until: leaseUntil })
        .where('event_receipts.delivered_at', 'is', null)
        .where('event_receipts.dead_at', 'is', null)
        .where('event_receipts.lease_until', '<', now)
        .where((eb) =>
          eb.or([eb('event_receipts.next_attempt_at', 'is', null), eb('event_receipts.next_attempt_at', '<=', now)]),
        ),
    )
    .execute();
  const rows = await db
    .selectFrom('events as e')
    .innerJoin('event_receipts as r', 'r.event_id', 'e.id')
    .selectAll('e')
    .select('r.attempts')
    .where('r.consumer', '=', consumer)
    .where('r.holder', '=', holder)
    .where('r.lease_until', '=', leaseUntil)
    .where('r.delivered_at', 'is', null)
    .where(
      'e.id',
      'in',
      candidates.map((c) => c.id),
    )
    .orderBy('e.seq')
    .execute();
  return rows.map((row) => ({
    ...arcaEventSchema.parse({
      type: row.type,
      ...(row.repo_key !== null ? { repoKey: row.repo_key } : {}),
      ...(row.path !== null ? { path: row.path } : {}),
      payload: JSON.parse(row.payload) as unknown,
    }),
    id: row.id,
    seq: Number(row.seq),
    actor: row.actor,
    createdAt: Number(row.created_at),
  }));
}

/**
 * Gives up the claims a holder (a node) still has from before it restarted: those events are due
 * again at once rather than when their leases run out.
 */
export async function releaseClaims(db: Db, consumer: string, holder: string): Promise<void> {
  await db
    .updateTable('event_receipts')
    .set({ lease_until: 0 })
    .where('consumer', '=', consumer)
    .where('holder', '=', holder)
    .where('delivered_at', 'is', null)
    .where('dead_at', 'is', null)
    .execute();
}

/** Marks claimed events delivered for a consumer; they are never claimed by it again. */
export async function markDelivered(db: Db, consumer: string, holder: string, ids: string[], now = Date.now()) {
  if (!ids.length) return;
  await db
    .updateTable('event_receipts')
    .set({ delivered_at: now, last_error: null })
    .where('consumer', '=', consumer)
    .where('holder', '=', holder)
    .where('event_id', 'in', ids)
    .execute();
}

/**
 * Records that a consumer's handler failed on a claimed event: it is tried again after the
 * policy's backoff, or, that being its last attempt, it is dead (kept with its error, visible to
 * administrators, never claimed again unless re-queued). Answers whether it is dead.
 */
export async function markFailed(
  db: Db,
  consumer: string,
  holder: string,
  id: string,
  error: string,
  policy: RetryPolicy = DEFAULT_RETRY,
  now = Date.now(),
): Promise<boolean> {
  const receipt = await db
    .selectFrom('event_receipts')
    .select('attempts')
    .where('consumer', '=', consumer)
    .where('event_id', '=', id)
    .where('holder', '=', holder)
    .executeTakeFirst();
  if (!receipt) return false;
  const attempts = Number(receipt.attempts) + 1;
  const dead = attempts >= policy.maxAttempts;
  await db
    .updateTable('event_receipts')
    .set({
      attempts,
      lease_until: 0,
      next_attempt_at: dead ? null : now + retryDelay(policy, attempts),
      dead_at: dead ? now : null,
      last_error: error.slice(0, 2000),
    })
    .where('consumer', '=', consumer)
    .where('event_id', '=', id)
    .where('holder', '=', holder)
    .execute();
  return dead;
}

/**
 * Moves a consumer's position up to just below its oldest unsettled event, never into the commit
 * window: every event below it is delivered or dead, so that the next poll reads only what is new.
 */
export async function advancePosition(db: Db, consumer: string, now = Date.now()): Promise<number> {
  const position = await positionOf(db, consumer);
  const horizon = (now - COMMIT_WINDOW_MS) * 1000;
  if (horizon <= position) return position;
  const oldest = await db
    .selectFrom('events as e')
    .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', consumer))
    .select((eb) => eb.fn.min<number | string>('e.seq').as('seq'))
    .where('e.seq', '>', position)
    .where('e.seq', '<=', horizon)
    .where((eb) =>
      eb.or([eb('r.event_id', 'is', null), eb.and([eb('r.delivered_at', 'is', null), eb('r.dead_at', 'is', null)])]),
    )
    .executeTakeFirst();
  const next = oldest?.seq !== null && oldest?.seq !== undefined ? Number(oldest.seq) - 1 : horizon;
  if (next <= position) return position;
  await db
    .updateTable('outbox_consumers')
    .set({ position: next })
    .where('name', '=', consumer)
    .where('position', '<', next)
    .execute();
  return next;
}

/** Makes a consumer's dead events (or one of them) due again, from their first attempt. Answers how many. */
export async function requeueDead(db: Db, consumer: string, eventId?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let dead = trx
      .selectFrom('event_receipts as r')
      .innerJoin('events as e', 'e.id', 'r.event_id')
      .select(['r.event_id', 'e.seq'])
      .where('r.consumer', '=', consumer)
      .where('r.dead_at', 'is not', null);
    if (eventId) dead = dead.where('r.event_id', '=', eventId);
    const rows = await dead.execute();
    if (!rows.length) return 0;
    await trx
      .updateTable('event_receipts')
      .set({ dead_at: null, attempts: 0, next_attempt_at: null, lease_until: 0 })
      .where('consumer', '=', consumer)
      .where(
        'event_id',
        'in',
        rows.map((r) => r.event_id),
      )
      .execute();
    // the position goes back below them, so that the next poll finds them again
    const lowest = Math.min(...rows.map((r) => Number(r.seq)));
    await trx
      .updateTable('outbox_consumers')
      .set({ position: lowest - 1 })
      .where('name', '=', consumer)
      .where('position', '>=', lowest)
      .execute();
    return rows.length;
  });
}

/** What an administrator sees of one consumer. */
export interface ConsumerState {
  name: string;
  /** The `seq` below which every event is settled for it. */
  position: number;
  /** Events after its position not yet delivered (waiting, leased or failed and due again later). */
  pending: number;
  /** Events it gave up on. */
  dead: number;
  /** The newest dead event's error, if any. */
  lastError: string | null;
}

/** Every consumer with its backlog and dead events. */
export async function consumerStates(db: Db): Promise<ConsumerState[]> {
  const consumers = await db.selectFrom('outbox_consumers').selectAll().orderBy('name').execute();
  const states: ConsumerState[] = [];
  for (const c of consumers) {
    const position = Number(c.position);
    const pending = await db
      .selectFrom('events as e')
      .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', c.name))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('e.seq', '>', position)
      .where((eb) =>
        eb.or([eb('r.event_id', 'is', null), eb.and([eb('r.delivered_at', 'is', null), eb('r.dead_at', 'is', null)])]),
      )
      .executeTakeFirstOrThrow();
    const dead = await db
      .selectFrom('event_receipts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('consumer', '=', c.name)
      .where('dead_at', 'is not', null)
      .executeTakeFirstOrThrow();
    const newest = await db
      .selectFrom('event_receipts')
      .select('last_error')
      .where('consumer', '=', c.name)
      .where('dead_at', 'is not', null)
      .orderBy('dead_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    states.push({
      name: c.name,
      position,
      pending: Number(pending.n),
      dead: Number(dead.n),
      lastError: newest?.last_error ?? null,
    });
  }
  return states;
}

/**
 * Removes what the outbox no longer needs: events older than `olderThan` that every consumer has
 * passed (its position is beyond them), with their receipts. An event some consumer has not
 * delivered — waiting, failing or dead — is kept. Answers how many events went.
 */
export async function pruneOutbox(db: Db, olderThan: number, batch = 5000): Promise<number> {
  const lowest = await db
    .selectFrom('outbox_consumers')
    .select((eb) => eb.fn.min<number | string>('position').as('p'))
    .executeTakeFirst();
  const passed = lowest?.p === null || lowest?.p === undefined ? Number.MAX_SAFE_INTEGER : Number(lowest.p);
  const limit = Math.min(passed, olderThan * 1000);
  let removed = 0;
  for (;;) {
    const ids = (
      await db
        .selectFrom('events as e')
        .select('e.id')
        .where('e.seq', '<=', limit)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('event_receipts as r')
                .select('r.event_id')
                .whereRef('r.event_id', '=', 'e.id')
                .where('r.delivered_at', 'is', null),
            ),
          ),
        )
        .orderBy('e.seq')
        .limit(batch)
        .execute()
    ).map((r) => r.id);
    if (!ids.length) return removed;
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('event_receipts').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('events').where('id', 'in', ids).execute();
    });
    removed += ids.length;
    if (ids.length < batch) return removed;
  }
}

export interface OutboxConsumerOptions {
  /** Where the consumer starts the first time it runs (default: what is recorded from now on). */
  from?: ConsumerStart;
  pollMs?: number;
  retry?: RetryPolicy;
  /**
   * Whether what this process records is taken at once rather than at the next poll: for a
   * consumer someone waits on (webhooks), at the cost of more, smaller passes.
   */
  wakeOnRecord?: boolean;
}

/**
 * A consumer of the outbox inside the server: every `pollMs` it claims what waits for it and
 * applies each event; one that fails is tried again after a backoff and, after the policy's last
 * attempt, ends dead (logged, counted in `/system/outbox`) without blocking the rest. One node
 * process polls (the node's first worker); the leases keep nodes apart.
 */
export class OutboxConsumer {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private again = false;
  private unlisten: (() => void) | undefined;
  private running: Promise<number> | undefined;
  private registered: Promise<void> | undefined;
  private readonly retry: RetryPolicy;
  /** When this consumer last moved its position: an idle consumer writes it once a minute, not every poll. */
  private advancedAt = 0;
  /** When this process last looked through the whole window, and the newest event it has taken since. */
  private scannedAt = 0;
  private newest = 0;

  constructor(
    private readonly app: FastifyInstance,
    readonly name: string,
    private readonly apply: (event: StoredEvent) => Promise<void>,
    private readonly options: OutboxConsumerOptions = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
  }

  start(): void {
    this.timer = setInterval(
      () =>
        void this.poll().catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: a pass failed`)),
      this.options.pollMs ?? 1000,
    );
    this.timer.unref();
    if (this.options.wakeOnRecord) this.unlisten = onEventRecorded(() => this.wake());
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.unlisten?.();
    this.unlisten = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Looks for new events in a moment; a wake during a pass makes one more pass after it. */
  private wake(): void {
    if (this.soon || !this.unlisten) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      if (this.running) {
        this.again = true;
        return;
      }
      void this.poll().catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: a pass failed`));
    }, WAKE_MS);
  }

  /** A poll: what is new since the last pass, and the whole window every few seconds. */
  private poll(): Promise<number> {
    return this.drain(undefined, Date.now() - this.scannedAt < FULL_SCAN_MS);
  }

  /** Applies what is waiting and due now; answers how many events it took. */
  drain(now?: number, onlyNew = false): Promise<number> {
    this.running ??= this.pass(now, onlyNew).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
    return this.running;
  }

  private async pass(at: number | undefined, onlyNew: boolean): Promise<number> {
    const { db, nodeId } = this.app;
    this.registered ??= ensureConsumer(db, this.name, this.options.from ?? 'now', at);
    await this.registered;
    let taken = 0;
    let after = onlyNew ? this.newest : undefined;
    if (!onlyNew) this.scannedAt = at ?? Date.now();
    for (;;) {
      const now = at ?? Date.now();
      const events = await claimEvents(db, this.name, nodeId, { limit: 200, now, ...(after ? { after } : {}) });
      if (!events.length) break;
      // the next claim of this pass starts after these: everything before them has been looked at
      after = events[events.length - 1]!.seq;
      this.newest = Math.max(this.newest, after);
      const delivered: string[] = [];
      for (const event of events) {
        try {
          await this.apply(event);
          delivered.push(event.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const dead = await markFailed(db, this.name, nodeId, event.id, message, this.retry, now);
          this.app.log.warn(
            { err: error, event: event.id, type: event.type },
            dead ? `${this.name}: gave up on an event` : `${this.name}: an event failed; it is tried again later`,
          );
        }
      }
      await markDelivered(db, this.name, nodeId, delivered, now);
      taken += events.length;
    }
    const now = at ?? Date.now();
    if (taken > 0 || now - this.advancedAt >= POSITION_INTERVAL_MS || now < this.advancedAt) {
      await advancePosition(db, this.name, now);
      this.advancedAt = now;
    }
    return taken;
  }

  /** Runs the consumer with the server (on the node's polling process): started when ready, stopped when it closes. */
  register(): this {
    this.app.addHook('onReady', async () => {
      // a new consumer's position is taken when the server is ready, not at its first poll
      this.registered ??= ensureConsumer(this.app.db, this.name, this.options.from ?? 'now');
      await this.registered;
      if (!this.app.polls) return;
      await releaseClaims(this.app.db, this.name, this.app.nodeId);
      this.start();
    });
    this.app.addHook('onClose', async () => this.stop());
    return this;
  }
}
