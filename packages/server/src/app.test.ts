import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.js';
import { ENGINES, startListeningApp, startTestApp, type TestApp } from './test/harness.js';

// the collector on demand, to tell a released app from one something still holds
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

describe.each(ENGINES)('an app on %s', (engine) => {
  it('is let go once closed: nothing it started (timers, listeners, metrics) holds it', async () => {
    let t: TestApp | undefined = await startListeningApp(engine, { ARCA_METRICS: 'true' });
    expect((await t.app.inject({ url: '/artifactory/api/system/ping' })).body).toBe('OK');
    // told by a finalizer, not a WeakRef: each deref() would keep the app alive until the job ends,
    // and a job that ends with a tick pending (a closed socket's) does not let it go
    let released = false;
    const finalizers = new FinalizationRegistry(() => {
      released = true;
    });
    finalizers.register(t.app, 'app');
    await t.close();
    t = undefined;
    await expect
      .poll(async () => {
        collectGarbage();
        await new Promise((resolve) => setImmediate(resolve));
        return released;
      })
      .toBe(true);
  });

  it('starts no loop once closed: listen hooks that run after a close leave nothing behind', async () => {
    // Fastify runs the listen hooks after listen() has answered; a quick close can come first
    const t = await startTestApp(engine);
    await t.close();
    t.services.ssh.startFollowing();
    t.app.work.every('late', 60_000, () => undefined);
    expect(t.app.work.loops()).toEqual([]);
  });

  it('closes without waiting for a running task, which it hands back to the queue for any node', async () => {
    const t = await startTestApp(engine);
    try {
      // a run that heeds no signal and would never end on its own (a job stuck on a slow peer)
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      t.app.work.define('stuck', {
        run: () => {
          started();
          return new Promise<never>(() => undefined);
        },
      });
      const { task } = await t.app.work.submit('stuck', {}, { key: 'stuck-1', runHere: true });
      await running;
      await t.app.close();
      const { db } = openDatabase(t.config);
      try {
        const row = await db.selectFrom('work_tasks').selectAll().where('id', '=', task.id).executeTakeFirstOrThrow();
        expect({ state: row.state, holder: row.holder }).toEqual({ state: 'queued', holder: '' });
      } finally {
        await db.destroy();
      }
    } finally {
      await t.close();
    }
  });
});
