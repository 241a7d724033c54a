import { arcaEventSchema, type StoredEvent } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.js';

/**
 * Reading the outbox. Each consumer (webhooks, replication …) claims undelivered events under a
 * lease and marks them delivered; events another node claimed are left alone until its lease
 * runs out. Nothing relies on `seq` being commit order: an event that commits late with a lower
 * `seq` is still undelivered for every consumer, and is claimed by the next call.
 */
export async function claimEvents(
  db: Db,
  consumer: string,
  holder: string,
  options: { limit?: number; leaseMs?: number; now?: number } = {},
): Promise<StoredEvent[]> {
  const { limit = 100, leaseMs = 60_000, now = Date.now() } = options;
  const candidates = await db
    .selectFrom('events as e')
    .leftJoin('event_receipts as r', (join) => join.onRef('r.event_id', '=', 'e.id').on('r.consumer', '=', consumer))
    .select('e.id')
    .where((eb) =>
      eb.or([eb('r.event_id', 'is', null), eb.and([eb('r.delivered_at', 'is', null), eb('r.lease_until', '<', now)])]),
    )
    .orderBy('e.seq')
    .limit(limit)
    .execute();
  if (!candidates.length) return [];
  const leaseUntil = now + leaseMs;
  for (const { id } of candidates) {
    // claimed only when nobody else holds a live lease on it (re-checked in the statement)
    await db
      .insertInto('event_receipts')
      .values({ consumer, event_id: id, holder, lease_until: leaseUntil, delivered_at: null })
      .onConflict((oc) =>
        oc
          .columns(['consumer', 'event_id'])
          .doUpdateSet({ holder, lease_until: leaseUntil })
          .where('event_receipts.delivered_at', 'is', null)
          .where('event_receipts.lease_until', '<', now),
      )
      .execute();
  }
  const rows = await db
    .selectFrom('events as e')
    .innerJoin('event_receipts as r', 'r.event_id', 'e.id')
    .selectAll('e')
    .where('r.consumer', '=', consumer)
    .where('r.holder', '=', holder)
    .where('r.lease_until', '=', leaseUntil)
    .where('r.delivered_at', 'is', null)
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

/** Marks claimed events delivered for a consumer; they are never claimed by it again. */
export async function markDelivered(db: Db, consumer: string, holder: string, ids: string[], now = Date.now()) {
  if (!ids.length) return;
  await db
    .updateTable('event_receipts')
    .set({ delivered_at: now })
    .where('consumer', '=', consumer)
    .where('holder', '=', holder)
    .where('event_id', 'in', ids)
    .execute();
}

/**
 * A consumer of the outbox inside the server: every `pollMs` it claims what waits for it, applies
 * each event (one that fails is logged and not retried, so that it cannot block the rest) and
 * marks them delivered. Every node runs one per consumer name; the leases keep them apart.
 */
export class OutboxConsumer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly name: string,
    private readonly apply: (event: StoredEvent) => Promise<void>,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(
      () =>
        void this.drain().catch((error: unknown) => this.app.log.warn({ err: error }, `${this.name}: a pass failed`)),
      this.pollMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Applies what is waiting now; answers how many events it took. */
  drain(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<number> {
    const { db, nodeId } = this.app;
    let taken = 0;
    for (;;) {
      const events = await claimEvents(db, this.name, nodeId, { limit: 200 });
      if (!events.length) return taken;
      for (const event of events) {
        try {
          await this.apply(event);
        } catch (error) {
          this.app.log.warn({ err: error, event: event.id }, `${this.name}: an event could not be applied`);
        }
      }
      await markDelivered(
        db,
        this.name,
        nodeId,
        events.map((e) => e.id),
      );
      taken += events.length;
    }
  }

  /** Runs the consumer with the server: started when it is ready, stopped (after its pass) when it closes. */
  register(): this {
    this.app.addHook('onReady', async () => this.start());
    this.app.addHook('onClose', async () => this.stop());
    return this;
  }
}
