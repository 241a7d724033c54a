import { ThreadCalls } from '../../core/threads.js';
import { POSTING_THREAD, type PostRun } from './webhooks.poster.js';
import type { Exchange } from './webhooks.send.js';

/**
 * Posts runs of deliveries on a thread of its own (see webhooks.poster.ts): the server's event
 * loop hands over a run and takes back its exchanges, one message each way. A thread that dies
 * fails the runs it held (their deliveries are released and sent again) and is started anew.
 */
export class PostingThread {
  private readonly calls = new ThreadCalls<PostRun, Exchange[]>(import.meta.url, 'webhooks.poster', POSTING_THREAD);

  /** Starts the thread ahead of the first run, so that the first deliveries do not wait for it. */
  start(): void {
    this.calls.start();
  }

  /** Whether the thread is up. */
  get running(): boolean {
    return this.calls.running;
  }

  /** Posts a run in order; answers the exchanges of the deliveries it posted. */
  post(run: PostRun): Promise<Exchange[]> {
    return this.calls.call(run);
  }

  /** Lets the runs under way end after their current post, then ends the thread. */
  async stop(settled: Promise<unknown>): Promise<void> {
    if (!this.calls.running) return;
    this.calls.signal('stop');
    await settled;
    await this.calls.close();
  }
}
