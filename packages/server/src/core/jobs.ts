import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';

/** How long a node may take over one run before another may take the job over. */
const LEASE_MS = 30 * 60_000;

/**
 * Claims one run of a job for this node: a run is one minute slot of its schedule, and only the
 * first node to claim a slot (with no other holder's lease still running) runs it.
 */
export async function claimJobRun(db: Db, name: string, holder: string, now = Date.now()): Promise<boolean> {
  const slot = Math.floor(now / 60_000);
  await db
    .insertInto('job_leases')
    .values({ name, holder: '', lease_until: 0, last_slot: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const claimed = await db
    .updateTable('job_leases')
    .set({ holder, lease_until: now + LEASE_MS, last_slot: slot })
    .where('name', '=', name)
    .where('last_slot', '<', slot)
    .where((eb) => eb.or([eb('lease_until', '<', now), eb('holder', '=', holder)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Ends this node's lease on a job once its run is over. */
export async function releaseJob(db: Db, name: string, holder: string): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ lease_until: 0 })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

/** Scheduled jobs of this node; the features that own them register them. */
export interface JobRunner {
  /**
   * Runs `run` on `cron` (croner syntax); with several nodes on one database, exactly one of
   * them runs each scheduled run. A failure is logged, never thrown.
   */
  register(name: string, cron: string, run: () => Promise<void>): void;
  /** Runs a registered job now (on this node, under the same lease), for operators and tests. */
  runNow(name: string): Promise<boolean>;
  stop(): void;
}

export function createJobRunner(options: { db: Db; log: Logger; nodeId: string }): JobRunner {
  const { db, log, nodeId } = options;
  const jobs = new Map<string, { cron: Cron; run: () => Promise<void> }>();
  const runOnce = async (name: string, run: () => Promise<void>): Promise<boolean> => {
    if (!(await claimJobRun(db, name, nodeId))) return false;
    try {
      await run();
    } catch (error) {
      log.error({ err: error, job: name }, 'a scheduled job failed');
    } finally {
      await releaseJob(db, name, nodeId).catch(() => undefined);
    }
    return true;
  };
  return {
    register(name, cron, run) {
      if (jobs.has(name)) throw new Error(`the job '${name}' is registered twice`);
      const job = new Cron(cron, { protect: true, unref: true }, () => {
        void runOnce(name, run).catch((error: unknown) =>
          log.error({ err: error, job: name }, 'claiming a job failed'),
        );
      });
      jobs.set(name, { cron: job, run });
    },
    async runNow(name) {
      const job = jobs.get(name);
      if (!job) throw new Error(`no job '${name}'`);
      return runOnce(name, job.run);
    },
    stop() {
      for (const { cron } of jobs.values()) cron.stop();
    },
  };
}
