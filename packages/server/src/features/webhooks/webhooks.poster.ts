import { serveThreadCalls } from '../../core/threads.js';
import type { WebhookHandler } from '@arca/contracts';
import { post, type Exchange } from './webhooks.send.js';
import type { OutboundProxy, OutboundTls } from '../../core/outbound.js';

/** One run of a queue for the posting thread: bodies of one handler, sent in order. */
export interface PostRun {
  handler: WebhookHandler;
  deliveries: { body: string; eventId: string }[];
  allowed: readonly string[];
  /** The HTTP proxy the handler's posts go through, if any. */
  proxy?: OutboundProxy;
  /** The authorities trusted besides the system's. */
  tls?: OutboundTls;
  /** No post starts after this time (epoch ms): the run ends within its lease. */
  startBefore: number;
}

/** The posting thread's name. */
export const POSTING_THREAD = 'posting';

/**
 * The posting thread: sends each run it is given in order, one post after another, and stops a
 * run at its first failure (what follows waits for that delivery's retry), at its deadline, or
 * when told to stop. Runs of different queues are posted side by side. Its event loop does
 * nothing else, so a busy server does not slow its deliveries.
 */
let stopping = false;
serveThreadCalls<PostRun, Exchange[]>(
  POSTING_THREAD,
  async (run) => {
    const exchanges: Exchange[] = [];
    for (const delivery of run.deliveries) {
      if (stopping || Date.now() >= run.startBefore) break;
      const exchange = await post(run.handler, delivery.body, delivery.eventId, run.allowed, run.proxy, run.tls);
      exchanges.push(exchange);
      if (exchange.status === null || exchange.status < 200 || exchange.status >= 300) break;
    }
    // one exchange per delivery posted, in order, up to and including the first failure
    return { result: exchanges };
  },
  (signal) => {
    if (signal === 'stop') stopping = true;
  },
);
