import { arcaEventSchema, type StoredEvent } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';
import { onEventRecorded } from './changes.js';
import type { Work } from './work.js';

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
 * late, retries come due); in between it reads only the events
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
 * Reading the outbox. A consumer is followed by one node at a time (its task of the work kernel
 * is the only lease), so reading takes no claim: the events after its position that wait for it
 * (never tried, or failed and due again) are answered in `seq` order, and settled by
 * `markDelivered` / `markFailed`. Nothing relies on `seq` being commit order: the position stays
 * a commit window behind, so an event that commits late with a lower `seq` is still read.
 */
export async function dueEvents(
  db: Db,
  consumer: string,
  options: { limit?: number; now?: number; after?: number } = {},
): Promise<StoredEvent[]> {
  const { limit = 100, now = Date.now() } = options;
  // `after`: only what follows an event this consumer took already (the events before it were seen)
  const position = Math.max(await positionOf(db, consumer), options.after ?? 0);
  const rows = await db
    .selectFrom('events as e')
    .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', consumer))
    .selectAll('e')
    .where('e.seq', '>', position)
    .where((eb) =>
      eb.or([
        eb('r.event_id', 'is', null),
        eb.and([
          eb('r.delivered_at', 'is', null),
          eb('r.dead_at', 'is', null),
          eb.or([eb('r.next_attempt_at', 'is', null), eb('r.next_attempt_at', '<=', now)]),
        ]),
      ]),
    )
    .orderBy('e.seq')
    .limit(limit)
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

/** Marks events delivered for a consumer; they are never read for it again. */
export async function markDelivered(db: Db, consumer: string, ids: string[], now = Date.now()) {
  if (!ids.length) return;
  await db
    .insertInto('event_receipts')
    .values(ids.map((id) => ({ consumer, event_id: id, delivered_at: now })))
    .onConflict((oc) => oc.columns(['consumer', 'event_id']).doUpdateSet({ delivered_at: now, last_error: null }))
    .execute();
}

/**
 * Records that a consumer's handler failed on an event: it is tried again after the policy's
 * backoff, or, that being its last attempt, it is dead (kept with its error, visible to
 * administrators, never read again unless re-queued). Answers whether it is dead.
 */
export async function markFailed(
  db: Db,
  consumer: string,
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
    .executeTakeFirst();
  const attempts = Number(receipt?.attempts ?? 0) + 1;
  const dead = attempts >= policy.maxAttempts;
  const outcome = {
    attempts,
    next_attempt_at: dead ? null : now + retryDelay(policy, attempts),
    dead_at: dead ? now : null,
    last_error: error.slice(0, 2000),
  };
  await db
    .insertInto('event_receipts')
    .values({ consumer, event_id: id, delivered_at: null, ...outcome })
    .onConflict((oc) => oc.columns(['consumer', 'event_id']).doUpdateSet(outcome))
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
      .set({ dead_at: null, attempts: 0, next_attempt_at: null })
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
  /** Events after its position not yet delivered (waiting, or failed and due again later). */
  pending: number;
  /** Events it gave up on. */
  dead: number;
  /** The newest dead event's error, if any. */
  lastError: string | null;
}

/**
 * A consumer's backlog: the events after its position it has not settled, those of them that
 * failed at least once, and the newest error among those.
 */
export async function consumerBacklog(
  db: Db,
  consumer: string,
): Promise<{ pending: number; failing: number; lastError: string | null }> {
  const position = await positionOf(db, consumer).catch(() => undefined);
  if (position === undefined) return { pending: 0, failing: 0, lastError: null };
  const pending = await db
    .selectFrom('events as e')
    .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', consumer))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('e.seq', '>', position)
    .where((eb) =>
      eb.or([eb('r.event_id', 'is', null), eb.and([eb('r.delivered_at', 'is', null), eb('r.dead_at', 'is', null)])]),
    )
    .executeTakeFirstOrThrow();
  const failing = await db
    .selectFrom('event_receipts as r')
    .select(['r.last_error', 'r.next_attempt_at'])
    .where('r.consumer', '=', consumer)
    .where('r.delivered_at', 'is', null)
    .where('r.dead_at', 'is', null)
    .where('r.attempts', '>', 0)
    .orderBy('r.next_attempt_at', 'desc')
    .execute();
  return {
    pending: Number(pending.n),
    failing: failing.length,
    lastError: failing.find((r) => r.last_error)?.last_error ?? null,
  };
}

/** Forgets a consumer: its position and receipts (a federation peer that left). */
export async function dropConsumer(db: Db, consumer: string): Promise<void> {
  await db.deleteFrom('event_receipts').where('consumer', '=', consumer).execute();
  await db.deleteFrom('outbox_consumers').where('name', '=', consumer).execute();
}

/** Every consumer with its backlog and dead events. */
export async function consumerStates(db: Db): Promise<ConsumerState[]> {
  const consumers = await db.selectFrom('outbox_consumers').selectAll().orderBy('name').execute();
  const states: ConsumerState[] = [];
  for (const c of consumers) {
    const position = Number(c.position);
    const { pending } = await consumerBacklog(db, c.name);
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
      pending,
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
 * The kind of the work kernel's task that follows one consumer: a kind per consumer, defined by
 * the processes that run it, so that only those claim it.
 */
const followKind = (consumer: string) => `outbox:${consumer}`;
/** How soon a consumer this process no longer runs is offered again (to a node that runs it). */
const NOT_HERE_MS = 2_000;

/** The consumers each kernel's process runs, by name. */
const followers = new WeakMap<Work, Map<string, OutboxConsumer>>();

function follow(work: Work, db: Db, consumer: OutboxConsumer): void {
  let here = followers.get(work);
  if (!here) followers.set(work, (here = new Map()));
  const running = here;
  if (running.get(consumer.name) === consumer) return;
  if (running.has(consumer.name)) work.undefine(followKind(consumer.name));
  running.set(consumer.name, consumer);
  work.define<Record<string, never>, never, void>(followKind(consumer.name), {
    resident: true,
    async run(task) {
      const current = running.get(consumer.name);
      if (current) await current.follow(task.signal);
      if (task.signal.aborted) return;
      // stopped here while its position stays: a node that runs it takes it
      const kept = await db
        .selectFrom('outbox_consumers')
        .select('name')
        .where('name', '=', consumer.name)
        .executeTakeFirst();
      if (kept) task.again(Date.now() + (current ? 0 : NOT_HERE_MS));
    },
  });
}

function unfollow(work: Work, consumer: OutboxConsumer): void {
  const here = followers.get(work);
  if (here?.get(consumer.name) !== consumer) return;
  here.delete(consumer.name);
  work.undefine(followKind(consumer.name));
}

/**
 * A consumer of the outbox inside the server: it applies each event after its position; one that
 * fails is tried again after a backoff and, after the policy's last attempt, ends dead (logged,
 * counted in `/system/outbox`) without blocking the rest. One node process at a time follows a
 * consumer: its task of the work kernel, which another node takes over when the holder stops or
 * dies. While it follows, it polls every `pollMs` (and on a wake).
 */
export class OutboxConsumer {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private again = false;
  private unlisten: (() => void) | undefined;
  private running: Promise<number> | undefined;
  private registered: Promise<void> | undefined;
  private readonly retry: RetryPolicy;
  /** Ends the following under way in this process (the consumer stopped). */
  private release: (() => void) | undefined;
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

  /** Offers this consumer to the node's kernel: this process follows it once its task is claimed here. */
  start(): void {
    follow(this.app.work, this.app.db, this);
    this.registered ??= ensureConsumer(this.app.db, this.name, this.options.from ?? 'now');
    void this.registered
      .then(() => this.app.work.submit(followKind(this.name), {}, { key: this.name }))
      .catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: offering the consumer failed`));
  }

  /** Stops following here; the consumer's task goes to another node that runs it. */
  async stop(): Promise<void> {
    unfollow(this.app.work, this);
    this.release?.();
    await this.running?.catch(() => undefined);
  }

  /** Follows the outbox (the kernel's run of this consumer's task) until `signal` aborts or the consumer stops. */
  async follow(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      this.release = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true });
      this.timer = setInterval(
        () =>
          void this.poll().catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: a pass failed`)),
        this.options.pollMs ?? 1000,
      );
      this.timer.unref();
      if (this.options.wakeOnRecord) this.unlisten = onEventRecorded(() => this.wake());
      // what waited while nobody followed it (a take-over, a restart) is taken at once
      void this.poll().catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: a pass failed`));
    });
    this.release = undefined;
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.soon = undefined;
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

  /**
   * Applies what is waiting and due now, in this process whichever follows the consumer (tests
   * make a pass at a time they choose; handlers take an event twice without harm). Answers how
   * many events it took.
   */
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
    const { db } = this.app;
    this.registered ??= ensureConsumer(db, this.name, this.options.from ?? 'now', at);
    await this.registered;
    let taken = 0;
    let after = onlyNew ? this.newest : undefined;
    if (!onlyNew) this.scannedAt = at ?? Date.now();
    for (;;) {
      const now = at ?? Date.now();
      const events = await dueEvents(db, this.name, { limit: 200, now, ...(after ? { after } : {}) });
      if (!events.length) break;
      // the next read of this pass starts after these: everything before them has been looked at
      after = events[events.length - 1]!.seq;
      this.newest = Math.max(this.newest, after);
      const delivered: string[] = [];
      for (const event of events) {
        try {
          await this.apply(event);
          delivered.push(event.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const dead = await markFailed(db, this.name, event.id, message, this.retry, now);
          this.app.log.warn(
            { err: error, event: event.id, type: event.type },
            dead ? `${this.name}: gave up on an event` : `${this.name}: an event failed; it is tried again later`,
          );
        }
      }
      await markDelivered(db, this.name, delivered, now);
      taken += events.length;
    }
    const now = at ?? Date.now();
    if (taken > 0 || now - this.advancedAt >= POSITION_INTERVAL_MS || now < this.advancedAt) {
      await advancePosition(db, this.name, now);
      this.advancedAt = now;
    }
    return taken;
  }

  /** Runs the consumer with the server (offered by the node's polling process when ready, stopped when it closes). */
  register(): this {
    this.app.addHook('onReady', async () => {
      // a new consumer's position is taken when the server is ready, not at its first poll
      this.registered ??= ensureConsumer(this.app.db, this.name, this.options.from ?? 'now');
      await this.registered;
      if (this.app.polls) this.start();
    });
    this.app.addHook('onClose', async () => this.stop());
    return this;
  }
}
