import { Cron } from 'croner';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../db/database.js';

/** How long a claim on a job lasts unless its holder renews it (a run renews it while it lasts). */
export const JOB_LEASE_MS = 60_000;
/** The longest a run may take unless its job says otherwise: it is then abandoned (outcome `timeout`). */
export const DEFAULT_JOB_TIMEOUT_MS = 6 * 60 * 60_000;
/** Runs kept in the history, by age. */
const HISTORY_DAYS = 30;

/**
 * Claims one run of a job for this node: a run is one minute slot of its schedule, and only the
 * first node to claim a slot (with no other holder's lease still running) runs it. A holder that
 * died leaves a lease that runs out; the next slot is then claimed by another node.
 */
export async function claimJobRun(
  db: Db,
  name: string,
  holder: string,
  now = Date.now(),
  leaseMs = JOB_LEASE_MS,
  /** A run asked for by an operator: any slot, its own included, as long as no run is under way. */
  asked = false,
): Promise<boolean> {
  const slot = Math.floor(now / 60_000);
  await db
    .insertInto('job_leases')
    .values({ name, holder: '', lease_until: 0, last_slot: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const claimed = await db
    .updateTable('job_leases')
    .set({ holder, lease_until: now + leaseMs, last_slot: slot })
    .where('name', '=', name)
    .where((eb) =>
      asked
        ? eb('lease_until', '<', now)
        : eb.and([eb('last_slot', '<', slot), eb.or([eb('lease_until', '<', now), eb('holder', '=', holder)])]),
    )
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Extends this node's lease on a job while its run goes on; false when the lease is no longer this node's. */
export async function renewJobLease(
  db: Db,
  name: string,
  holder: string,
  now = Date.now(),
  leaseMs = JOB_LEASE_MS,
): Promise<boolean> {
  const renewed = await db
    .updateTable('job_leases')
    .set({ lease_until: now + leaseMs })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .where('lease_until', '>=', now)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
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

/** What a run gets: a signal that aborts when the run times out or the server stops. */
export interface JobContext {
  signal: AbortSignal;
}

export interface JobOptions {
  /** The longest a run may take (default six hours): it is then abandoned and recorded as timed out. */
  timeoutMs?: number;
}

/** A scheduled job as administrators see it. */
export interface ScheduledJob {
  name: string;
  cron: string;
  nextRun: number | null;
}

/** Scheduled jobs of this node; the features that own them register them, at start or at run time. */
export interface JobRunner {
  /**
   * Runs `run` on `cron` (croner syntax); with several nodes on one database, exactly one of
   * them runs each scheduled run, under a lease renewed while it lasts. A failure is logged and
   * recorded in the run history, never thrown.
   */
  register(name: string, cron: string, run: (context: JobContext) => Promise<void>, options?: JobOptions): void;
  /** Removes a schedule (a retention or replication policy deleted); a run under way finishes. */
  unregister(name: string): boolean;
  /**
   * Runs a registered job now (on this node, under the same lease), for operators and tests:
   * whenever no run of it is under way, even in a minute that already had one.
   */
  runNow(name: string): Promise<boolean>;
  /** The registered schedules, with their next run. */
  list(): ScheduledJob[];
  /**
   * Stops the schedules and tells the runs under way to stop; resolves once each has ended and
   * written its outcome (the database and the logs are closed only after).
   */
  stop(): Promise<void>;
}

/** Writes the start of a run to the history; answers its id. */
async function startRun(db: Db, job: string, node: string, now: number): Promise<string> {
  const id = uuidv7();
  await db
    .insertInto('job_runs')
    .values({ id, job, node, started_at: now, ended_at: null, outcome: 'running', message: null })
    .execute();
  return id;
}

async function endRun(db: Db, id: string, outcome: 'success' | 'failure' | 'timeout', message: string | null) {
  await db
    .updateTable('job_runs')
    .set({ ended_at: Date.now(), outcome, message: message?.slice(0, 2000) ?? null })
    .where('id', '=', id)
    .execute();
}

/** A job's newest run, whichever node ran it; `running` only while its holder's lease lasts (a dead node's run is not). */
export async function latestRun(
  db: Db,
  job: string,
  now = Date.now(),
): Promise<
  | { node: string; startedAt: number; outcome: 'running' | 'success' | 'failure' | 'timeout'; message: string | null }
  | undefined
> {
  const run = await db
    .selectFrom('job_runs')
    .select(['node', 'started_at', 'outcome', 'message'])
    .where('job', '=', job)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!run) return undefined;
  const outcome = run.outcome as 'running' | 'success' | 'failure' | 'timeout';
  if (outcome === 'running') {
    const lease = await db
      .selectFrom('job_leases')
      .select('lease_until')
      .where('name', '=', job)
      .where('holder', '=', run.node)
      .executeTakeFirst();
    if (!lease || Number(lease.lease_until) < now) {
      return {
        node: run.node,
        startedAt: Number(run.started_at),
        outcome: 'failure',
        message: `the node ${run.node} stopped during the run`,
      };
    }
  }
  return { node: run.node, startedAt: Number(run.started_at), outcome, message: run.message };
}

/** Removes runs older than the history keeps. */
export async function pruneJobRuns(db: Db, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('job_runs')
    .where('started_at', '<', now - HISTORY_DAYS * 86_400_000)
    .execute();
}

class TimeoutError extends Error {}

export function createJobRunner(options: {
  db: Db;
  log: Logger;
  nodeId: string;
  /** False on a node's other worker processes: they keep the registry but run no schedule. */
  schedules?: boolean;
  leaseMs?: number;
  /** Told of each run that ended on this node: its job, outcome and time taken (metrics). */
  onRun?: (job: string, outcome: 'success' | 'failure' | 'timeout', ms: number) => void;
}): JobRunner {
  const { db, log, nodeId, schedules = true, leaseMs = JOB_LEASE_MS, onRun } = options;
  const jobs = new Map<
    string,
    { cron: string; timer: Cron | undefined; run: (context: JobContext) => Promise<void>; options: JobOptions }
  >();
  const stopping = new AbortController();
  const stopped = new Promise<never>((_, reject) =>
    stopping.signal.addEventListener('abort', () => reject(new Error('the server is stopping'))),
  );
  stopped.catch(() => undefined);
  const inFlight = new Set<Promise<boolean>>();

  const runOnce = (name: string, asked = false): Promise<boolean> => {
    if (stopping.signal.aborted) return Promise.resolve(false);
    const run = runTracked(name, asked);
    inFlight.add(run);
    const forget = () => inFlight.delete(run);
    run.then(forget, forget);
    return run;
  };

  const runTracked = async (name: string, asked: boolean): Promise<boolean> => {
    const job = jobs.get(name);
    if (!job) throw new Error(`no job '${name}'`);
    if (!(await claimJobRun(db, name, nodeId, Date.now(), leaseMs, asked))) return false;
    const runId = await startRun(db, name, nodeId, Date.now());
    const abort = new AbortController();
    const onStop = () => abort.abort(new Error('the server is stopping'));
    stopping.signal.addEventListener('abort', onStop);
    // the lease is renewed while the run lasts, so that no other node takes the job over meanwhile
    const renew = setInterval(() => {
      renewJobLease(db, name, nodeId, Date.now(), leaseMs).then(
        (held) => held || log.warn({ job: name }, 'a job lost its lease while running'),
        (error: unknown) => log.warn({ err: error, job: name }, 'renewing a job lease failed'),
      );
    }, leaseMs / 3);
    renew.unref();
    let timeout: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => {
        // the run is over for the history first; then the job is told to stop
        reject(new TimeoutError(`the run took longer than ${job.options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS} ms`));
        abort.abort(new TimeoutError('the run took longer than its timeout'));
      }, job.options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS);
      timeout.unref();
    });
    const started = Date.now();
    try {
      // a job that does not heed its signal is left behind when the server stops
      await Promise.race([job.run({ signal: abort.signal }), timedOut, stopped]);
      await endRun(db, runId, 'success', null);
      onRun?.(name, 'success', Date.now() - started);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const outcome = error instanceof TimeoutError ? 'timeout' : 'failure';
      log.error(
        { err: error, job: name },
        outcome === 'timeout' ? 'a scheduled job timed out' : 'a scheduled job failed',
      );
      await endRun(db, runId, outcome, message).catch(() => undefined);
      onRun?.(name, outcome, Date.now() - started);
    } finally {
      clearInterval(renew);
      clearTimeout(timeout);
      stopping.signal.removeEventListener('abort', onStop);
      await releaseJob(db, name, nodeId).catch(() => undefined);
    }
    return true;
  };

  const runner: JobRunner = {
    register(name, cron, run, jobOptions = {}) {
      if (jobs.has(name)) throw new Error(`the job '${name}' is registered twice`);
      const timer = schedules
        ? new Cron(cron, { protect: true, unref: true }, () => {
            void runOnce(name).catch((error: unknown) => log.error({ err: error, job: name }, 'claiming a job failed'));
          })
        : undefined;
      jobs.set(name, { cron, timer, run, options: jobOptions });
    },
    unregister(name) {
      const job = jobs.get(name);
      if (!job) return false;
      job.timer?.stop();
      jobs.delete(name);
      return true;
    },
    runNow: (name) => runOnce(name, true),
    list() {
      return [...jobs].map(([name, job]) => ({
        name,
        cron: job.cron,
        nextRun: job.timer?.nextRun()?.getTime() ?? null,
      }));
    },
    async stop() {
      stopping.abort();
      for (const { timer } of jobs.values()) timer?.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
  runner.register('job-history-retention', '3 4 * * *', () => pruneJobRuns(db));
  return runner;
}
