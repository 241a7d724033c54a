import { Cron } from 'croner';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { TaskView, Work } from './work.js';

/** The longest a run may take unless its job says otherwise: it is then abandoned (outcome `timeout`). */
export const DEFAULT_JOB_TIMEOUT_MS = 6 * 60 * 60_000;
/** The durable-work kernel's kind for a job's run: each run is a task, the job's name its serial key. */
export const JOB_TASK = 'job';

/** What a run gets: a signal that aborts when the run times out or the server stops. */
export interface JobContext {
  signal: AbortSignal;
  /** Records where the run is, for every node to show (`latestRun`), with the renewal of its hold. */
  progress(progress: JobProgress): Promise<void>;
}

/** Where a run is: a step's name and how far it has come. */
export interface JobProgress {
  step: string;
  done: number;
  total: number;
}

/** A run of a job as administrators see it, whichever node ran it. */
export interface JobRun {
  id: string;
  job: string;
  node: string;
  startedAt: number;
  endedAt: number | null;
  outcome: 'running' | 'success' | 'failure' | 'timeout';
  message: string | null;
  progress: JobProgress | null;
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
  /** Runs the scheduled run of the minute `at` falls in, unless a node ran it or a run is under way (the schedule calls it). */
  runScheduled(name: string, at: number): Promise<boolean>;
  /** The runs of every node (of one job, or all), newest first. */
  runs(query: { job?: string; limit: number }): Promise<JobRun[]>;
  /** The registered schedules, with their next run. */
  list(): ScheduledJob[];
  /** Stops the schedules (the kernel ends the runs under way when it stops). */
  stop(): void;
}

const TIMED_OUT = 'the run took longer than';

function runOf(task: TaskView<{ name: string }, JobProgress>): JobRun {
  const ended = task.state === 'done' || task.state === 'failed' || task.state === 'stopped';
  const outcome = !ended
    ? 'running'
    : task.state === 'done'
      ? 'success'
      : task.message?.startsWith(TIMED_OUT)
        ? 'timeout'
        : 'failure';
  return {
    id: task.id,
    job: task.payload.name,
    node: task.holder ?? task.lastHolder ?? '',
    startedAt: task.startedAt ?? task.createdAt,
    endedAt: task.endedAt,
    outcome,
    message: task.message,
    progress: ended ? null : task.progress,
  };
}

/** A job's newest run, whichever node ran it: `running` while it is held or waits for a node to take it over. */
export async function latestRun(work: Work, job: string): Promise<JobRun | undefined> {
  const [task] = await work.list<{ name: string }, JobProgress>(JOB_TASK, { serialKey: `job:${job}`, limit: 1 });
  return task && runOf(task);
}

class TimeoutError extends Error {}

export function createJobRunner(options: {
  work: Work;
  log: Logger;
  /** False on a node's other worker processes: they keep the registry but run no schedule. */
  schedules?: boolean;
  /** Told of each run that ended on this node: its job, outcome and time taken (metrics). */
  onRun?: (job: string, outcome: 'success' | 'failure' | 'timeout', ms: number) => void;
}): JobRunner {
  const { work, log, schedules = true, onRun } = options;
  const jobs = new Map<
    string,
    { cron: string; timer: Cron | undefined; run: (context: JobContext) => Promise<void>; options: JobOptions }
  >();
  let stopped = false;

  // a run is a task of the kernel: held under its lease on one node, taken over if that node dies
  work.define<{ name: string }, JobProgress, null>(JOB_TASK, {
    run: async (task) => {
      const job = jobs.get(task.payload.name);
      if (!job) throw new Error(`no job '${task.payload.name}' on this node`);
      const timeoutMs = job.options.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
      const abort = new AbortController();
      const onAbort = () => abort.abort(task.signal.reason);
      task.signal.addEventListener('abort', onAbort);
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timeout = setTimeout(() => {
          // the run is over for the history first; then the job is told to stop
          reject(new TimeoutError(`${TIMED_OUT} ${timeoutMs} ms`));
          abort.abort(new TimeoutError(`${TIMED_OUT} its timeout`));
        }, timeoutMs);
        timeout.unref();
      });
      const started = Date.now();
      try {
        await Promise.race([job.run({ signal: abort.signal, progress: (p) => task.hold(p) }), timedOut]);
        onRun?.(task.payload.name, 'success', Date.now() - started);
        return null;
      } catch (error) {
        const outcome = error instanceof TimeoutError ? 'timeout' : 'failure';
        if (!task.signal.aborted) {
          log.error(
            { err: error, job: task.payload.name },
            outcome === 'timeout' ? 'a scheduled job timed out' : 'a scheduled job failed',
          );
          onRun?.(task.payload.name, outcome, Date.now() - started);
        }
        throw error;
      } finally {
        clearTimeout(timeout);
        task.signal.removeEventListener('abort', onAbort);
      }
    },
  });

  /**
   * Runs a job here: a scheduled run once per minute slot of its schedule across the nodes (the
   * slot is the task's key), an asked one whenever no run of it is under way (or waiting).
   */
  const runOnce = async (name: string, asked: boolean, at = Date.now()): Promise<boolean> => {
    if (!jobs.has(name)) throw new Error(`no job '${name}'`);
    if (stopped) return false;
    const serialKey = `job:${name}`;
    if ((await work.list(JOB_TASK, { serialKey, unfinished: true, limit: 1 })).length) return false;
    const key = asked ? `${name}@asked-${uuidv7()}` : `${name}@${Math.floor(at / 60_000)}`;
    const { here, done } = await work.submit(JOB_TASK, { name }, { key, serialKey, runHere: true, once: !asked });
    await done;
    return here;
  };

  const runner: JobRunner = {
    register(name, cron, run, jobOptions = {}) {
      if (jobs.has(name)) throw new Error(`the job '${name}' is registered twice`);
      const timer = schedules
        ? new Cron(cron, { protect: true, unref: true }, () => {
            void runOnce(name, false).catch((error: unknown) =>
              log.error({ err: error, job: name }, 'claiming a job failed'),
            );
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
    runScheduled: (name, at) => runOnce(name, false, at),
    list() {
      return [...jobs].map(([name, job]) => ({
        name,
        cron: job.cron,
        nextRun: job.timer?.nextRun()?.getTime() ?? null,
      }));
    },
    async runs(query) {
      const tasks = await work.list<{ name: string }, JobProgress>(JOB_TASK, {
        ...(query.job ? { serialKey: `job:${query.job}` } : {}),
        limit: query.limit,
      });
      return tasks.map(runOf);
    },
    stop() {
      stopped = true;
      for (const { timer } of jobs.values()) timer?.stop();
    },
  };
  return runner;
}
