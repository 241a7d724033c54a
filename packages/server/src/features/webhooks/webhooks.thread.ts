import type { Worker } from 'node:worker_threads';
import { startModuleThread } from '../../core/threads.js';
import type { PostRun, PostRunResult } from './webhooks.poster.js';
import type { Exchange } from './webhooks.send.js';

/** The posting thread: webhooks.poster's module on a thread of its own. */
const startWorker = () => startModuleThread(import.meta.url, 'webhooks.poster', 'webhook-posting');

/**
 * Posts runs of deliveries on a thread of its own (see webhooks.poster.ts): the server's event
 * loop hands over a run and takes back its exchanges, one message each way. A thread that dies
 * fails the runs it held (their deliveries are released and sent again) and is started anew.
 */
export class PostingThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (e: Exchange[]) => void; reject: (e: Error) => void }>();

  /** Starts the thread ahead of the first run, so that the first deliveries do not wait for it. */
  start(): void {
    this.started();
  }

  /** Whether the thread is up. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.unref();
    worker.on('message', ({ id, exchanges }: PostRunResult) => {
      this.pending.get(id)?.resolve(exchanges);
      this.pending.delete(id);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the posting thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Posts a run in order; answers the exchanges of the deliveries it posted. */
  post(run: Omit<PostRun, 'id'>): Promise<Exchange[]> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...run, id } satisfies PostRun);
    });
  }

  /** Lets the runs under way end after their current post, then ends the thread. */
  async stop(settled: Promise<unknown>): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage('stop');
    await settled;
    this.worker = undefined;
    await worker.terminate();
  }
}
