import { sql, type ExpressionBuilder } from 'kysely';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../db/database.js';
import type { Database, WorkTasksTable } from '../db/schema.js';
import { TaskLost, type TaskKind, type TaskView, type Work } from './work.types.js';

/**
 * The durable-work kernel: long-running, resumable work shared by every node. A task has a kind,
 * a key (one unfinished task per key), an optional serial key (tasks sharing one run one at a
 * time, in the order they were submitted), a payload, a state, attempts with backoff, progress,
 * a result and a history. Any node claims a due task under a lease that its run renews; a node
 * that dies leaves a lease that runs out, and the next poll of any node takes the task over
 * where its progress says it stopped. Features define their kinds and submit tasks; they never
 * hold leases of their own.
 */

/** How long a claim lasts unless its holder renews it (a run renews it every third of it). */
export const WORK_LEASE_MS = 60_000;
/** Finished tasks (and their history) are kept this long, for their progress and result to answer. */
const KEPT_MS = 7 * 86_400_000;
/** History entries kept for a task that runs again and again (a webhook handler's queue). */
const HISTORY_KEPT = 100;
/** Tasks claimed by one poll. */
const CLAIM_BATCH = 8;

export type { ProcessLoop, SubmitOptions, TaskKind, TaskRun, TaskState, TaskView, Work } from './work.types.js';
export { TaskLost } from './work.types.js';

/** Rejects with the signal's reason once it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

function parse<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function viewOf<P, G, R>(row: WorkTasksTable, now = Date.now()): TaskView<P, G, R> {
  const lapsed = row.state === 'running' && Number(row.lease_until) < now;
  return {
    id: row.id,
    kind: row.kind,
    key: row.task_key,
    payload: JSON.parse(row.payload) as P,
    state: lapsed ? 'queued' : row.state,
    attempts: Number(row.attempts),
    progress: parse<G>(row.progress),
    result: parse<R>(row.result),
    message: row.message,
    holder: row.state === 'running' && !lapsed ? row.holder : null,
    lastHolder: row.holder || null,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
  };
}

/** The wait before attempt `attempt + 1`: doubling from `first` up to `cap`, with ±25 % jitter. */
export function backoffDelay(attempt: number, first: number, cap: number, random = Math.random): number {
  const base = Math.min(cap, first * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * Whether a task (`t`) may be claimed at `now`: not asked to stop; queued and its time come, or
 * running under a lease that ran out; and first of its serial key among the unfinished ones.
 */
function claimable(eb: ExpressionBuilder<Database & { t: WorkTasksTable }, 't'>, now: number) {
  return eb.and([
    eb('t.stop_requested', '=', 0),
    eb.or([
      eb.and([eb('t.state', '=', 'queued'), eb('t.run_after', '<=', now)]),
      eb.and([eb('t.state', '=', 'running'), eb('t.lease_until', '<', now)]),
    ]),
    eb.or([eb('t.serial_key', 'is', null), eb.not(eb.exists(earlierOfSerial(eb)))]),
  ]);
}

/** The unfinished tasks of a task's (`t`) serial key submitted before it: while there is one, the task waits. */
function earlierOfSerial(eb: ExpressionBuilder<Database & { t: WorkTasksTable }, 't'>) {
  return eb
    .selectFrom('work_tasks as e')
    .select('e.id')
    .whereRef('e.serial_key', '=', 't.serial_key')
    .where('e.state', 'in', ['queued', 'running'])
    .where((inner) =>
      inner.or([
        inner('e.created_at', '<', inner.ref('t.created_at')),
        inner.and([inner('e.created_at', '=', inner.ref('t.created_at')), inner('e.id', '<', inner.ref('t.id'))]),
      ]),
    );
}

export function createWork(options: {
  db: Db;
  log: Logger;
  /** This process's name as a holder (the node id, with the worker's number on a node of several). */
  holder: string;
  /** False on processes that run no background work: they submit and read, and run only what they are asked to run here. */
  polls: boolean;
  pollMs?: number;
  leaseMs?: number;
  /**
   * True when `holder` names this process slot across restarts (a configured node id, or one made
   * from a fixed port): the tasks it held before a restart are taken up at once, not after their
   * leases run out. Never for a name several live processes may share.
   */
  reclaimOwn?: boolean;
}): Work {
  const { db, log, holder, polls, pollMs = 1_000, leaseMs = WORK_LEASE_MS, reclaimOwn = false } = options;
  const kinds = new Map<string, TaskKind<unknown, unknown, unknown>>();
  const running = new Map<string, { abort: AbortController; done: Promise<void>; resident: boolean }>();
  const loops = new Map<string, { everyMs: number; timer: NodeJS.Timeout; current: Promise<void>; busy: boolean }>();
  let stopped = false;
  let polling: Promise<number> | undefined;
  let pollAgain = false;
  let poller: NodeJS.Timeout | undefined;

  const note = (id: string, event: string, message: string | null = null) =>
    db
      .insertInto('work_history')
      .values({
        id: uuidv7(),
        task_id: id,
        at: Date.now(),
        node: holder,
        event,
        message: message?.slice(0, 2000) ?? null,
      })
      .execute()
      .then(() => undefined);

  // what this process slot held before it restarted is nobody's now: due at the first poll
  const reclaimed: Promise<unknown> = reclaimOwn
    ? db
        .updateTable('work_tasks')
        .set({ lease_until: 0 })
        .where('holder', '=', holder)
        .where('state', '=', 'running')
        .execute()
        .catch((error: unknown) => log.warn({ err: error }, 'taking up the tasks of a previous start failed'))
    : Promise.resolve();

  /** Takes a task if it is due (queued and its time has come, or running under a lease that ran out). */
  const claim = async (id: string): Promise<WorkTasksTable | undefined> => {
    // nothing is claimed before the tasks of a previous start are given up (it would give up this one)
    await reclaimed;
    const now = Date.now();
    const claimed = await db
      .updateTable('work_tasks as t')
      .set((eb) => ({
        state: 'running',
        holder,
        lease_until: now + leaseMs,
        attempts: eb('t.attempts', '+', 1),
        started_at: eb.fn.coalesce('t.started_at', eb.val(now)),
        updated_at: now,
      }))
      .where('t.id', '=', id)
      .where((eb) => claimable(eb, now))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return undefined;
    return db.selectFrom('work_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  };

  /** Ends this process's hold of a running task (`unlessRerun`: only when nothing was submitted to it meanwhile). */
  const finish = async (id: string, set: Partial<WorkTasksTable>, unlessRerun = false): Promise<boolean> => {
    const now = Date.now();
    let update = db
      .updateTable('work_tasks')
      .set({ ...set, lease_until: 0, updated_at: now })
      .where('id', '=', id)
      .where('holder', '=', holder)
      .where('state', '=', 'running');
    if (unlessRerun) update = update.where('rerun', '=', 0);
    const changed = await update.executeTakeFirst();
    return Number(changed.numUpdatedRows) === 1;
  };

  const start = (row: WorkTasksTable, previousHolder: string): Promise<void> => {
    const kind = kinds.get(row.kind);
    if (!kind) throw new Error(`no task kind '${row.kind}' on this node`);
    const abort = new AbortController();
    let progress = parse<unknown>(row.progress);
    const hold = async (next?: unknown, trx: Db = db) => {
      if (abort.signal.aborted) throw new TaskLost(row.id);
      if (next !== undefined) progress = next;
      const now = Date.now();
      const held = await trx
        .updateTable('work_tasks')
        .set({
          lease_until: now + leaseMs,
          updated_at: now,
          ...(next !== undefined ? { progress: JSON.stringify(next) } : {}),
        })
        .where('id', '=', row.id)
        .where('holder', '=', holder)
        .where('state', '=', 'running')
        .where('stop_requested', '=', 0)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) !== 1) {
        abort.abort(new TaskLost(row.id));
        throw new TaskLost(row.id);
      }
    };
    // the lease is renewed while the run lasts; a stop asked for meanwhile is heard here
    const renew = setInterval(() => {
      hold().catch((error: unknown) => {
        if (!(error instanceof TaskLost)) log.warn({ err: error, task: row.id }, 'renewing a task lease failed');
      });
    }, leaseMs / 3);
    renew.unref();
    const attempt = Number(row.attempts);
    const run = async () => {
      if (previousHolder && previousHolder !== holder)
        await note(row.id, 'taken-over', `from ${previousHolder}, attempt ${attempt}`);
      else await note(row.id, 'started', `attempt ${attempt}`);
      try {
        // a run that does not heed its signal is left behind: what it writes later is fenced by its hold
        let againAt: number | undefined;
        const result = await Promise.race([
          kind.run({
            id: row.id,
            key: row.task_key,
            payload: JSON.parse(row.payload),
            attempt,
            progress,
            signal: abort.signal,
            hold,
            again: (at) => (againAt = Math.min(at, againAt ?? at)),
          }),
          aborted(abort.signal),
        ]);
        // a run that returned because it was told to stop has not finished its work
        if (abort.signal.aborted) throw abort.signal.reason;
        await ended(row.id, result, againAt);
      } catch (error) {
        await failed(row, attempt, kind, error, abort.signal);
      }
    };
    const done = run()
      .catch((error: unknown) => log.error({ err: error, task: row.id }, 'a task could not record its end'))
      .finally(() => {
        clearInterval(renew);
        running.delete(row.id);
      });
    running.set(row.id, { abort, done, resident: kind.resident ?? false });
    return done;
  };

  /**
   * Records a run that returned: the task is done, unless it asked to run again or a submission
   * came while it ran (`rerun`); then it is queued for any node, attempts counted afresh.
   */
  const ended = async (id: string, result: unknown, againAt: number | undefined) => {
    if (
      againAt === undefined &&
      (await finish(
        id,
        {
          state: 'done',
          result: result === undefined ? null : JSON.stringify(result),
          message: null,
          ended_at: Date.now(),
        },
        true,
      ))
    ) {
      await note(id, 'done');
      return;
    }
    const now = Date.now();
    const current = await db.selectFrom('work_tasks').select('rerun').where('id', '=', id).executeTakeFirst();
    const at = current?.rerun ? now : (againAt ?? now);
    if (await finish(id, { state: 'queued', run_after: at, attempts: 0, rerun: 0, holder: '', message: null })) {
      await note(id, 'waits', at > now ? `until ${new Date(at).toISOString()}` : null);
      await trimHistory(id);
    }
  };

  /** A task that keeps running again keeps only its newest history. */
  const trimHistory = async (id: string) => {
    const kept = await db
      .selectFrom('work_history')
      .select('at')
      .where('task_id', '=', id)
      .orderBy('at', 'desc')
      .limit(1)
      .offset(HISTORY_KEPT)
      .executeTakeFirst();
    if (kept)
      await db.deleteFrom('work_history').where('task_id', '=', id).where('at', '<=', Number(kept.at)).execute();
  };

  const failed = async (
    row: WorkTasksTable,
    attempt: number,
    kind: TaskKind<unknown, unknown, unknown>,
    error: unknown,
    signal: AbortSignal,
  ) => {
    const message = error instanceof Error ? error.message : String(error);
    if (stopped) {
      // this node stops: the task goes back to the queue for any node, where its progress says it was
      if (await finish(row.id, { state: 'queued', run_after: Date.now(), holder: '' }))
        await note(row.id, 'handed-back', 'the node stopped');
      return;
    }
    if (error instanceof TaskLost || (signal.aborted && signal.reason instanceof TaskLost)) {
      // another node has it, or it was asked to stop: a stop is recorded by whoever sees it
      const current = await db
        .selectFrom('work_tasks')
        .select(['stop_requested', 'holder', 'state'])
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (current?.stop_requested && current.holder === holder && current.state === 'running') {
        await finish(row.id, { state: 'stopped', message: 'stopped on request', ended_at: Date.now() });
        await note(row.id, 'stopped');
      } else log.warn({ task: row.id, kind: row.kind }, 'another node took over a task of this node');
      return;
    }
    const maxAttempts = Number(row.max_attempts);
    log.error({ err: error, task: row.id, kind: row.kind, attempt }, 'a task failed');
    if (attempt < maxAttempts) {
      const wait = backoffDelay(attempt, kind.backoffMs ?? 5_000, kind.backoffCapMs ?? 3_600_000);
      if (await finish(row.id, { state: 'queued', run_after: Date.now() + wait, message }))
        await note(row.id, 'retry', `attempt ${attempt} failed: ${message}; next in ${wait} ms`);
      return;
    }
    if (await finish(row.id, { state: 'failed', message, ended_at: Date.now() })) await note(row.id, 'failed', message);
  };

  const pollOnce = async (): Promise<number> => {
    await reclaimed;
    if (stopped || !kinds.size) return 0;
    const now = Date.now();
    // due, of a kind defined here, and first of its serial key among the unfinished ones
    const due = await db
      .selectFrom('work_tasks as t')
      .select(['t.id', 't.holder'])
      .where('t.kind', 'in', [...kinds.keys()])
      .where((eb) => claimable(eb, now))
      .orderBy('t.created_at')
      .limit(CLAIM_BATCH)
      .execute();
    let started = 0;
    for (const { id, holder: previous } of due) {
      if (stopped || running.has(id)) continue;
      const row = await claim(id);
      if (!row) continue;
      started += 1;
      void start(row, previous);
    }
    // a full batch may have left due tasks behind: look again at once rather than at the next tick
    if (due.length === CLAIM_BATCH && started > 0) pollAgain = true;
    return started;
  };

  const poll = (): Promise<number> => {
    // one poll at a time per process; a poll asked for during one makes one more after it (what
    // was submitted meanwhile may have come after its look)
    if (polling) {
      pollAgain = true;
      return polling;
    }
    polling = pollOnce().finally(() => {
      polling = undefined;
      if (pollAgain && !stopped) {
        pollAgain = false;
        void poll().catch((error: unknown) => log.error({ err: error }, 'polling for work failed'));
      }
    });
    return polling;
  };

  const schedule = () => {
    if (stopped || !polls) return;
    poller = setTimeout(() => {
      poll()
        .catch((error: unknown) => log.error({ err: error }, 'polling for work failed'))
        .finally(schedule);
    }, pollMs);
    poller.unref();
  };
  schedule();

  /** Folds a submission into the key's unfinished task (see `SubmitOptions.coalesce`); false when there is none. */
  const coalesce = async (kind: string, key: string, runAfter: number): Promise<boolean> => {
    const now = Date.now();
    const running = await db
      .updateTable('work_tasks')
      .set({ rerun: 1, updated_at: now })
      .where('kind', '=', kind)
      .where('task_key', '=', key)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(running.numUpdatedRows) === 1) return true;
    const queued = await db
      .updateTable('work_tasks')
      .set({
        run_after: sql<number>`case when run_after > ${runAfter} then ${runAfter} else run_after end`,
        updated_at: now,
      })
      .where('kind', '=', kind)
      .where('task_key', '=', key)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    return Number(queued.numUpdatedRows) === 1;
  };

  const read = async (kind: string, key: string) =>
    db.selectFrom('work_tasks').selectAll().where('kind', '=', kind).where('task_key', '=', key).executeTakeFirst();

  const work: Work = {
    define(kind, handler) {
      if (kinds.has(kind)) throw new Error(`the task kind '${kind}' is defined twice`);
      kinds.set(kind, handler as TaskKind<unknown, unknown, unknown>);
    },
    undefine(kind) {
      kinds.delete(kind);
    },
    async submit(kind, payload, submitOptions = {}) {
      const now = Date.now();
      const id = uuidv7();
      const key = submitOptions.key ?? id;
      const row: WorkTasksTable = {
        id,
        kind,
        task_key: key,
        serial_key: submitOptions.serialKey ?? null,
        payload: JSON.stringify(payload),
        state: 'queued',
        attempts: 0,
        max_attempts: kinds.get(kind)?.maxAttempts ?? 1,
        progress: null,
        result: null,
        message: null,
        holder: submitOptions.runHere ? holder : '',
        lease_until: 0,
        run_after: submitOptions.runAfter ?? now,
        stop_requested: 0,
        rerun: 0,
        created_at: now,
        started_at: null,
        ended_at: null,
        updated_at: now,
      };
      const before = await read(kind, key);
      // a finished task under the key is replaced; an unfinished one (queued, or running under a live lease) stays
      const write = async () => {
        const written = await db
          .insertInto('work_tasks')
          .values(row)
          .onConflict((oc) =>
            submitOptions.once
              ? oc.columns(['kind', 'task_key']).doNothing()
              : oc
                  .columns(['kind', 'task_key'])
                  .doUpdateSet(row)
                  .where((eb) =>
                    eb.or([
                      eb('work_tasks.state', 'in', ['done', 'failed', 'stopped']),
                      eb.and([eb('work_tasks.state', '=', 'running'), eb('work_tasks.lease_until', '<', now)]),
                    ]),
                  ),
          )
          .executeTakeFirst();
        return Number(written.numInsertedOrUpdatedRows ?? 0) === 1;
      };
      let created = await write();
      // coalesced into the unfinished task; should it end meanwhile, the next write replaces it
      for (let tries = 0; !created && submitOptions.coalesce && tries < 3; tries++) {
        if (await coalesce(kind, key, row.run_after)) break;
        created = await write();
      }
      const current = (await read(kind, key))!;
      // a replaced task's history goes with it
      if (created && before && before.id !== current.id)
        await db.deleteFrom('work_history').where('task_id', '=', before.id).execute();
      let done = Promise.resolve();
      let here = false;
      if (created && submitOptions.runHere && !stopped) {
        const claimed = await claim(current.id);
        if (claimed) {
          here = true;
          done = start(claimed, '');
        }
      }
      if ((created || submitOptions.coalesce) && !here && polls) void poll().catch(() => undefined);
      return { task: viewOf((await read(kind, key)) ?? current), created, here, done };
    },
    async get(kind, key) {
      const row = await read(kind, key);
      return row && viewOf(row);
    },
    async list(kind, query = {}) {
      let rows = db.selectFrom('work_tasks').selectAll().where('kind', '=', kind);
      if (query.serialKey !== undefined) rows = rows.where('serial_key', '=', query.serialKey);
      if (query.unfinished) rows = rows.where('state', 'in', ['queued', 'running']);
      return (
        await rows
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(query.limit ?? 100)
          .execute()
      ).map((row) => viewOf(row));
    },
    async history(id) {
      const rows = await db
        .selectFrom('work_history')
        .select(['at', 'node', 'event', 'message'])
        .where('task_id', '=', id)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ ...row, at: Number(row.at) }));
    },
    async requestStop(id) {
      const now = Date.now();
      const queued = await db
        .updateTable('work_tasks')
        .set({ state: 'stopped', message: 'stopped on request', ended_at: now, updated_at: now })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]),
        )
        .executeTakeFirst();
      if (Number(queued.numUpdatedRows) === 1) {
        await note(id, 'stopped');
        return true;
      }
      const asked = await db
        .updateTable('work_tasks')
        .set({ stop_requested: 1, updated_at: now })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .executeTakeFirst();
      // a run of this process hears it at once; another node's at its next renewal
      running.get(id)?.abort.abort(new TaskLost(id));
      return Number(asked.numUpdatedRows) === 1;
    },
    poll,
    async idle() {
      const finite = () => [...running.values()].filter(({ resident }) => !resident);
      while (finite().length) await Promise.allSettled(finite().map(({ done }) => done));
    },
    every(name, everyMs, run) {
      // a loop asked for once the node is stopping would outlive it
      if (stopped) return;
      if (loops.has(name)) throw new Error(`the loop '${name}' is registered twice`);
      const timer = setInterval(() => {
        const loop = loops.get(name);
        // a run still under way takes the tick: runs never pile up behind a slow one
        if (!loop || loop.busy) return;
        loop.busy = true;
        loop.current = Promise.resolve()
          .then(run)
          .catch((error: unknown) => log.error({ err: error, loop: name }, 'a process loop failed'))
          .finally(() => (loop.busy = false));
      }, everyMs);
      timer.unref();
      loops.set(name, { everyMs, timer, current: Promise.resolve(), busy: false });
    },
    loops: () => [...loops].map(([name, { everyMs }]) => ({ name, everyMs })),
    async endLoop(name) {
      const loop = loops.get(name);
      if (!loop) return;
      clearInterval(loop.timer);
      loops.delete(name);
      await loop.current;
    },
    async stop() {
      stopped = true;
      clearTimeout(poller);
      await Promise.all([...loops.keys()].map((name) => work.endLoop(name)));
      await polling?.catch(() => undefined);
      for (const { abort } of running.values()) abort.abort(new Error('the node is stopping'));
      await Promise.allSettled([...running.values()].map(({ done }) => done));
    },
  };
  return work;
}

/** Removes finished tasks and their history past a week (a job of the job runner). */
export async function pruneWork(db: Db, now = Date.now()): Promise<number> {
  const old = db
    .selectFrom('work_tasks')
    .select('id')
    .where('state', 'in', ['done', 'failed', 'stopped'])
    .where('updated_at', '<', now - KEPT_MS);
  await db.deleteFrom('work_history').where('task_id', 'in', old).execute();
  const removed = await db
    .deleteFrom('work_tasks')
    .where('state', 'in', ['done', 'failed', 'stopped'])
    .where('updated_at', '<', now - KEPT_MS)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
