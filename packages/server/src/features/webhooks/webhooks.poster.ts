import { parentPort } from 'node:worker_threads';
import type { WebhookHandler } from '@arca/contracts';
import { post, type Exchange } from './webhooks.send.js';
import type { OutboundProxy, OutboundTls } from '../../core/outbound.js';

/** One run of a queue for the posting thread: bodies of one handler, sent in order. */
export interface PostRun {
  id: number;
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

/** What a run came to: one exchange per delivery posted, in order, up to and including the first failure. */
export interface PostRunResult {
  id: number;
  exchanges: Exchange[];
}

/**
 * The posting thread: sends each run it is given in order, one post after another, and stops a
 * run at its first failure (what follows waits for that delivery's retry), at its deadline, or
 * when told to stop. Runs of different queues are posted side by side. Its event loop does
 * nothing else, so a busy server does not slow its deliveries.
 */
if (parentPort) {
  const port = parentPort;
  let stopping = false;
  port.on('message', (message: PostRun | 'stop') => {
    if (message === 'stop') {
      stopping = true;
      return;
    }
    void (async () => {
      const exchanges: Exchange[] = [];
      for (const delivery of message.deliveries) {
        if (stopping || Date.now() >= message.startBefore) break;
        const exchange = await post(
          message.handler,
          delivery.body,
          delivery.eventId,
          message.allowed,
          message.proxy,
          message.tls,
        );
        exchanges.push(exchange);
        if (exchange.status === null || exchange.status < 200 || exchange.status >= 300) break;
      }
      port.postMessage({ id: message.id, exchanges } satisfies PostRunResult);
    })();
  });
}
