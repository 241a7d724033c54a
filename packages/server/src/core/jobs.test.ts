import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, startTestApp, type TestApp } from '../test/harness.js';
import { JOB_LEASE_MS, claimJobRun, createJobRunner, releaseJob } from './jobs.js';

describe.each(ENGINES)('scheduled jobs across nodes on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(() => t.close());

  it('lets exactly one node run each scheduled run', async () => {
    const now = Date.parse('2026-11-23T10:17:00Z');
    const claims = await Promise.all(
      ['node-a', 'node-b', 'node-c'].map((node) => claimJobRun(t.app.db, 'gc', node, now)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    // the same slot is not run twice, even after the run is over
    const winner = ['node-a', 'node-b', 'node-c'][claims.indexOf(true)]!;
    await releaseJob(t.app.db, 'gc', winner);
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + 20_000)).toBe(false);
    // the next hour's run goes to whoever claims it first
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + 3_600_000)).toBe(true);
    // another job has its own runs
    expect(await claimJobRun(t.app.db, 'trash-retention', 'node-c', now)).toBe(true);
  });

  it('takes over the lease of a node that stopped renewing it (killed) once it has run out', async () => {
    const now = Date.parse('2026-11-23T10:17:00Z');
    expect(await claimJobRun(t.app.db, 'gc', 'node-a', now)).toBe(true);
    // node-a dies mid-run: its lease is not renewed; the next slots wait until it has run out
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + JOB_LEASE_MS - 1)).toBe(false);
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + JOB_LEASE_MS + 60_000)).toBe(true);
  });

  it('keeps the lease of a run longer than the lease, and writes its history', async () => {
    const runner = createJobRunner({
      db: t.app.db,
      log: t.app.log as never,
      nodeId: 'node-a',
      leaseMs: 1500,
      schedules: false,
    });
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    runner.register('long', '0 0 1 1 *', async () => {
      started();
      await running;
    });
    const run = runner.runNow('long');
    await hasStarted;
    const first = await t.app.db
      .selectFrom('job_leases')
      .selectAll()
      .where('name', '=', 'long')
      .executeTakeFirstOrThrow();
    // once the first lease has run out, the lease has been renewed: another node may not take the job over
    const lease = () =>
      t.app.db.selectFrom('job_leases').selectAll().where('name', '=', 'long').executeTakeFirstOrThrow();
    await expect
      .poll(async () => Date.now() > Number(first.lease_until) && Number((await lease()).lease_until) > Date.now())
      .toBe(true);
    const renewed = await lease();
    expect(Number(renewed.lease_until)).toBeGreaterThan(Number(first.lease_until));
    expect(renewed.holder).toBe('node-a');
    await t.app.db.updateTable('job_leases').set({ last_slot: 0 }).where('name', '=', 'long').execute();
    expect(await claimJobRun(t.app.db, 'long', 'node-b', Date.now(), 1500)).toBe(false);
    const during = await t.app.db.selectFrom('job_runs').selectAll().where('job', '=', 'long').execute();
    expect(during).toEqual([expect.objectContaining({ node: 'node-a', outcome: 'running', ended_at: null })]);
    finish();
    expect(await run).toBe(true);
    const after = await t.app.db.selectFrom('job_runs').selectAll().where('job', '=', 'long').executeTakeFirstOrThrow();
    expect(after.outcome).toBe('success');
    expect(Number(after.ended_at)).toBeGreaterThanOrEqual(Number(after.started_at));
    await runner.stop();
  });

  it('ends the runs under way before the server closes, even one that does not heed its signal', async () => {
    const runner = createJobRunner({ db: t.app.db, log: t.app.log as never, nodeId: 'node-a', schedules: false });
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    runner.register('stubborn', '0 0 1 1 *', async () => {
      started();
      await new Promise(() => undefined);
    });
    const run = runner.runNow('stubborn');
    await hasStarted;
    await runner.stop();
    // stop resolved only after the run had written its end and given its lease back
    const history = await t.app.db.selectFrom('job_runs').selectAll().where('job', '=', 'stubborn').execute();
    expect(history).toEqual([expect.objectContaining({ outcome: 'failure', message: 'the server is stopping' })]);
    expect(Number(history[0]!.ended_at)).toBeGreaterThan(0);
    const lease = await t.app.db.selectFrom('job_leases').selectAll().where('name', '=', 'stubborn').executeTakeFirst();
    expect(Number(lease!.lease_until)).toBe(0);
    expect(await run).toBe(true);
    // a stopped runner starts nothing more
    expect(await runner.runNow('stubborn')).toBe(false);
  });

  it('records failures and runs that time out, and lists the schedules registered and removed at run time', async () => {
    const runner = createJobRunner({ db: t.app.db, log: t.app.log as never, nodeId: 'node-a', schedules: true });
    runner.register('broken', '0 0 1 1 *', async () => {
      throw new Error('the disk is full');
    });
    let aborted = false;
    runner.register(
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
    expect(await runner.runNow('broken')).toBe(true);
    expect(await runner.runNow('stuck')).toBe(true);
    expect(aborted).toBe(true);
    const runs = await t.app.db.selectFrom('job_runs').select(['job', 'outcome', 'message']).orderBy('job').execute();
    expect(runs.filter((r) => r.job === 'broken' || r.job === 'stuck')).toEqual([
      { job: 'broken', outcome: 'failure', message: 'the disk is full' },
      { job: 'stuck', outcome: 'timeout', message: expect.stringContaining('200 ms') },
    ]);
    // a policy's schedule comes and goes at run time
    runner.register('retention-policy-7', '15 2 * * *', async () => undefined);
    expect(runner.list()).toContainEqual(expect.objectContaining({ name: 'retention-policy-7', cron: '15 2 * * *' }));
    expect(runner.list().find((j) => j.name === 'retention-policy-7')!.nextRun).toBeGreaterThan(Date.now());
    expect(runner.unregister('retention-policy-7')).toBe(true);
    expect(runner.list().map((j) => j.name)).not.toContain('retention-policy-7');
    await expect(runner.runNow('retention-policy-7')).rejects.toThrow(/no job/);
    await runner.stop();
  });

  it('shows administrators the schedules and the run history', async () => {
    await t.app.jobs.runNow('sign-in-cleanup');
    const answer = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/jobs', headers: ADMIN_BASIC });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.jobs).toContainEqual(expect.objectContaining({ name: 'trash-retention', cron: '17 * * * *' }));
    expect(body.runs[0]).toMatchObject({ job: 'sign-in-cleanup', node: t.app.nodeId, outcome: 'success' });
    const user = await t.app.inject({ method: 'GET', url: '/ui/api/v1/system/jobs' });
    expect(user.statusCode).toBe(401);
  });
});
