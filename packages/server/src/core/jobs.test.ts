import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../test/harness.js';
import { claimJobRun, releaseJob } from './jobs.js';

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

  it('does not start a run while another node still holds the lease of a longer one', async () => {
    const now = Date.parse('2026-11-23T10:17:00Z');
    expect(await claimJobRun(t.app.db, 'gc', 'node-a', now)).toBe(true);
    // node-a is still running an hour later; its lease lasts 30 minutes
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + 10 * 60_000)).toBe(false);
    expect(await claimJobRun(t.app.db, 'gc', 'node-b', now + 31 * 60_000)).toBe(true);
  });
});
