import os from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  REPOSITORY_DOMAINS,
  buildCriteriaSchema,
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
import {
  claimDeliveries,
  pendingQueues,
  currentWebhooks,
  enabledWebhooks,
  findWebhook,
  insertDeliveries,
  pruneWebhookLog,
  queueFront,
  releaseDeliveryLeases,
  settleAttempts,
  type DeliveryRow,
  type Settlement,
  type WebhookRow,
} from './webhooks.store.js';

/** The outbox consumer that turns events into deliveries. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** How often the outbox and the delivery queues are looked at when nothing woke them. */
const POLL_MS = 250;
/** A delivery is tried again for this long after its event, then marked failed (and stays re-sendable). */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** How long a sender holds a delivery: one attempt's time and a margin. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 15_000;
/** The wait before the second attempt; it doubles with each failure up to the configured longest. */
const FIRST_RETRY_MS = 1000;
/** How soon a wake looks for due deliveries: the dispatches of a burst make one pass. */
const WAKE_MS = 20;
/** Deliveries of one queue taken and settled together. */
const BATCH = 50;
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
export async function dispatch(app: FastifyInstance, event: StoredEvent): Promise<number> {
  const hooks = await currentWebhooks(app.db);
  if (!hooks.length) return 0;
  const described = await domainEventsOf(app, event);
  const rows: DeliveryRow[] = [];
  const now = Date.now();
  described.forEach((d, index) => {
    const eventId = index === 0 ? event.id : `${event.id}-${index}`;
    for (const hook of hooks) {
      // a subscription hears what happens from its making on, however late an event is taken
      if (event.createdAt < Number(hook.created_at)) continue;
      if (hook.domain !== d.domain || !(JSON.parse(hook.event_types) as string[]).includes(d.eventType)) continue;
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
          lease_until: 0,
          holder: null,
          created_at: event.createdAt,
          settled_at: null,
          last_status: null,
          last_error: null,
        }),
      );
    }
  });
  await insertDeliveries(app.db, rows);
  return rows.length;
}

/** The wait after `attempts` failures: doubling from a second up to the configured longest, with jitter. */
export function backoff(attempts: number, maxMs: number, random = Math.random()): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), maxMs);
  return Math.round(ceiling * (0.5 + random / 2));
}

/**
 * Sends deliveries. Each handler's queue is worked by one loop at a time, in event order: the
 * head is leased, posted, and settled (delivered; or due again after a backoff; or failed a day
 * after its event), then the next head follows at once. Queues run side by side, so a slow or
 * dead receiver holds up only its own. Runs on the node's polling process; leases keep nodes apart.
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private readonly busy = new Set<string>();
  private readonly loops = new Set<Promise<void>>();
  private passing: Promise<void> | undefined;
  private again = false;
  private soon: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly thread = new PostingThread();

  constructor(private readonly app: FastifyInstance) {}

  /** Starts sending; the posting thread starts now when a webhook is enabled, else with the first delivery. */
  async start(): Promise<void> {
    if ((await enabledWebhooks(this.app.db)).length) this.thread.start();
    this.timer = setInterval(() => this.pass_(), POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.soon);
    await this.passing?.catch(() => undefined);
    await this.thread.stop(Promise.allSettled([...this.loops]));
  }

  /**
   * Looks for due deliveries soon (after a dispatch, a re-send) rather than at the next poll; the
   * wakes of a burst of dispatches make one pass.
   */
  wake(): void {
    if (this.stopped || this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.pass_();
    }, WAKE_MS);
  }

  private pass_(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = this.pass()
      .catch((error: unknown) => this.app.log.warn({ err: error }, 'webhooks: a send pass failed'))
      .finally(() => {
        this.passing = undefined;
        if (this.again) {
          this.again = false;
          this.pass_();
        }
      });
  }

  /** Sends what is due and answers when every queue it started is idle again (tests, shutdown). */
  async drain(): Promise<void> {
    for (;;) {
      this.pass_();
      await this.passing;
      await Promise.allSettled([...this.loops]);
      const now = Date.now();
      let due = false;
      for (const queue of await pendingQueues(this.app.db)) {
        const [front] = await queueFront(this.app.db, queue.webhook_key, queue.handler, 1);
        if (
          front &&
          Number(front.next_attempt_at) <= now &&
          Number(front.lease_until) < now &&
          !this.busy.has(queueOf(front))
        )
          due = true;
      }
      if (!due) return;
    }
  }

  private async pass(): Promise<void> {
    // the thread is up as soon as a webhook is (its start takes a moment the first deliveries should not wait)
    if (!this.thread.running && (await enabledWebhooks(this.app.db)).length) this.thread.start();
    for (const queue of await pendingQueues(this.app.db)) {
      const key = queueOf(queue);
      if (this.busy.has(key)) continue;
      this.busy.add(key);
      const loop = this.work(queue)
        .catch((error: unknown) =>
          this.app.log.warn({ err: error, webhook: queue.webhook_key }, 'webhooks: a send failed'),
        )
        .finally(() => {
          this.busy.delete(key);
          this.loops.delete(loop);
        });
      this.loops.add(loop);
    }
  }

  /**
   * Works one handler's queue: takes its front (up to BATCH due deliveries, in event order),
   * posts them one after another and settles them together; the first that fails ends the batch
   * (it waits for its backoff, and everything behind it with it). Then the next front, until the
   * queue is empty or waits.
   */
  private async work(head: { webhook_key: string; handler: number }): Promise<void> {
    const { db, nodeId } = this.app;
    while (!this.stopped) {
      const now = Date.now();
      const front = await queueFront(db, head.webhook_key, head.handler, BATCH);
      // only an unbroken run from the front: a delivery that waits (or is held) holds back those behind it
      const waiting = front.findIndex((d) => Number(d.next_attempt_at) > now || Number(d.lease_until) >= now);
      const run = waiting < 0 ? front : front.slice(0, waiting);
      if (!run.length) return;
      if (
        !(await claimDeliveries(
          db,
          run.map((d) => d.id),
          nodeId,
          now,
          LEASE_MS,
        ))
      )
        return;
      const hook = await findWebhook(db, head.webhook_key);
      const handler = hook ? (await openHandlers(db, hook))[head.handler] : undefined;
      let exchanges: Exchange[];
      try {
        exchanges = handler
          ? await this.thread.post({
              handler,
              deliveries: run.map((d) => ({ body: d.payload, eventId: d.event_id })),
              allowed: await allowedOutboundHosts(db, this.app.config.outboundAllowedHosts),
              proxy: await outboundProxy(db, handler.proxy ?? ''),
              tls: await outboundTls(db),
              // the run ends within its lease: a post started before this ends before it runs out
              startBefore: now + LEASE_MS - ATTEMPT_TIMEOUT_MS,
            })
          : [missingHandler(run[0]!)];
      } catch (error) {
        await settleAttempts(
          db,
          [],
          run.map((d) => d.id),
        );
        throw error;
      }
      const settled = exchanges.map((exchange, i) => this.settlement(run[i]!, exchange, handler !== undefined));
      await settleAttempts(
        db,
        settled,
        run.slice(settled.length).map((d) => d.id),
      );
      for (const { state } of settled) {
        this.app.metrics.webhookDelivery(state === 'pending' ? 'retrying' : state);
      }
      if (!hook || settled.length < run.length || settled.some((s) => s.state !== 'delivered')) return;
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

const queueOf = (d: { webhook_key: string; handler: number }) => `${d.webhook_key}\u0000${d.handler}`;

/**
 * Webhooks with the server: the outbox consumer that makes deliveries, the sender, and the daily
 * pruning of the delivery log. The polling process of each node dispatches and sends; a restart
 * releases what this node held, so nothing waits for a lease to run out.
 */
export function registerWebhookDelivery(app: FastifyInstance): WebhookSender {
  const sender = new WebhookSender(app);
  const consumer = new OutboxConsumer(
    app,
    WEBHOOKS_CONSUMER,
    async (event) => {
      if ((await dispatch(app, event)) > 0) sender.wake();
    },
    { pollMs: POLL_MS, wakeOnRecord: true },
  ).register();
  app.addHook('onReady', async () => {
    if (!app.polls) return;
    await releaseDeliveryLeases(app.db, app.nodeId);
    await sender.start();
  });
  app.addHook('onClose', async () => sender.stop());
  app.jobs.register('webhook-log-retention', '23 3 * * *', async () => {
    const removed = await pruneWebhookLog(app.db, Date.now() - LOG_RETENTION_DAYS * 86_400_000);
    if (removed) app.log.info({ removed }, 'webhook deliveries past retention removed');
  });
  app.decorate('webhooks', { sender, consumer });
  return sender;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Webhook delivery: the outbox consumer that makes deliveries and the sender. */
    webhooks: { sender: WebhookSender; consumer: OutboxConsumer };
  }
}
