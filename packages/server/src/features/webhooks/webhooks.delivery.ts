import os from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  REPOSITORY_DOMAINS,
  buildCriteriaSchema,
  RELEASE_BUNDLE_DOMAINS,
  releaseBundleCriteriaSchema,
  repositoryCriteriaSchema,
  type StoredEvent,
  type WebhookDomain,
  type WebhookPayload,
} from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { outboundProxy } from '../../core/proxies.js';
import { outboundTls } from '../../core/certificates.js';
import { OutboxConsumer } from '../../core/outbox.js';
import { patternsCover } from '../../core/permissions.js';
import { domainEventsOf, type DomainEvent } from './webhooks.events.js';
import { ATTEMPT_TIMEOUT_MS, type Exchange } from './webhooks.send.js';
import { PostingThread } from './webhooks.thread.js';
import { openHandlers } from './webhooks.service.js';
import { WORK_LEASE_MS, type TaskRun } from '../../core/work.js';
import {
  pendingQueues,
  currentWebhooks,
  enabledWebhooks,
  findWebhook,
  insertDeliveries,
  pruneWebhookLog,
  queueFront,
  settleAttempts,
  type DeliveryRow,
  type Settlement,
  type WebhookRow,
} from './webhooks.store.js';

/** The outbox consumer that turns events into deliveries. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** How often the outbox is looked at when nothing woke its consumer. */
const POLL_MS = 250;
/** A delivery is tried again for this long after its event, then marked failed (and stays re-sendable). */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** The wait before the second attempt; it doubles with each failure up to the configured longest. */
const FIRST_RETRY_MS = 1000;
/** Deliveries of one queue taken and settled together. */
const BATCH = 50;
/** How soon the queues a dispatch filled are submitted: the dispatches of a burst make one submission each. */
const WAKE_MS = 20;
/** Delivery log entries (attempts, settled deliveries) are kept this long. */
export const LOG_RETENTION_DAYS = 30;

/** The address receivers are told the event came from. */
export function originOf(app: FastifyInstance): string {
  return app.config.baseUrl ?? `http://${os.hostname()}:${app.config.port}`;
}

/** The body a webhook receives for one domain event. */
export function payloadOf(
  app: FastifyInstance,
  key: string,
  eventId: string,
  described: Pick<DomainEvent, 'domain' | 'eventType' | 'data'>,
  actor: string,
): WebhookPayload {
  return {
    event_id: eventId,
    subscription_key: key,
    domain: described.domain,
    event_type: described.eventType,
    data: described.data,
    jpd_origin: originOf(app),
    source: `arca/${actor}`,
  };
}

/** Whether a subscription's criteria take a domain event. */
export function matches(hook: WebhookRow, described: DomainEvent): boolean {
  const criteria = JSON.parse(hook.criteria) as Record<string, unknown>;
  if (REPOSITORY_DOMAINS.includes(hook.domain as WebhookDomain)) {
    const c = repositoryCriteriaSchema.parse(criteria);
    const repo = described.repo;
    if (!repo) return false;
    const picked =
      (c.anyLocal && repo.rclass === 'local') ||
      (c.anyRemote && repo.rclass === 'remote') ||
      (c.anyFederated && repo.rclass === 'federated') ||
      c.repoKeys.includes(repo.key);
    if (!picked) return false;
    if (!described.subject || (!c.includePatterns.length && !c.excludePatterns.length)) return true;
    return patternsCover(c.includePatterns, c.excludePatterns, described.subject);
  }
  if (RELEASE_BUNDLE_DOMAINS.includes(hook.domain as WebhookDomain)) {
    const c = releaseBundleCriteriaSchema.parse(criteria);
    const name = described.subject;
    if (c.excludePatterns.length && patternsCover(c.excludePatterns, [], name)) return false;
    return (
      c.anyReleaseBundle ||
      c.registeredReleaseBundlesNames.includes(name) ||
      (c.includePatterns.length > 0 && patternsCover(c.includePatterns, [], name))
    );
  }
  if (hook.domain === 'build') {
    const c = buildCriteriaSchema.parse(criteria);
    const name = described.subject;
    if (c.excludePatterns.length && patternsCover(c.excludePatterns, [], name)) return false;
    return (
      c.anyBuild ||
      c.selectedBuilds.includes(name) ||
      (c.includePatterns.length > 0 && patternsCover(c.includePatterns, [], name))
    );
  }
  return true;
}

/**
 * Turns an event into deliveries: one per matching enabled subscription, handler and domain event
 * (a property change of two keys is two), each with its body made now, so that every attempt
 * sends the same bytes. Applying an event twice (a crash before it was marked done) adds nothing;
 * an event older than a subscription is not the subscription's, even when it is taken after it.
 */
export async function dispatch(
  app: FastifyInstance,
  event: StoredEvent,
): Promise<{ webhook_key: string; handler: number }[]> {
  const hooks = await currentWebhooks(app.db);
  if (!hooks.length) return [];
  const described = await domainEventsOf(app, event);
  const rows: DeliveryRow[] = [];
  const now = Date.now();
  described.forEach((d, index) => {
    const eventId = index === 0 ? event.id : `${event.id}-${index}`;
    for (const hook of hooks) {
      // a subscription hears what happens from its making on, however late an event is taken
      if (event.createdAt < Number(hook.created_at)) continue;
      if (hook.domain !== d.domain || !(JSON.parse(hook.event_types) as string[]).includes(d.eventType)) continue;
      if (d.only && !d.only.includes(hook.key)) continue;
      if (!matches(hook, d)) continue;
      const handlers = JSON.parse(hook.handlers) as { url: string }[];
      const body = JSON.stringify(payloadOf(app, hook.key, eventId, d, event.actor));
      handlers.forEach((handler, position) =>
        rows.push({
          id: randomUUID(),
          webhook_key: hook.key,
          handler: position,
          url: handler.url,
          event_id: eventId,
          event_seq: event.seq,
          domain: d.domain,
          event_type: d.eventType,
          payload: body,
          state: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created_at: event.createdAt,
          settled_at: null,
          last_status: null,
          last_error: null,
        }),
      );
    }
  });
  await insertDeliveries(app.db, rows);
  const queues = new Map(rows.map((row) => [queueKey(row), { webhook_key: row.webhook_key, handler: row.handler }]));
  return [...queues.values()];
}

/** The wait after `attempts` failures: doubling from a second up to the configured longest, with jitter. */
export function backoff(attempts: number, maxMs: number, random = Math.random()): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), maxMs);
  return Math.round(ceiling * (0.5 + random / 2));
}

/** The kind of the work kernel's task that sends one handler's queue (its key: `queueKey`). */
const QUEUE_TASK = 'webhook-queue';

interface QueuePayload {
  webhook: string;
  handler: number;
}

const queueKey = (q: { webhook_key: string; handler: number }) => `${q.handler}:${q.webhook_key}`;

/**
 * Sends deliveries. Each handler's queue is one task of the work kernel, so one node at a time
 * sends it, in event order: the front is posted and settled (delivered; or due again after a
 * backoff; or failed a day after its event), then the next front follows at once. A queue whose
 * front waits for its backoff asks the kernel to run it again then; an empty one ends, and the
 * next delivery made for it submits it again. Queues run side by side, so a slow or dead receiver
 * holds up only its own; a node that dies leaves its queues to the others when their leases end.
 */
export class WebhookSender {
  private readonly runs = new Set<Promise<void>>();
  private readonly thread = new PostingThread();
  /** Queues to submit at the next wake, by key. */
  private readonly woken = new Map<string, { webhook_key: string; handler: number }>();
  private soon: NodeJS.Timeout | undefined;
  /** Stopped with the app: what is queued later (committed already) is sent after the next start. */
  private stopped = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly app: FastifyInstance) {
    app.work.define<QueuePayload, never, void>(QUEUE_TASK, {
      run: (task) => {
        const run = this.send(task);
        const tracked = run.then(
          () => undefined,
          () => undefined,
        );
        this.runs.add(tracked);
        void tracked.finally(() => this.runs.delete(tracked));
        return run;
      },
      // a run that broke off (the posting thread died, the database failed) is tried again soon
      maxAttempts: 50,
      backoffMs: FIRST_RETRY_MS,
      backoffCapMs: 60_000,
    });
  }

  /** Starts the posting thread now when a webhook is enabled (else with the first delivery) and sends what waits. */
  async start(): Promise<void> {
    if ((await enabledWebhooks(this.app.db)).length) this.thread.start();
    await this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.soon);
    this.soon = undefined;
    await this.flushing;
    await this.thread.stop(Promise.allSettled([...this.runs]));
  }

  /**
   * Submits the queues with pending deliveries (of one webhook, when told): each runs now, or once
   * more after the run under way (what was added meanwhile is sent).
   */
  async wake(webhookKey?: string): Promise<void> {
    const queues = await pendingQueues(this.app.db);
    for (const queue of queues) {
      if (webhookKey === undefined || queue.webhook_key === webhookKey) await this.submit(queue);
    }
  }

  /**
   * Submits one handler's queue soon: the queues a burst of events fills are submitted once each
   * (WAKE_MS later), not once per event. The deliveries are committed already; a process that
   * stops before it submits leaves them to the sweep at the next start.
   */
  queue(queue: { webhook_key: string; handler: number }): void {
    if (this.stopped) return;
    this.woken.set(queueKey(queue), queue);
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      const queues = [...this.woken.values()];
      this.woken.clear();
      this.flushing = Promise.all(queues.map((q) => this.submit(q)))
        .then(() => undefined)
        .catch((error: unknown) => this.app.log.warn({ err: error }, 'webhooks: submitting queues failed'));
    }, WAKE_MS);
  }

  /** Submits one handler's queue now: it runs now, or once more after the run under way. */
  private submit(queue: { webhook_key: string; handler: number }) {
    return this.app.work.submit<QueuePayload>(
      QUEUE_TASK,
      { webhook: queue.webhook_key, handler: queue.handler },
      { key: queueKey(queue), coalesce: true },
    );
  }

  /** Sends what is due on this node and answers when no queue has a delivery due now (tests, shutdown). */
  async drain(): Promise<void> {
    for (;;) {
      await this.app.work.poll();
      while (this.runs.size) await Promise.allSettled([...this.runs]);
      const now = Date.now();
      let due = false;
      for (const queue of await pendingQueues(this.app.db)) {
        const [front] = await queueFront(this.app.db, queue.webhook_key, queue.handler, 1);
        if (front && Number(front.next_attempt_at) <= now) {
          due = true;
          await this.submit(queue);
        }
      }
      if (!due) return;
    }
  }

  /**
   * Works one handler's queue: takes its front (up to BATCH due deliveries, in event order),
   * posts them one after another and settles them together; the first that fails ends the batch
   * (it waits for its backoff, and everything behind it with it). Then the next front, until the
   * queue is empty or waits.
   */
  private async send(task: TaskRun<QueuePayload, never>): Promise<void> {
    const { db } = this.app;
    const { webhook, handler: position } = task.payload;
    for (;;) {
      const hook = await findWebhook(db, webhook);
      // a disabled webhook's deliveries wait: enabling it submits its queues again
      if (task.signal.aborted || (hook && !hook.enabled)) return;
      const now = Date.now();
      const front = await queueFront(db, webhook, position, BATCH);
      if (!front.length) return;
      // only an unbroken run from the front: a delivery that waits holds back those behind it
      const waiting = front.findIndex((d) => Number(d.next_attempt_at) > now);
      const run = waiting < 0 ? front : front.slice(0, waiting);
      if (!run.length) {
        task.again(Number(front[0]!.next_attempt_at));
        return;
      }
      await task.hold();
      // the thread is up as soon as a webhook is (its start takes a moment the first deliveries should not wait)
      if (!this.thread.running) this.thread.start();
      const handler = hook ? (await openHandlers(db, hook))[position] : undefined;
      const exchanges = handler
        ? await this.thread.post({
            handler,
            deliveries: run.map((d) => ({ body: d.payload, eventId: d.event_id })),
            allowed: await allowedOutboundHosts(db, this.app.config.outboundAllowedHosts),
            proxy: await outboundProxy(db, handler.proxy ?? ''),
            tls: await outboundTls(db),
            // the run ends within the task's lease: a post started before this ends before it runs out
            startBefore: Date.now() + WORK_LEASE_MS - ATTEMPT_TIMEOUT_MS,
          })
        : [missingHandler(run[0]!)];
      const settled = exchanges.map((exchange, i) => this.settlement(run[i]!, exchange, handler !== undefined));
      // recorded only while the task is still this node's (a node that took it over sends them itself)
      await settleAttempts(db, settled, (trx) => task.hold(undefined, trx));
      for (const { state } of settled) {
        this.app.metrics.webhookDelivery(state === 'pending' ? 'retrying' : state);
      }
    }
  }

  /** What an attempt of a delivery comes to: delivered, due again after a backoff, or failed. */
  private settlement(delivery: DeliveryRow, exchange: Exchange, handlerExists: boolean): Settlement {
    const attempt = delivery.attempts + 1;
    const delivered = exchange.status !== null && exchange.status >= 200 && exchange.status < 300;
    const expired = !handlerExists || exchange.at - Number(delivery.created_at) >= RETRY_WINDOW_MS;
    return {
      delivery,
      attempt: {
        id: randomUUID(),
        delivery_id: delivery.id,
        attempt,
        at: exchange.at,
        duration_ms: exchange.durationMs,
        status: exchange.status,
        error: exchange.error,
        request: JSON.stringify(exchange.request),
        response: exchange.response ? JSON.stringify(exchange.response) : null,
      },
      ...(delivered
        ? { state: 'delivered' as const, nextAttemptAt: exchange.at }
        : expired
          ? { state: 'failed' as const, nextAttemptAt: exchange.at }
          : {
              state: 'pending' as const,
              nextAttemptAt: exchange.at + backoff(attempt, this.app.config.webhookRetryMaxMs),
            }),
    };
  }
}

/** The attempt of a delivery whose handler was removed from its webhook: it fails at once. */
function missingHandler(delivery: DeliveryRow): Exchange {
  return {
    request: { url: delivery.url, headers: {}, body: delivery.payload },
    response: null,
    status: null,
    error: 'The webhook no longer has this handler.',
    durationMs: 0,
    at: Date.now(),
  };
}

/**
 * Webhooks with the server: the outbox consumer that makes deliveries, the sender, and the daily
 * pruning of the delivery log. The consumer and the queues are tasks of the work kernel, run by
 * whichever node holds them.
 */
export function registerWebhookDelivery(app: FastifyInstance): WebhookDelivery {
  const sender = new WebhookSender(app);
  const consumer = new OutboxConsumer(
    app,
    WEBHOOKS_CONSUMER,
    async (event) => {
      const made = await dispatch(app, event);
      for (const queue of made) sender.queue(queue);
    },
    { pollMs: POLL_MS, wakeOnRecord: true },
  ).register();
  app.addHook('onReady', async () => {
    if (app.polls) await sender.start();
  });
  app.addHook('onClose', async () => sender.stop());
  app.jobs.register('webhook-log-retention', '23 3 * * *', async () => {
    const removed = await pruneWebhookLog(app.db, Date.now() - LOG_RETENTION_DAYS * 86_400_000);
    if (removed) app.log.info({ removed }, 'webhook deliveries past retention removed');
    // a queue whose task gave up (its node kept failing) is sent again
    await sender.wake();
  });
  return { sender, consumer };
}

/** Webhook delivery: the outbox consumer that makes deliveries and the sender. */
export interface WebhookDelivery {
  sender: WebhookSender;
  consumer: OutboxConsumer;
}
