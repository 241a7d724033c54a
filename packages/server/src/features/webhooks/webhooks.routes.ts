import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_MASK,
  formatMessage,
  webhookAnswerSchema,
  webhookDeliveriesPageSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryDetailSchema,
  webhookDomainsAnswer,
  webhookDomainsAnswerSchema,
  webhookSubscriptionSchema,
  webhookTestAnswerSchema,
  webhookUpdateSchema,
  type WebhookDomain,
} from '@arca/contracts';
import { auditActor } from '../../core/audit.js';
import { HttpError, notFound } from '../../core/errors.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { outboundProxy } from '../../core/proxies.js';
import { outboundTls } from '../../core/certificates.js';
import { originOf, payloadOf, type WebhookSender } from './webhooks.delivery.js';
import { post } from './webhooks.send.js';
import {
  checkReceiver,
  createWebhook,
  openHandlers,
  removeWebhook,
  replaceWebhook,
  webhookAnswer,
  webhookAnswers,
} from './webhooks.service.js';
import { attemptsOf, deliveriesPage, findDelivery, findWebhook, resendDeliveries } from './webhooks.store.js';
import { attemptAnswer, deliveryAnswer } from './webhooks.answers.js';

const keyParams = z.object({ key: z.string().min(1).max(64) });

const RECEIVED_DUMMY = {
  release_bundle_name: 'example-bundle',
  release_bundle_version: '1.0.0',
  project_key: 'default',
  source: 'https://arca.example',
};

/** What the dummy event of a test carries, per domain. */
const DUMMY_DATA: Record<WebhookDomain, Record<string, unknown>> = {
  artifact: { repo_key: 'example-repo-local', path: 'example/file.txt', name: 'file.txt', size: 0, sha256: '' },
  artifact_property: {
    repo_key: 'example-repo-local',
    path: 'example/file.txt',
    name: 'file.txt',
    property_key: 'example',
    property_values: ['value'],
  },
  docker: { repo_key: 'docker-local', path: 'example/latest/manifest.json', image_name: 'example', tag: 'latest' },
  build: { build_name: 'example-build', build_number: '1', build_started: new Date(0).toISOString() },
  repository: { repo_key: 'example-repo-local', repo_type: 'local', package_type: 'generic' },
  user: { name: 'example-user' },
  release_bundle: { release_bundle_name: 'example-bundle', release_bundle_version: '1.0.0', project_key: 'default' },
  artifactory_release_bundle: RECEIVED_DUMMY,
  destination: RECEIVED_DUMMY,
  distribution: {
    release_bundle_name: 'example-bundle',
    release_bundle_version: '1.0.0',
    project_key: 'default',
    type: 'distribute',
    status: 'completed',
    edge_node_info_list: [{ site_name: 'example', status: 'completed' }],
  },
  security: {
    watch_name: 'example-watch',
    policy_name: 'example-policy',
    rule_name: 'example-rule',
    type: 'security',
    issue_id: 'EXAMPLE-0001',
    cves: [],
    severity: 'Low',
    summary: 'An example violation',
    fixed_versions: [],
    repo_key: 'example-repo-local',
    path: 'example/-/example-1.0.0.tgz',
    package_type: 'npm',
    package_name: 'example',
    package_version: '1.0.0',
    component: '',
  },
};

/**
 * Webhook subscriptions as JFrog's Event service API has them (scripts and Terraform call
 * `/event/api/v1/…`; the console the same calls under its API base), and the delivery log:
 * every delivery with its attempts, re-sent one at a time or all failed ones at once.
 * Administrators only.
 */
export const webhooksRoutes: FastifyPluginAsyncZod<{ sender: WebhookSender }> = async (app, { sender }) => {
  const { db } = app;

  app.get(
    '/domains',
    {
      schema: {
        summary: 'The webhook domains, each with its event types and an example body a receiver gets for each',
        response: { 200: webhookDomainsAnswerSchema },
      },
    },
    () => webhookDomainsAnswer(originOf(app)),
  );

  app.get('/subscriptions', { schema: { response: { 200: z.array(webhookAnswerSchema) } } }, () => webhookAnswers(db));

  app.post(
    '/subscriptions',
    { schema: { body: webhookSubscriptionSchema, response: { 201: webhookAnswerSchema } } },
    async (request, reply) => {
      await createWebhook(app, auditActor(request), request.body);
      return reply.status(201).send(await webhookAnswer(db, request.body.key));
    },
  );

  /** Sends a dummy event of the form's domain to its first handler, saved or not. */
  app.post(
    '/subscriptions/test',
    {
      schema: {
        body: webhookSubscriptionSchema.extend({ key: z.string().max(64).optional() }),
        response: { 200: webhookTestAnswerSchema },
      },
    },
    async (request) => {
      const { key, event_filter: filter, handlers } = request.body;
      let handler = handlers[0]!;
      let secret = handler.secret;
      if (secret === WEBHOOK_SECRET_MASK) {
        // the stored secret is sent only where it was stored for: the stored handler's own URL
        const stored = key ? await findWebhook(db, key) : undefined;
        const opened = stored ? (await openHandlers(db, stored))[0] : undefined;
        secret = opened?.secret;
        if (opened) handler = { ...handler, url: opened.url };
      }
      await checkReceiver(app, handler.url);
      const body = JSON.stringify(
        payloadOf(
          app,
          key || 'test',
          randomUUID(),
          { domain: filter.domain, eventType: filter.event_types[0]!, data: DUMMY_DATA[filter.domain] },
          auditActor(request).actor,
        ),
      );
      const sent = await post(
        { ...handler, ...(secret ? { secret } : { secret: undefined }) },
        body,
        'test',
        await allowedOutboundHosts(db, app.config.outboundAllowedHosts),
        await outboundProxy(db, handler.proxy ?? ''),
        await outboundTls(db),
      );
      if (sent.status === null) throw new HttpError(504, WEBHOOK_MESSAGES.testUnreachable, 'RECEIVER_UNREACHABLE');
      if (sent.status < 200 || sent.status >= 300)
        throw new HttpError(502, WEBHOOK_MESSAGES.testFailed, `RECEIVER_STATUS_${sent.status}`);
      return { status: sent.status, message: WEBHOOK_MESSAGES.testSent };
    },
  );

  app.get('/subscriptions/:key', { schema: { params: keyParams, response: { 200: webhookAnswerSchema } } }, (request) =>
    webhookAnswer(db, request.params.key),
  );

  app.put(
    '/subscriptions/:key',
    { schema: { params: keyParams, body: webhookUpdateSchema, response: { 200: webhookAnswerSchema } } },
    async (request) => {
      // the key in the address names the subscription; one in the body is ignored
      const { key: _ignored, ...body } = request.body;
      await replaceWebhook(app, auditActor(request), request.params.key, body);
      // enabled again, its waiting deliveries go out
      await sender.wake(request.params.key);
      return webhookAnswer(db, request.params.key);
    },
  );

  app.delete('/subscriptions/:key', { schema: { params: keyParams } }, async (request, reply) => {
    await removeWebhook(app, auditActor(request), request.params.key);
    return reply.status(204).send();
  });

  app.get(
    '/subscriptions/:key/deliveries',
    {
      schema: {
        params: keyParams,
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: webhookDeliveriesPageSchema },
      },
    },
    async (request) => {
      if (!(await findWebhook(db, request.params.key)))
        throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: request.params.key }));
      const page = await deliveriesPage(db, request.params.key, request.query);
      return { total: page.total, deliveries: page.rows.map(deliveryAnswer) };
    },
  );

  app.get(
    '/subscriptions/:key/deliveries/:id',
    {
      schema: {
        params: keyParams.extend({ id: z.string().max(64) }),
        response: { 200: webhookDeliveryDetailSchema },
      },
    },
    async (request) => {
      const delivery = await findDelivery(db, request.params.key, request.params.id);
      if (!delivery) throw notFound('The delivery was not found.');
      return {
        ...deliveryAnswer(delivery),
        payload: delivery.payload,
        attemptsLog: (await attemptsOf(db, delivery.id)).map(attemptAnswer),
      };
    },
  );

  app.post(
    '/subscriptions/:key/deliveries/:id/resend',
    {
      schema: {
        params: keyParams.extend({ id: z.string().max(64) }),
        response: { 200: z.object({ message: z.string(), count: z.number() }) },
      },
    },
    async (request) => {
      const count = await resendDeliveries(db, request.params.key, Date.now(), request.params.id);
      if (!count) throw notFound('The delivery was not found.');
      await sender.wake(request.params.key);
      return { message: WEBHOOK_MESSAGES.resent, count };
    },
  );

  /** Sends every failed delivery of the webhook again, in event order. */
  app.post(
    '/subscriptions/:key/deliveries/resend',
    { schema: { params: keyParams, response: { 200: z.object({ message: z.string(), count: z.number() }) } } },
    async (request) => {
      if (!(await findWebhook(db, request.params.key)))
        throw notFound(formatMessage(WEBHOOK_MESSAGES.notFound, { name: request.params.key }));
      const count = await resendDeliveries(db, request.params.key, Date.now());
      await sender.wake(request.params.key);
      return { message: formatMessage(WEBHOOK_MESSAGES.resentFailed, { count: String(count) }), count };
    },
  );
};
