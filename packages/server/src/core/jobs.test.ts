import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, startTestApp, type TestApp } from '../test/harness.js';
import { JOB_TASK, createJobRunner, latestRun, type JobRunner } from './jobs.js';
import { createWork, type Work } from './work.js';
import { plantTask } from '../test/work.js';

const quiet = pino({ level: 'silent' });

/**
 * Scheduled jobs run as tasks of the durable-work kernel: one node per scheduled minute, a run held
 * under a lease its node renews, taken over when that node dies; two runners on one database stand
 * for two nodes.
 */
describe.each(ENGINES)('scheduled jobs across nodes on %s', (engine) => {
  let t: TestApp;
  const nodes: { work: Work; jobs: JobRunner }[] = [];
  /** A node: its kernel polls only when the test says so, its runner has no timers. */
  const node = (holder: string, leaseMs = 60_000) => {
    const work = createWork({ db: t.app.db, log: quiet, holder, polls: false, leaseMs });
    const jobs = createJobRunner({ work, log: quiet, schedules: false });
    nodes.push({ work, jobs });
    return { work, jobs };
  };
  beforeAll(async () => {
    // the app's own node looks for due work only when asked: the test's nodes are the ones that take runs over
    t = await startTestApp(engine, { ARCA_WORK_POLL_MS: '3600000' });
  });
  afterAll(async () => {
    for (const { work, jobs } of nodes) {
      jobs.stop();
      await work.stop();
    }
    await t.close();
  });

  it('lets exactly one node run each scheduled run', async () => {
    const a = node('one-a');
    const b = node('one-b');
    const c = node('one-c');
    let runs = 0;
    for (const { jobs } of [a, b, c]) jobs.register('gc-one', '0 * * * *', async () => void (runs += 1));
    const at = Date.parse('2026-11-23T10:00:00Z');
    const ran = await Promise.all([a, b, c].map(({ jobs }) => jobs.runScheduled('gc-one', at)));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    // the same minute is not run twice, even after its run is over
    expect(await b.jobs.runScheduled('gc-one', at + 20_000)).toBe(false);
    // the next hour's run goes to whoever takes it first
    expect(await b.jobs.runScheduled('gc-one', at + 3_600_000)).toBe(true);
    expect(runs).toBe(2);
    expect((await latestRun(a.work, 'gc-one'))?.node).toBe('one-b');
  });

  it('runs again on another node the run of a node that died, once its lease has run out', async () => {
    const b = node('dead-b');
    let runs = 0;
    b.jobs.register('gc-dead', '0 * * * *', async () => void (runs += 1));
    // a run another node claimed: it stops renewing its lease when it dies
    const id = await plantTask(t.app.db, {
      kind: JOB_TASK,
      task_key: 'gc-dead@1',
      serial_key: 'job:gc-dead',
      payload: { name: 'gc-dead' },
      holder: 'node-gone',
      lease_until: Date.now() + 60_000,
    });
    // while its lease lasts, no other run of the job starts and nobody takes it
    expect(await b.jobs.runScheduled('gc-dead', Date.now() + 60_000)).toBe(false);
    expect(await b.work.poll()).toBe(0);
    expect(await latestRun(b.work, 'gc-dead')).toMatchObject({ outcome: 'running', node: 'node-gone' });
    await t.app.db
      .updateTable('work_tasks')
      .set({ lease_until: Date.now() - 1 })
      .where('id', '=', id)
      .execute();
    expect(await b.work.poll()).toBe(1);
    await b.work.idle();
    expect(runs).toBe(1);
    expect(await latestRun(b.work, 'gc-dead')).toMatchObject({ outcome: 'success', node: 'dead-b' });
  });

  it('keeps the lease of a run longer than the lease, with its progress for every node to read', async () => {
    const a = node('long-a', 1500);
    const b = node('long-b', 1500);
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    a.jobs.register('long', '0 0 1 1 *', async ({ progress }) => {
      await progress({ step: 'copying', done: 3, total: 10 });
      started();
      await running;
    });
    b.jobs.register('long', '0 0 1 1 *', async () => undefined);
    const run = a.jobs.runNow('long');
    await hasStarted;
    const lease = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('work_tasks')
            .select('lease_until')
            .where('serial_key', '=', 'job:long')
            .executeTakeFirstOrThrow()
        ).lease_until,
      );
    const first = await lease();
    // once the first lease has run out, it has been renewed: the other node may not take the run over
    await expect.poll(async () => Date.now() > first && (await lease()) > Date.now()).toBe(true);
    expect(await b.work.poll()).toBe(0);
    expect(await b.jobs.runNow('long')).toBe(false);
    expect(await latestRun(b.work, 'long')).toMatchObject({
      node: 'long-a',
      outcome: 'running',
      endedAt: null,
      progress: { step: 'copying', done: 3, total: 10 },
    });
    finish();
    expect(await run).toBe(true);
    const after = (await latestRun(b.work, 'long'))!;
    expect(after).toMatchObject({ outcome: 'success', progress: null });
    expect(after.endedAt).toBeGreaterThanOrEqual(after.startedAt);
  });

  it('hands a run back when its node stops, even one that does not heed its signal, and starts nothing after', async () => {
    const a = node('stop-a');
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    a.jobs.register('stubborn', '0 0 1 1 *', async () => {
      started();
      await new Promise(() => undefined);
    });
    const run = a.jobs.runNow('stubborn');
    await hasStarted;
    a.jobs.stop();
    await a.work.stop();
    // stop resolved once the run was handed back: another node takes it up at once
    const task = await t.app.db
      .selectFrom('work_tasks')
      .selectAll()
      .where('serial_key', '=', 'job:stubborn')
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ state: 'queued', holder: '' });
    expect(Number(task.lease_until)).toBe(0);
    expect(await run).toBe(true);
    expect(await a.jobs.runNow('stubborn')).toBe(false);
  });

  it('records failures and runs that time out, and lists the schedules registered and removed at run time', async () => {
    const { jobs } = node('fail-a');
    jobs.register('broken', '0 0 1 1 *', async () => {
      throw new Error('the disk is full');
    });
    let aborted = false;
    jobs.register(
      'stuck',
      '0 0 1 1 *',
      ({ signal }) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
      { timeoutMs: 200 },
    );
    expect(await jobs.runNow('broken')).toBe(true);
    expect(await jobs.runNow('stuck')).toBe(true);
    expect(aborted).toBe(true);
    const runs = await jobs.runs({ limit: 100 });
    expect(
      runs.filter((r) => r.job === 'broken' || r.job === 'stuck').map((r) => [r.job, r.outcome, r.message]),
    ).toEqual([
      ['stuck', 'timeout', expect.stringContaining('200 ms')],
      ['broken', 'failure', 'the disk is full'],
    ]);
    // a policy's schedule comes and goes at run time
    jobs.register('retention-policy-7', '15 2 * * *', async () => undefined);
    expect(jobs.list()).toContainEqual(expect.objectContaining({ name: 'retention-policy-7', cron: '15 2 * * *' }));
    expect(jobs.unregister('retention-policy-7')).toBe(true);
    expect(jobs.list().map((j) => j.name)).not.toContain('retention-policy-7');
    await expect(jobs.runNow('retention-policy-7')).rejects.toThrow(/no job/);
  });

  it('shows administrators the schedules and the run history', async () => {
    await t.app.jobs.runNow('sign-in-cleanup');
    const answer = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/jobs', headers: ADMIN_BASIC });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.jobs).toContainEqual(expect.objectContaining({ name: 'trash-retention', cron: '17 * * * *' }));
    expect(body.jobs.find((j: { name: string }) => j.name === 'trash-retention').nextRun).toBeGreaterThan(Date.now());
    expect(body.runs[0]).toMatchObject({ job: 'sign-in-cleanup', node: t.app.nodeId, outcome: 'success' });
    const user = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/jobs' });
    expect(user.statusCode).toBe(401);
  });
});
