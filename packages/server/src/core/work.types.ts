import type { Db } from '../db/database.js';
import type { WorkTasksTable } from '../db/schema.js';

/** What the durable-work kernel (`work.ts`) offers the features: its tasks, their runs and its calls. */

export type TaskState = WorkTasksTable['state'];

/** A task as its feature reads it, whichever node holds it. */
export interface TaskView<P = unknown, G = unknown, R = unknown> {
  id: string;
  kind: string;
  key: string;
  payload: P;
  /** `running` only while its holder's lease lasts; a task whose holder died is `queued` again. */
  state: TaskState;
  attempts: number;
  progress: G | null;
  result: R | null;
  message: string | null;
  holder: string | null;
  /** The node process that held it last (its runner once it has ended). */
  lastHolder: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
}

/** What a run of a task gets. */
export interface TaskRun<P, G> {
  readonly id: string;
  readonly key: string;
  readonly payload: P;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The progress last committed, by this node or the one that held the task before. */
  readonly progress: G | null;
  /** Aborts when the task is to stop: asked to, taken over by another node, or this node stopping. */
  readonly signal: AbortSignal;
  /**
   * Renews this node's hold and records `progress`, in `trx` when given (so that progress commits
   * with the work it counts). Throws `TaskLost` when the task is no longer this node's.
   */
  hold(progress?: G, trx?: Db): Promise<void>;
  /**
   * Asks for one more run at `at` once this one returns, rather than an end: the task is queued
   * again (for any node), its attempts counted afresh. For work that waits for its next item to
   * come due, such as a webhook handler's queue behind a backoff.
   */
  again(at: number): void;
}

/** A kind of task: how one is run, and how often it is tried. */
export interface TaskKind<P, G, R> {
  run(task: TaskRun<P, G>): Promise<R>;
  /** Attempts before the task fails (default 1). */
  maxAttempts?: number;
  /** The wait before the second attempt; doubled each time up to `backoffCapMs`, with jitter. */
  backoffMs?: number;
  backoffCapMs?: number;
  /**
   * True for a task that runs as long as its node does (an outbox consumer): `idle()` does not
   * wait for it, and a stopping node hands it back like any other.
   */
  resident?: boolean;
}

export interface SubmitOptions {
  /** One unfinished task per key and kind (default: a key of its own). A finished one is replaced. */
  key?: string;
  serialKey?: string;
  /** Not before this time (default now). */
  runAfter?: number;
  /** True to run it on this node at once (a call waiting for small work); it is then claimed here. */
  runHere?: boolean;
  /** A key that has been used once is never run again, even once its task has ended (a schedule's minute). */
  once?: boolean;
  /**
   * When the key's task is unfinished, this submission is not lost in it: a queued task runs no
   * later than `runAfter`, and a running one runs once more after it returns (what was added
   * while it ran is seen).
   */
  coalesce?: boolean;
}

/** Thrown in a run whose task another node has taken over (or that was stopped). */
export class TaskLost extends Error {
  constructor(id: string) {
    super(`the task ${id} is no longer held by this node`);
  }
}

/** A loop that runs in every process on its own (heartbeat, log pruning, counters' flush). */
export interface ProcessLoop {
  name: string;
  everyMs: number;
}

export interface Work {
  define<P, G, R>(kind: string, handler: TaskKind<P, G, R>): void;
  /** Stops taking tasks of a kind in this process (a run under way goes on); it may be defined again. */
  undefine(kind: string): void;
  /**
   * Submits a task, or answers the unfinished one under its key (`created` false). With `runHere`
   * the answer's `done` resolves when this node's run of it has ended.
   */
  submit<P>(
    kind: string,
    payload: P,
    options?: SubmitOptions,
  ): Promise<{ task: TaskView<P>; created: boolean; here: boolean; done: Promise<void> }>;
  get<P = unknown, G = unknown, R = unknown>(kind: string, key: string): Promise<TaskView<P, G, R> | undefined>;
  /** A kind's tasks (of one serial key, the unfinished ones, when told), newest first. */
  list<P = unknown, G = unknown, R = unknown>(
    kind: string,
    query?: { serialKey?: string; unfinished?: boolean; limit?: number },
  ): Promise<TaskView<P, G, R>[]>;
  /** What happened to a task, oldest first. */
  history(id: string): Promise<{ at: number; node: string; event: string; message: string | null }[]>;
  /** Asks a task to stop: a queued one stops at once, a running one when its holder next renews. */
  requestStop(id: string): Promise<boolean>;
  /** Claims and starts the due tasks of the kinds defined here (the poller calls it; tests may). */
  poll(): Promise<number>;
  /** Resolves once the runs under way in this process have ended. */
  idle(): Promise<void>;
  /** Registers a loop that every process runs on its own, in the one list (`loops`). */
  every(name: string, everyMs: number, run: () => Promise<void> | void): void;
  loops(): ProcessLoop[];
  /** Ends a loop: no further run, and the run under way (if any) has finished when this resolves. */
  endLoop(name: string): Promise<void>;
  /** Stops polling and the loops, asks the runs under way to stop, and hands their tasks back. */
  stop(): Promise<void>;
}
