import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../test/harness.js';
import { TaskLost, backoffDelay, createWork, pruneWork, type TaskRun, type Work } from './work.js';

const quiet = pino({ level: 'silent' });

/** A gate a task waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * The durable-work kernel on both databases, with two kernels on one database standing for two
 * nodes: claims, leases, take-over where the progress says, serial order, backoff, stop.
 */
describe.each(ENGINES)('the durable-work kernel on %s', (engine) => {
  let t: TestApp;
  const kernels: Work[] = [];
  /** A node's kernel: it polls only when the test says so. */
  const node = (holder: string, leaseMs = 60_000) => {
    const work = createWork({ db: t.app.db, log: quiet, holder, polls: false, leaseMs });
    kernels.push(work);
    return work;
  };
  beforeAll(async () => {
    // the app's own node looks for due work only when asked (its kinds are not the test's, but it is quieter)
    t = await startTestApp(engine, { ARCA_WORK_POLL_MS: '3600000' });
  });
  afterAll(async () => {
    await Promise.all(kernels.map((k) => k.stop()));
    await t.close();
  });
  const row = (id: string) =>
    t.app.db.selectFrom('work_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('runs a submitted task once, keeps its result and history, and answers the unfinished task for its key', async () => {
    const a = node('a');
    let runs = 0;
    const release = gate();
    a.define<{ n: number }, never, { doubled: number }>('echo', {
      run: async (task) => {
        runs += 1;
        await release.opened;
        return { doubled: task.payload.n * 2 };
      },
    });
    const first = await a.submit('echo', { n: 21 }, { key: 'k1' });
    expect(first.created).toBe(true);
    expect(await a.poll()).toBe(1);
    expect((await a.get('echo', 'k1'))?.state).toBe('running');
    // the same key while it is unfinished: the same task, not a second one
    const again = await a.submit('echo', { n: 99 }, { key: 'k1' });
    expect(again).toMatchObject({ created: false, task: { id: first.task.id, payload: { n: 21 } } });
    release.open();
    await a.idle();
    expect(await a.get('echo', 'k1')).toMatchObject({ state: 'done', result: { doubled: 42 }, attempts: 1 });
    expect((await a.history(first.task.id)).map((h) => [h.node, h.event])).toEqual([
      ['a', 'started'],
      ['a', 'done'],
    ]);
    // a finished task's key is free again: the task is replaced, its history with it
    const replaced = await a.submit('echo', { n: 5 }, { key: 'k1', runHere: true });
    await replaced.done;
    expect(replaced.created).toBe(true);
    expect(await a.get('echo', 'k1')).toMatchObject({ state: 'done', result: { doubled: 10 } });
    expect(await a.history(first.task.id)).toEqual([]);
    expect(runs).toBe(2);
  });

  it('takes over the task of a node that died where its progress says, and leaves a live holder its task', async () => {
    const counted: number[] = [];
    const run = (work: Work) =>
      work.define<{ to: number }, { at: number }, { counted: number }>('count', {
        run: async (task: TaskRun<{ to: number }, { at: number }>) => {
          for (let at = task.progress?.at ?? 0; at < task.payload.to; at++) {
            await t.app.db.transaction().execute(async (trx) => {
              await task.hold({ at: at + 1 }, trx);
            });
            counted.push(at);
          }
          return { counted: task.payload.to };
        },
      });
    const dead = node('dead-node', 100);
    const live = node('live-node');
    run(dead);
    run(live);
    const { task } = await dead.submit('count', { to: 5 }, { key: 'c' });
    // the node that dies had claimed it and committed progress 3 before it stopped renewing
    await t.app.db
      .updateTable('work_tasks')
      .set({
        state: 'running',
        holder: 'dead-node',
        lease_until: Date.now() + 60_000,
        attempts: 1,
        progress: '{"at":3}',
      })
      .where('id', '=', task.id)
      .execute();
    expect(await live.poll()).toBe(0);
    expect((await live.get('count', 'c'))?.holder).toBe('dead-node');
    await t.app.db
      .updateTable('work_tasks')
      .set({ lease_until: Date.now() - 1 })
      .where('id', '=', task.id)
      .execute();
    expect((await live.get('count', 'c'))?.state).toBe('queued');
    expect(await live.poll()).toBe(1);
    await live.idle();
    expect(counted).toEqual([3, 4]);
    expect(await live.get('count', 'c')).toMatchObject({ state: 'done', attempts: 2, progress: { at: 5 } });
    expect((await live.history(task.id)).map((h) => [h.node, h.event])).toEqual([
      ['live-node', 'taken-over'],
      ['live-node', 'done'],
    ]);
  });

  it('rolls back the work of a holder whose task another node took over, which then stops', async () => {
    const a = node('slow-a');
    const b = node('slow-b');
    const paused = gate();
    const resumed = gate();
    let writesOfA = 0;
    const markId = randomUUID();
    a.define<null, { step: number }, null>('fenced', {
      run: async (task) => {
        paused.open();
        await resumed.opened;
        await t.app.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('work_history')
            .values({ id: markId, task_id: 'x', at: 0, node: 'x', event: 'x', message: null })
            .execute();
          writesOfA += 1;
          await task.hold({ step: 1 }, trx);
        });
        return null;
      },
    });
    b.define<null, { step: number }, null>('fenced', { run: async () => null });
    const { task, done } = await a.submit('fenced', null, { key: 'f', runHere: true });
    await paused.opened;
    // A's lease runs out while it is paused (a long stall), and B takes the task over and ends it
    await t.app.db
      .updateTable('work_tasks')
      .set({ lease_until: Date.now() - 1 })
      .where('id', '=', task.id)
      .execute();
    expect(await b.poll()).toBe(1);
    await b.idle();
    resumed.open();
    await done;
    expect(writesOfA).toBe(1);
    // A's write in the transaction that found the task gone was rolled back
    expect(await t.app.db.selectFrom('work_history').select('id').where('id', '=', markId).execute()).toEqual([]);
    expect(await b.get('fenced', 'f')).toMatchObject({ state: 'done', attempts: 2 });
    expect(await row(task.id)).toMatchObject({ holder: 'slow-b' });
  });

  it('runs tasks of one serial key one at a time, in the order they came', async () => {
    const a = node('serial-a');
    const order: string[] = [];
    const gates = new Map([
      ['s1', gate()],
      ['s2', gate()],
      ['s3', gate()],
    ]);
    a.define<{ name: string }, never, null>('ordered', {
      run: async (task) => {
        order.push(`start ${task.payload.name}`);
        await gates.get(task.payload.name)!.opened;
        order.push(`end ${task.payload.name}`);
        return null;
      },
    });
    a.define<{ name: string }, never, null>('free', { run: async () => null });
    for (const name of ['s1', 's2', 's3']) await a.submit('ordered', { name }, { serialKey: 'handler-1' });
    const other = await a.submit('free', { name: 'other' }, { serialKey: 'handler-2' });
    expect(await a.poll()).toBe(2); // s1 and the other key's task
    expect(await a.poll()).toBe(0); // s2 waits for s1
    gates.get('s2')!.open();
    gates.get('s1')!.open();
    await a.idle();
    expect(await a.poll()).toBe(1);
    await a.idle();
    gates.get('s3')!.open();
    expect(await a.poll()).toBe(1);
    await a.idle();
    expect(order).toEqual(['start s1', 'end s1', 'start s2', 'end s2', 'start s3', 'end s3']);
    expect((await a.get('free', other.task.key))?.state).toBe('done');
  });

  it('tries a failing task again after a backoff, then records it failed with its reason', async () => {
    const a = node('retry-a');
    let attempts = 0;
    a.define<null, never, null>('flaky', {
      maxAttempts: 3,
      backoffMs: 60_000,
      run: async () => {
        attempts += 1;
        throw new Error(`upstream answered 503 (attempt ${attempts})`);
      },
    });
    const { task } = await a.submit('flaky', null, { key: 'r' });
    expect(await a.poll()).toBe(1);
    await a.idle();
    const waiting = await row(task.id);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, message: 'upstream answered 503 (attempt 1)' });
    // doubling from the first wait, with a quarter of jitter either way
    expect(Number(waiting.run_after) - Date.now()).toBeGreaterThan(40_000);
    expect(Number(waiting.run_after) - Date.now()).toBeLessThanOrEqual(75_000);
    expect(await a.poll()).toBe(0);
    for (let i = 0; i < 2; i++) {
      await t.app.db.updateTable('work_tasks').set({ run_after: 0 }).where('id', '=', task.id).execute();
      expect(await a.poll()).toBe(1);
      await a.idle();
    }
    expect(await a.get('flaky', 'r')).toMatchObject({
      state: 'failed',
      attempts: 3,
      message: 'upstream answered 503 (attempt 3)',
    });
    expect((await a.history(task.id)).map((h) => h.event)).toEqual([
      'started',
      'retry',
      'started',
      'retry',
      'started',
      'failed',
    ]);
  });

  it('stops a queued task at once and a running one through its signal, on request', async () => {
    const a = node('stop-a');
    let sawAbort = false;
    a.define<null, never, null>('long', {
      run: (task) =>
        new Promise((_, reject) => {
          const heard = () => {
            sawAbort = true;
            reject(task.signal.reason as Error);
          };
          // the stop may come before the run has begun
          if (task.signal.aborted) heard();
          else task.signal.addEventListener('abort', heard);
        }),
    });
    const queued = await a.submit('long', null, { key: 'queued', runAfter: Date.now() + 60_000 });
    expect(await a.requestStop(queued.task.id)).toBe(true);
    expect(await a.get('long', 'queued')).toMatchObject({ state: 'stopped', message: 'stopped on request' });
    const running = await a.submit('long', null, { key: 'running', runHere: true });
    expect(await a.requestStop(running.task.id)).toBe(true);
    await running.done;
    expect(sawAbort).toBe(true);
    expect(await a.get('long', 'running')).toMatchObject({ state: 'stopped' });
    expect(await a.requestStop(running.task.id)).toBe(false);
  });

  it('hands its running tasks back when its node stops, for any node to go on with', async () => {
    const a = node('stopping-a');
    const b = node('stopping-b');
    const started = gate();
    const define = (work: Work) =>
      work.define<null, { half: boolean }, string>('handed', {
        run: async (task) => {
          if (task.progress?.half) return 'finished by the next node';
          await task.hold({ half: true });
          started.open();
          await new Promise((_, reject) =>
            task.signal.addEventListener('abort', () => reject(task.signal.reason as Error)),
          );
          return 'never';
        },
      });
    define(a);
    define(b);
    const { task } = await a.submit('handed', null, { key: 'h', runHere: true });
    await started.opened;
    await a.stop();
    expect(await row(task.id)).toMatchObject({ state: 'queued', lease_until: 0 });
    expect(await b.poll()).toBe(1);
    await b.idle();
    expect(await b.get('handed', 'h')).toMatchObject({ state: 'done', result: 'finished by the next node' });
    expect((await b.history(task.id)).map((h) => h.event)).toEqual(['started', 'handed-back', 'started', 'done']);
  });

  it('takes up at once what its process slot held before a restart, when its name is its own across restarts', async () => {
    const before = node('slot-7');
    let runs = 0;
    before.define<null, never, null>('resumed', {
      run: async () => {
        runs += 1;
        return null;
      },
    });
    const { task } = await before.submit('resumed', null, { key: 'r' });
    // claimed by the slot's previous life, its lease still running when the process died
    await t.app.db
      .updateTable('work_tasks')
      .set({ state: 'running', holder: 'slot-7', lease_until: Date.now() + 60_000, attempts: 1 })
      .where('id', '=', task.id)
      .execute();
    const other = createWork({ db: t.app.db, log: quiet, holder: 'slot-8', polls: false, reclaimOwn: true });
    kernels.push(other);
    other.define<null, never, null>('resumed', { run: async () => null });
    expect(await other.poll()).toBe(0);
    const after = createWork({ db: t.app.db, log: quiet, holder: 'slot-7', polls: false, reclaimOwn: true });
    kernels.push(after);
    after.define<null, never, null>('resumed', {
      run: async () => {
        runs += 1;
        return null;
      },
    });
    expect(await after.poll()).toBe(1);
    await after.idle();
    expect(runs).toBe(1);
    expect(await after.get('resumed', 'r')).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('runs a task again when it asks, and once more when submitted to while it runs; a resident one is not waited for', async () => {
    const a = node('again-a');
    const seen: number[] = [];
    const inside = gate();
    const release = gate();
    a.define<null, never, void>('queue', {
      run: async (task) => {
        seen.push(seen.length);
        if (seen.length === 1) {
          inside.open();
          await release.opened;
        }
        // the second run waits for something due in an hour
        if (seen.length === 2) task.again(Date.now() + 3_600_000);
      },
    });
    const first = await a.submit('queue', null, { key: 'q', coalesce: true });
    await a.poll();
    await inside.opened;
    // submitted to while it runs: not lost in the run under way
    expect((await a.submit('queue', null, { key: 'q', coalesce: true })).created).toBe(false);
    release.open();
    await a.idle();
    expect(await row(first.task.id)).toMatchObject({ state: 'queued', rerun: 0, attempts: 0 });
    await a.poll();
    await a.idle();
    // the second run asked for one more in an hour: queued until then, nothing due now
    const waiting = await row(first.task.id);
    expect(waiting.state).toBe('queued');
    expect(Number(waiting.run_after)).toBeGreaterThan(Date.now() + 3_500_000);
    expect(await a.poll()).toBe(0);
    // a submission that asks for now brings it forward
    await a.submit('queue', null, { key: 'q', coalesce: true });
    expect(Number((await row(first.task.id)).run_after)).toBeLessThanOrEqual(Date.now());
    await a.poll();
    await a.idle();
    expect(seen).toEqual([0, 1, 2]);
    expect(await a.get('queue', 'q')).toMatchObject({ state: 'done' });
    expect((await a.history(first.task.id)).map((h) => h.event)).toEqual([
      'started',
      'waits',
      'started',
      'waits',
      'started',
      'done',
    ]);

    // a resident task runs until its node stops: idle() answers while it runs
    const b = node('again-b');
    const followed = gate();
    b.define<null, never, void>('resident', {
      resident: true,
      run: (task) =>
        new Promise<void>((resolve) => {
          followed.open();
          task.signal.addEventListener('abort', () => resolve());
        }),
    });
    await b.submit('resident', null, { key: 'r' });
    await b.poll();
    await followed.opened;
    await b.idle();
    expect((await b.get('resident', 'r'))?.state).toBe('running');
    // a kind this process no longer takes is left to the others
    b.undefine('resident');
    await b.stop();
    expect((await b.get('resident', 'r'))?.state).toBe('queued');
    expect(await b.poll()).toBe(0);
  });

  it('forgets finished tasks and their history past a week, never an unfinished one', async () => {
    const a = node('prune-a');
    a.define<null, never, null>('old', { run: async () => null });
    const finished = await a.submit('old', null, { key: 'finished', runHere: true });
    await finished.done;
    const waiting = await a.submit('old', null, { key: 'waiting', runAfter: Date.now() + 60_000 });
    const weekAgo = Date.now() - 8 * 86_400_000;
    await t.app.db
      .updateTable('work_tasks')
      .set({ updated_at: weekAgo })
      .where('id', 'in', [finished.task.id, waiting.task.id])
      .execute();
    expect(await pruneWork(t.app.db)).toBe(1);
    expect(await a.get('old', 'finished')).toBeUndefined();
    expect(await a.history(finished.task.id)).toEqual([]);
    expect(await a.get('old', 'waiting')).toMatchObject({ state: 'queued' });
  });
});

describe('process loops', () => {
  it('lists the loops of a process, and ends one only once its run under way has finished', async () => {
    const work = createWork({ db: undefined as never, log: quiet, holder: 'loops', polls: false });
    let runs = 0;
    let inRun = false;
    let release!: () => void;
    work.every('beat', 10, async () => {
      runs += 1;
      if (runs === 2) {
        inRun = true;
        await new Promise<void>((resolve) => (release = resolve));
        inRun = false;
      }
    });
    work.every('prune', 86_400_000, () => undefined);
    expect(work.loops()).toEqual([
      { name: 'beat', everyMs: 10 },
      { name: 'prune', everyMs: 86_400_000 },
    ]);
    await expect.poll(() => inRun).toBe(true);
    const ended = work.endLoop('beat');
    let settled = false;
    void ended.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await ended;
    expect(runs).toBe(2);
    expect(work.loops().map((l) => l.name)).toEqual(['prune']);
    await work.stop();
    expect(work.loops()).toEqual([]);
  });
});

describe('backoff', () => {
  it('doubles from the first wait up to its cap, a quarter either way', () => {
    expect(backoffDelay(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(backoffDelay(3, 1000, 60_000, () => 0.5)).toBe(4000);
    expect(backoffDelay(20, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(backoffDelay(1, 1000, 60_000, () => 0)).toBe(750);
    expect(backoffDelay(1, 1000, 60_000, () => 1)).toBe(1250);
  });
  it('names the task a holder lost', () => {
    expect(new TaskLost('t1').message).toBe('the task t1 is no longer held by this node');
  });
});
