import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, startTestApp, type TestApp } from '../test/harness.js';
import { isPostgres } from '../db/database.js';
import { recordChange } from './changes.js';
import {
  COMMIT_WINDOW_MS,
  OutboxConsumer,
  advancePosition,
  dueEvents,
  consumerStates,
  ensureConsumer,
  markDelivered,
  pruneOutbox,
} from './outbox.js';

const userEvent = (name: string) => ({ type: 'user.created' as const, payload: { name } });

/** An event row written directly, as if recorded at `at`. */
async function oldEvent(t: TestApp, at: number, name: string): Promise<string> {
  const id = randomUUID();
  await t.app.db
    .insertInto('events')
    .values({
      id,
      seq: at * 1000,
      type: 'user.created',
      repo_key: null,
      path: null,
      payload: JSON.stringify({ name }),
      actor: 'x',
      created_at: at,
    })
    .execute();
  return id;
}

describe.each(ENGINES)('the outbox as a backbone on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    // nothing polls in the background: each pass is the test's own
    t = await startTestApp(engine, { ARCA_BACKGROUND_WORK: 'false' });
  });
  afterEach(() => t.close());

  it('retries a handler that fails three times with a growing wait, then delivers', async () => {
    const t0 = Date.now();
    await recordChange(t.app.db, 'x', { event: userEvent('retry-me') }, t0);
    const calls: number[] = [];
    const consumer = new OutboxConsumer(
      t.app,
      'flaky',
      async (event: StoredEvent) => {
        if (event.type !== 'user.created' || event.payload.name !== 'retry-me') return;
        calls.push(calls.length);
        if (calls.length <= 3) throw new Error(`down ${calls.length}`);
      },
      { from: 'beginning', retry: { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 } },
    );
    await consumer.drain(t0);
    expect(calls).toHaveLength(1);
    // not due yet: the first retry waits a second
    await consumer.drain(t0 + 500);
    expect(calls).toHaveLength(1);
    await consumer.drain(t0 + 1000);
    expect(calls).toHaveLength(2);
    // the second retry waits two seconds more
    await consumer.drain(t0 + 2500);
    expect(calls).toHaveLength(2);
    await consumer.drain(t0 + 3000);
    expect(calls).toHaveLength(3);
    await consumer.drain(t0 + 7000);
    expect(calls).toHaveLength(4);
    // delivered: never again
    await consumer.drain(t0 + 60_000);
    expect(calls).toHaveLength(4);
    const receipt = await t.app.db
      .selectFrom('event_receipts')
      .selectAll()
      .where('consumer', '=', 'flaky')
      .executeTakeFirstOrThrow();
    expect(receipt.delivered_at).not.toBeNull();
    expect(Number(receipt.attempts)).toBe(3);
  });

  it('ends an event that always fails dead, visible to administrators, and re-queues it on request', async () => {
    const t0 = Date.now();
    await recordChange(t.app.db, 'x', { event: userEvent('poison') }, t0);
    let calls = 0;
    const consumer = new OutboxConsumer(
      t.app,
      'doomed',
      async (event: StoredEvent) => {
        if (event.type === 'user.created' && event.payload.name === 'poison') {
          calls++;
          throw new Error('the receiver answered 500');
        }
      },
      { from: 'beginning', retry: { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 1000 } },
    );
    for (const at of [t0, t0 + 1000, t0 + 2000, t0 + 3000, t0 + 10_000]) await consumer.drain(at);
    expect(calls).toBe(3);
    const state = (await consumerStates(t.app.db)).find((c) => c.name === 'doomed');
    expect(state).toMatchObject({ dead: 1, lastError: 'the receiver answered 500' });
    const answer = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/outbox', headers: ADMIN_BASIC });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().consumers).toContainEqual(
      expect.objectContaining({ name: 'doomed', dead: 1, lastError: 'the receiver answered 500' }),
    );
    const anonymous = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/outbox' });
    expect(anonymous.statusCode).toBe(401);
    // re-queued: tried again from its first attempt
    const requeued = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/system/outbox/doomed/requeue',
      headers: { ...ADMIN_BASIC, ...XHR },
    });
    expect(requeued.json()).toEqual({ requeued: 1 });
    await consumer.drain(t0 + 20_000);
    expect(calls).toBe(4);
  });

  it('starts a new consumer from now unless told otherwise', async () => {
    const t0 = Date.now();
    await recordChange(t.app.db, 'x', { event: userEvent('before') }, t0 - 1);
    const seen: string[] = [];
    const consumer = new OutboxConsumer(t.app, 'fresh', async (event) => {
      if (event.type === 'user.created') seen.push(event.payload.name);
    });
    await consumer.drain(t0);
    expect(seen).toEqual([]);
    await recordChange(t.app.db, 'x', { event: userEvent('after') }, t0 + 1);
    await consumer.drain(t0 + 2);
    expect(seen).toEqual(['after']);
  });

  it('reads only what is new after 100 000 delivered events', { timeout: 120_000 }, async () => {
    const consumer = 'bulk';
    const base = Date.now() - 2 * 86_400_000;
    await ensureConsumer(t.app.db, consumer, 'beginning');
    await ensureConsumer(t.app.db, consumer, 'beginning');
    const ids: string[] = [];
    for (let batch = 0; batch < 100; batch++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = batch * 1000 + i;
        const id = randomUUID();
        ids.push(id);
        return {
          id,
          seq: (base + n) * 1000,
          type: 'user.created',
          repo_key: null,
          path: null,
          payload: '{"name":"bulk"}',
          actor: 'x',
          created_at: base + n,
        };
      });
      await t.app.db.insertInto('events').values(rows).execute();
      await t.app.db
        .insertInto('event_receipts')
        .values(rows.map((r) => ({ consumer, event_id: r.id, delivered_at: base })))
        .execute();
    }
    const position = await advancePosition(t.app.db, consumer);
    expect(position).toBeGreaterThanOrEqual((base + 99_999) * 1000);
    for (const name of ['n1', 'n2', 'n3']) await recordChange(t.app.db, 'x', { event: userEvent(name) });
    // the rows a poll reads: those after the position, not the history
    const after = await t.app.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('seq', '>', position)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBeLessThan(50);
    const claimed = await dueEvents(t.app.db, consumer);
    expect(claimed.map((e) => (e.type === 'user.created' ? e.payload.name : ''))).toEqual(
      expect.arrayContaining(['n1', 'n2', 'n3']),
    );
    expect(claimed.every((e) => e.seq > position)).toBe(true);
    // and the database serves it from the sequence index, by range
    const postgres = isPostgres(t.app.db);
    if (postgres) await sql`analyze events`.execute(t.app.db);
    const plan = await sql<Record<string, string>>`${sql.raw(postgres ? 'explain' : 'explain query plan')}
      select e.id from events e
      left join event_receipts r on r.event_id = e.id and r.consumer = ${consumer}
      where e.seq > ${position} order by e.seq limit 100`.execute(t.app.db);
    const text = plan.rows.map((r) => Object.values(r).join(' ')).join('\n');
    expect(text).toMatch(/events_seq/);
    expect(text).not.toMatch(/SCAN e\b(?! USING)|Seq Scan on events/);
  });

  it('prunes old settled events and keeps every one a consumer has not delivered', async () => {
    const db = t.app.db;
    const now = Date.now();
    const old = now - 30 * 86_400_000;
    await ensureConsumer(db, 'prune-a', 'beginning');
    await ensureConsumer(db, 'prune-b', 'beginning');
    const delivered = await oldEvent(t, old, 'delivered');
    const dead = await oldEvent(t, old + 1, 'dead');
    const waiting = await oldEvent(t, old + 2, 'waiting');
    for (const consumer of ['prune-a', 'prune-b']) {
      await db.insertInto('event_receipts').values({ consumer, event_id: delivered, delivered_at: old }).execute();
    }
    await db
      .insertInto('event_receipts')
      .values({ consumer: 'prune-a', event_id: dead, delivered_at: null, dead_at: old })
      .execute();
    // every other consumer of this app has settled everything old: only the three matter here
    const others = (await consumerStates(db)).filter((c) => !c.name.startsWith('prune-'));
    for (const other of others) {
      for (const id of [delivered, dead, waiting]) {
        await db
          .insertInto('event_receipts')
          .values({ consumer: other.name, event_id: id, delivered_at: old })
          .execute();
      }
    }
    await db.insertInto('event_receipts').values({ consumer: 'prune-b', event_id: dead, delivered_at: old }).execute();
    await db
      .insertInto('event_receipts')
      .values({ consumer: 'prune-a', event_id: waiting, delivered_at: old })
      .execute();
    // prune-b has not seen `waiting` yet (no receipt): its position must pass it first
    for (const consumer of ['prune-a', 'prune-b', ...others.map((o) => o.name)]) await advancePosition(db, consumer);
    const positionB = (await consumerStates(db)).find((c) => c.name === 'prune-b')!.position;
    expect(positionB).toBeLessThan((old + 2) * 1000);
    const removed = await pruneOutbox(db, now - 7 * 86_400_000);
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = (
      await db.selectFrom('events').select('id').where('id', 'in', [delivered, dead, waiting]).execute()
    ).map((r) => r.id);
    expect(left.sort()).toEqual([dead, waiting].sort());
    expect(
      await db.selectFrom('event_receipts').select('event_id').where('event_id', '=', delivered).execute(),
    ).toEqual([]);
    // recent events stay whatever their state
    const recent = await oldEvent(t, now - COMMIT_WINDOW_MS * 2, 'recent');
    await markDelivered(db, 'prune-a', [recent]);
    await pruneOutbox(db, now - 7 * 86_400_000);
    expect(await db.selectFrom('events').select('id').where('id', '=', recent).execute()).toHaveLength(1);
  });
});
