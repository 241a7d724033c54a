import dns from 'node:dns/promises';
import net from 'node:net';
import {
  REPOSITORY_DOMAINS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_MASK,
  buildCriteriaSchema,
  RELEASE_BUNDLE_DOMAINS,
  releaseBundleCriteriaSchema,
  formatMessage,
  repositoryCriteriaSchema,
  type WebhookAnswer,
  type WebhookDomain,
  type WebhookHandler,
  type WebhookSubscription,
} from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import { OutboundRefused, checkOutboundUrl, isBlockedAddress, allowedByName } from '../../core/outbound.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { findProxy } from '../../core/proxies.js';
import type { Db } from '../../db/database.js';
import { findRepository } from '../repositories/index.js';
import {
  deleteWebhook,
  findWebhook,
  findWebhookAnyCase,
  insertWebhook,
  lastDeliveries,
  listWebhooks,
  updateWebhook,
  type WebhookRow,
} from './webhooks.store.js';

/** A handler as stored: its secret sealed for the webhook. */
interface StoredHandler extends Omit<WebhookHandler, 'secret'> {
  sealedSecret?: string;
}

const sealContext = (key: string) => `webhook:${key}`;

/** The handlers of a stored subscription with their secrets opened, for sending. */
export async function openHandlers(db: Db, row: WebhookRow): Promise<WebhookHandler[]> {
  const stored = JSON.parse(row.handlers) as StoredHandler[];
  const handlers: WebhookHandler[] = [];
  for (const { sealedSecret, ...handler } of stored) {
    const secret = sealedSecret ? await unseal(db, sealContext(row.key), sealedSecret) : undefined;
    handlers.push({ ...handler, ...(secret ? { secret } : {}) });
  }
  return handlers;
}

// the handlers' secrets and the values of their custom headers (often an API key of the receiver)
registerSecretSource('webhooks', async (db) => {
  const secrets: string[] = [];
  for (const row of await db.selectFrom('webhooks').selectAll().execute()) {
    for (const handler of await openHandlers(db, row)) {
      if (handler.secret) secrets.push(handler.secret);
      for (const header of handler.custom_http_headers ?? []) secrets.push(header.value);
    }
  }
  return secrets;
});

/** A subscription as answered: secrets masked, with its newest delivery. */
export function answerOf(row: WebhookRow, last: WebhookAnswer['last_delivery']): WebhookAnswer {
  const stored = JSON.parse(row.handlers) as StoredHandler[];
  return {
    key: row.key,
    description: row.description,
    enabled: row.enabled === 1,
    event_filter: {
      domain: row.domain,
      event_types: JSON.parse(row.event_types) as string[],
      criteria: JSON.parse(row.criteria) as Record<string, unknown>,
    },
    handlers: stored.map(({ sealedSecret, ...handler }) => ({
      handler_type: 'webhook' as const,
      url: handler.url,
      ...(sealedSecret ? { secret: WEBHOOK_SECRET_MASK } : {}),
      use_secret_for_signing: handler.use_secret_for_signing,
      ...(handler.proxy ? { proxy: handler.proxy } : {}),
      custom_http_headers: handler.custom_http_headers,
    })),
    created_at: new Date(Number(row.created_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
    last_delivery: last,
  };
}

export async function webhookAnswers(db: Db): Promise<WebhookAnswer[]> {
  const last = await lastDeliveries(db);
  return (await listWebhooks(db)).map((row) => {
    const newest = last.get(row.key);
    return answerOf(
      row,
      newest ? { state: newest.state, status: newest.status, at: new Date(newest.at).toISOString() } : null,
    );
  });
}

export async function webhookAnswer(db: Db, key: string): Promise<WebhookAnswer> {
  const row = await findWebhook(db, key);
  if (!row) throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: key }));
  const newest = (await lastDeliveries(db)).get(row.key);
  return answerOf(
    row,
    newest ? { state: newest.state, status: newest.status, at: new Date(newest.at).toISOString() } : null,
  );
}

/**
 * Checks a receiver's address against the outbound policy remote repositories obey: a loopback,
 * link-local or metadata address — literal, or what the name resolves to now — is refused unless
 * the allow-list names the host. Delivery checks again on every connection and redirect.
 */
export async function checkReceiver(app: FastifyInstance, raw: string): Promise<void> {
  const allowed = await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts);
  let url: URL;
  try {
    url = checkOutboundUrl(raw, allowed);
  } catch (error) {
    if (error instanceof OutboundRefused) throw badRequest(error.message, 'handlers.0.url');
    throw error;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) || allowedByName(url, allowed)) return;
  const addresses = await dns.lookup(host, { all: true }).catch(() => []);
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  if (blocked)
    throw badRequest(
      `'${host}' resolves to ${blocked.address}, a loopback or link-local address, which outbound requests may not reach.`,
      'handlers.0.url',
    );
}

/** Normalises the criteria for the domain; refuses repositories that do not exist. */
async function criteriaFor(db: Db, domain: WebhookDomain, criteria: Record<string, unknown>) {
  if (REPOSITORY_DOMAINS.includes(domain)) {
    const parsed = repositoryCriteriaSchema.parse(criteria);
    for (const key of parsed.repoKeys)
      if (!(await findRepository(db, key)))
        throw badRequest(formatMessage(WEBHOOK_MESSAGES.repositoryUnknown, { name: key }), 'event_filter.criteria');
    return parsed;
  }
  if (domain === 'build') return buildCriteriaSchema.parse(criteria);
  if (RELEASE_BUNDLE_DOMAINS.includes(domain)) return releaseBundleCriteriaSchema.parse(criteria);
  return {};
}

/** The handlers to store: URLs checked, proxies that exist, secrets sealed or kept. */
async function storedHandlers(
  app: FastifyInstance,
  key: string,
  handlers: WebhookHandler[],
  previous: StoredHandler[],
): Promise<StoredHandler[]> {
  const stored: StoredHandler[] = [];
  for (const [index, { secret, ...handler }] of handlers.entries()) {
    if (handler.proxy && !(await findProxy(app.db, handler.proxy))) {
      throw badRequest(formatMessage(WEBHOOK_MESSAGES.proxyUnknown, { name: handler.proxy }));
    }
    await checkReceiver(app, handler.url);
    // the stored secret stays only with the address it was given for: a new URL needs it again
    const before = previous[index];
    const kept = secret === WEBHOOK_SECRET_MASK && before?.url === handler.url ? before.sealedSecret : undefined;
    const sealedSecret =
      kept ?? (secret && secret !== WEBHOOK_SECRET_MASK ? await seal(app.db, sealContext(key), secret) : undefined);
    stored.push({ ...handler, ...(sealedSecret ? { sealedSecret } : {}) });
  }
  return stored;
}

const auditView = (
  row: Pick<WebhookRow, 'description' | 'enabled' | 'domain' | 'event_types' | 'criteria' | 'handlers'>,
) => ({
  description: row.description,
  enabled: row.enabled === 1,
  domain: row.domain,
  event_types: JSON.parse(row.event_types) as unknown,
  criteria: JSON.parse(row.criteria) as unknown,
  urls: (JSON.parse(row.handlers) as StoredHandler[]).map((h) => h.url),
});

export async function createWebhook(app: FastifyInstance, who: ChangeActor, body: WebhookSubscription): Promise<void> {
  const { db } = app;
  if (await findWebhookAnyCase(db, body.key)) throw new HttpError(409, WEBHOOK_MESSAGES.nameExists, undefined, 'key');
  const criteria = await criteriaFor(db, body.event_filter.domain, body.event_filter.criteria);
  const handlers = await storedHandlers(app, body.key, body.handlers, []);
  const now = Date.now();
  const row: WebhookRow = {
    key: body.key,
    description: body.description,
    enabled: body.enabled ? 1 : 0,
    domain: body.event_filter.domain,
    event_types: JSON.stringify(body.event_filter.event_types),
    criteria: JSON.stringify(criteria),
    handlers: JSON.stringify(handlers),
    created_at: now,
    created_by: who.actor,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await insertWebhook(trx, row);
    await recordChange(trx, who, {
      audit: { category: 'webhook', action: 'create', target: body.key, after: auditView(row) },
    });
  });
}

export async function replaceWebhook(
  app: FastifyInstance,
  who: ChangeActor,
  key: string,
  body: Omit<WebhookSubscription, 'key'>,
): Promise<void> {
  const { db } = app;
  const before = await findWebhook(db, key);
  if (!before) throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: key }));
  const criteria = await criteriaFor(db, body.event_filter.domain, body.event_filter.criteria);
  const handlers = await storedHandlers(app, key, body.handlers, JSON.parse(before.handlers) as StoredHandler[]);
  const next = {
    description: body.description,
    enabled: body.enabled ? 1 : 0,
    domain: body.event_filter.domain,
    event_types: JSON.stringify(body.event_filter.event_types),
    criteria: JSON.stringify(criteria),
    handlers: JSON.stringify(handlers),
    updated_at: Date.now(),
  };
  await db.transaction().execute(async (trx) => {
    await updateWebhook(trx, key, next);
    await recordChange(trx, who, {
      audit: { category: 'webhook', action: 'update', target: key, before: auditView(before), after: auditView(next) },
    });
  });
}

/** Turns a subscription on or off (the list's switch), keeping the rest as it is. */
export async function setWebhookEnabled(app: FastifyInstance, who: ChangeActor, key: string, enabled: boolean) {
  const { db } = app;
  const before = await findWebhook(db, key);
  if (!before) throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: key }));
  await db.transaction().execute(async (trx) => {
    await updateWebhook(trx, key, { ...before, enabled: enabled ? 1 : 0, updated_at: Date.now() });
    await recordChange(trx, who, {
      audit: { category: 'webhook', action: enabled ? 'enable' : 'disable', target: key },
    });
  });
}

export async function removeWebhook(app: FastifyInstance, who: ChangeActor, key: string): Promise<void> {
  const { db } = app;
  const before = await findWebhook(db, key);
  if (!before) throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: key }));
  await db.transaction().execute(async (trx) => {
    await deleteWebhook(trx, key);
    await recordChange(trx, who, {
      audit: { category: 'webhook', action: 'delete', target: key, before: auditView(before) },
    });
  });
}

/** The proxies webhook handlers name, with their webhook. */
export async function webhooksUsingProxy(db: Db): Promise<{ proxy: string; webhook: string }[]> {
  const found: { proxy: string; webhook: string }[] = [];
  for (const row of await listWebhooks(db)) {
    for (const handler of JSON.parse(row.handlers) as StoredHandler[]) {
      if (handler.proxy) found.push({ proxy: handler.proxy, webhook: row.key });
    }
  }
  return found;
}
