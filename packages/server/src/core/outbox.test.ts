import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arcaEventSchema, type ArcaEvent } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, createRepo, put, startTestApp, type TestApp } from '../test/harness.js';
import { recordChange } from './changes.js';
import { OutboxConsumer, dueEvents, ensureConsumer, markDelivered } from './outbox.js';

/** One event of every type, with a payload of its shape. */
const SAMPLES: ArcaEvent[] = [
  { type: 'artifact.deployed', repoKey: 'r', path: 'a/b.jar', payload: { sha256: 'ab', size: 3, cached: true } },
  { type: 'artifact.deleted', repoKey: 'r', path: 'a', payload: { trashPath: 'r/a' } },
  { type: 'artifact.moved', repoKey: 'r', path: 'a', payload: { to: { repoKey: 's', path: 'b' } } },
  { type: 'artifact.copied', repoKey: 'r', path: 'a', payload: { to: { repoKey: 's', path: 'b' } } },
  { type: 'artifact.restored', repoKey: 'r', path: 'a', payload: { trashPath: 'r/a' } },
  { type: 'artifact.property.added', repoKey: 'r', path: 'a', payload: { properties: { k: ['v'] }, recursive: true } },
  { type: 'artifact.property.deleted', repoKey: 'r', path: 'a', payload: { keys: ['k'], recursive: false } },
  { type: 'repository.created', repoKey: 'r', payload: { rclass: 'local' } },
  { type: 'repository.updated', repoKey: 'r', payload: {} },
  { type: 'repository.deleted', repoKey: 'r', payload: {} },
  { type: 'user.created', payload: { name: 'ann' } },
  { type: 'user.updated', payload: { name: 'ann' } },
  { type: 'user.deleted', payload: { name: 'ann' } },
  { type: 'group.created', payload: { name: 'devs' } },
  { type: 'group.updated', payload: { name: 'devs' } },
  { type: 'group.deleted', payload: { name: 'devs' } },
  { type: 'permission.saved', payload: { name: 't' } },
  { type: 'permission.deleted', payload: { name: 't' } },
  { type: 'token.created', payload: { id: 'i', user: 'ann' } },
  { type: 'token.revoked', payload: { id: 'i', user: 'ann' } },
  { type: 'build.uploaded', payload: { name: 'app', number: '7' } },
  { type: 'build.deleted', payload: { name: 'app', number: '7' } },
  { type: 'build.promoted', payload: { name: 'app', number: '7', status: 'released', targetRepo: 'libs', copy: true } },
  { type: 'release_bundle.created', payload: { name: 'web', version: '1.0', project: 'default', artifacts: 3 } },
  {
    type: 'release_bundle.signed',
    payload: { name: 'web', version: '1.0', project: 'default', signingKey: 'key', fingerprint: 'ABCD' },
  },
  { type: 'release_bundle.deleted', payload: { name: 'web', version: '1.0', project: 'default' } },
  {
    type: 'release_bundle.promoted',
    payload: { name: 'web', version: '1.0', project: 'default', environment: 'QA', repositories: ['qa-local'] },
  },
  {
    type: 'release_bundle.received',
    payload: { name: 'web', version: '1.0', project: 'default', from: 'https://arca.example', artifacts: 3 },
  },
  {
    type: 'release_bundle.removed',
    payload: { name: 'web', version: '1.0', project: 'default', from: 'https://arca.example' },
  },
  {
    type: 'distribution.changed',
    payload: {
      name: 'web',
      version: '1.0',
      project: 'default',
      status: 'failed',
      action: 'distribute',
      target: 'edge',
      message: 'down',
    },
  },
  {
    type: 'security.violation',
    repoKey: 'npm-local',
    path: 'left-parse/-/left-parse-1.0.0.tgz',
    payload: {
      watch: 'shipping',
      policy: 'no-critical',
      rule: 'critical',
      kind: 'security',
      issue: 'GHSA-0001',
      severity: 'Critical',
      summary: 'Remote code execution',
      cves: ['CVE-2026-4001'],
      fixedVersions: ['1.0.1'],
      packageType: 'npm',
      name: 'left-parse',
      version: '1.0.0',
      component: '',
      webhooks: ['violations'],
    },
  },
];

describe.each(ENGINES)('the outbox on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    for (const name of ['test', 'probe-webhooks', 'probe-replication'])
      await ensureConsumer(t.app.db, name, 'beginning');
  });
  afterEach(() => t.close());

  it('covers every event type, and each round-trips through the outbox unchanged', async () => {
    const types = (arcaEventSchema.options as { shape: { type: { value: string } } }[]).map((o) => o.shape.type.value);
    expect(SAMPLES.map((e) => e.type).sort()).toEqual([...types].sort());
    const before = Date.now();
    for (const event of SAMPLES) await recordChange(t.app.db, 'ann', { event: event });
    const claimed = await dueEvents(t.app.db, 'test', { limit: 100 });
    expect(
      claimed.map(({ type, payload, ...rest }) => ({
        type,
        payload,
        ...('repoKey' in rest ? { repoKey: rest.repoKey } : {}),
        ...('path' in rest ? { path: rest.path } : {}),
      })),
    ).toEqual(SAMPLES.map(({ type, payload, ...rest }) => ({ type, payload, ...rest })));
    expect(claimed.every((e) => e.actor === 'ann' && e.createdAt >= before)).toBe(true);
  });

  it('wakes a consumer that asks for it when this process records an event, long before its next poll', async () => {
    const taken = { woken: [] as string[], polling: [] as string[] };
    const hour = 3_600_000;
    const woken = new OutboxConsumer(t.app, 'woken', async (e) => void taken.woken.push(e.actor), {
      from: 'beginning',
      pollMs: hour,
      wakeOnRecord: true,
    });
    const polling = new OutboxConsumer(t.app, 'polling', async (e) => void taken.polling.push(e.actor), {
      from: 'beginning',
      pollMs: hour,
    });
    // what was recorded before they follow is taken by the first pass of each
    await recordChange(t.app.db, 'before', { event: SAMPLES[10]! });
    woken.start();
    polling.start();
    try {
      for (const name of ['woken', 'polling'])
        await expect
          .poll(async () => (await t.app.work.get(`outbox:${name}`, name))?.holder, { timeout: 10_000 })
          .toBe(t.app.nodeId);
      await expect.poll(() => [...taken.woken, ...taken.polling], { timeout: 10_000 }).toEqual(['before', 'before']);
      // and those first passes have ended (a drain joins a pass under way) before anything else is recorded
      await Promise.all([woken.drain(), polling.drain()]);
      await recordChange(t.app.db, 'wake-1', { event: SAMPLES[10]! });
      await expect.poll(() => taken.woken, { timeout: 10_000 }).toContain('wake-1');
      // a burst: every event is taken, each once
      for (let i = 0; i < 20; i++) await recordChange(t.app.db, `burst-${i}`, { event: SAMPLES[10]! });
      await expect.poll(() => taken.woken.filter((a) => a.startsWith('burst-')).length, { timeout: 10_000 }).toBe(20);
      expect(new Set(taken.woken).size).toBe(taken.woken.length);
      // the other consumer waits for its poll, an hour away
      expect(taken.polling).toEqual(['before']);
    } finally {
      await woken.stop();
      await polling.stop();
    }
  });

  it('reads what waits until it is delivered, each consumer on its own, and an event that committed late with a lower seq', async () => {
    await recordChange(t.app.db, 'x', { event: SAMPLES[10]! });
    const first = await dueEvents(t.app.db, 'probe-webhooks');
    expect(first).toHaveLength(1);
    // not delivered yet: read again
    expect(await dueEvents(t.app.db, 'probe-webhooks')).toEqual(first);
    // a transaction that started earlier commits now: its seq is lower than the delivered one
    await t.app.db
      .insertInto('events')
      .values({
        id: 'late-event',
        seq: first[0]!.seq - 5,
        type: 'user.deleted',
        repo_key: null,
        path: null,
        payload: JSON.stringify({ name: 'late' }),
        actor: 'x',
        created_at: Date.now(),
      })
      .execute();
    await markDelivered(
      t.app.db,
      'probe-webhooks',
      first.map((e) => e.id),
    );
    expect((await dueEvents(t.app.db, 'probe-webhooks')).map((e) => e.id)).toEqual(['late-event']);
    // another consumer has its own receipts
    expect((await dueEvents(t.app.db, 'probe-replication')).map((e) => e.id)).toEqual(['late-event', first[0]!.id]);
  });

  it('is followed by one node at a time; another node takes it over when that one stops following', async () => {
    const other = await startTestApp(engine, {
      ...(t.config.databaseUrl ? { ARCA_DATABASE_URL: t.config.databaseUrl } : { ARCA_DATA_DIR: t.dataDir }),
    });
    const taken = { here: [] as string[], there: [] as string[] };
    const here = new OutboxConsumer(t.app, 'followed', async (e) => void taken.here.push(e.actor), {
      from: 'beginning',
      pollMs: 50,
    });
    const there = new OutboxConsumer(other.app, 'followed', async (e) => void taken.there.push(e.actor), {
      from: 'beginning',
      pollMs: 50,
    });
    try {
      here.start();
      await expect
        .poll(async () => (await t.app.work.get('outbox:followed', 'followed'))?.holder, { timeout: 10_000 })
        .toBe(t.app.nodeId);
      there.start();
      for (let i = 0; i < 10; i++) await recordChange(t.app.db, `first-${i}`, { event: SAMPLES[10]! });
      await expect.poll(() => taken.here.length, { timeout: 10_000 }).toBe(10);
      expect(taken.there).toEqual([]);
      await here.stop();
      for (let i = 0; i < 5; i++) await recordChange(t.app.db, `second-${i}`, { event: SAMPLES[10]! });
      await expect.poll(() => taken.there.length, { timeout: 15_000 }).toBe(5);
      expect(taken.there.every((actor) => actor.startsWith('second-'))).toBe(true);
      expect(taken.here).toHaveLength(10);
      expect((await t.app.work.get('outbox:followed', 'followed'))?.holder).toBe(other.app.nodeId);
    } finally {
      await here.stop();
      await there.stop();
      await other.close();
    }
  });

  it('writes the audit entry and the event of an access change in its transaction, and neither when it fails', async () => {
    const json = { ...ADMIN_BASIC, ...XHR };
    const created = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/groups',
      headers: json,
      payload: { name: 'devs' },
    });
    expect(created.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/groups',
      headers: json,
      payload: { name: 'devs' },
    });
    expect(refused.statusCode).toBe(409);
    const events = await dueEvents(t.app.db, 'test');
    expect(events.map((e) => e.type)).toEqual(['group.created']);
    await markDelivered(
      t.app.db,
      'test',
      events.map((e) => e.id),
    );
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['category', 'action', 'target'])
      .where('category', '=', 'group')
      .execute();
    expect(audit).toEqual([{ category: 'group', action: 'create', target: 'devs' }]);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/a.txt', 'a');
    const more = await dueEvents(t.app.db, 'test');
    expect(more.map((e) => e.type)).toEqual(['repository.created', 'artifact.deployed']);
  });
});
