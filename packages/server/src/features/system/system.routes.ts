import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SERVICE_NAMES,
  adoptionMetricBodySchema,
  featuresConfigSchema,
  haAnswerSchema,
  microservicesEnabledSchema,
  nodesAnswerSchema,
  versionSchema,
  ARTIFACTORY_API_LEVEL,
  artifactoryVersionSchema,
  jobsAnswerSchema,
  jobsQuerySchema,
  outboxAnswerSchema,
} from '@arca/contracts';
import { z } from 'zod';
import { audit } from '../../core/audit.js';
import { consumerStates, requeueDead } from '../../core/outbox.js';
import { BUILD } from '../../core/build-info.js';
import { listNodes, removeStoppedNode, servicesMap } from '../../core/nodes.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { addAdoptionMetric } from './system.store.js';

/** Features this build offers; the console gates menu entries and routes on them. */
function features(app: FastifyInstance): Record<string, boolean> {
  return {
    artifactsBrowser: false,
    projects: false,
    quickSetup: true,
    onboarding: app.config.onboarding,
    // the console's template and demo playground (/template, /demo), for those who work on it
    testedFeatures: app.config.testedFeatures,
  };
}

async function versionInfo(app: FastifyInstance) {
  return {
    version: BUILD.version,
    revision: BUILD.revision,
    addons: [...app.config.services],
    license: (await app.license.current()).edition,
  };
}

/** Version, services, nodes and adoption metrics (console base). */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/system/version', { config: { access: 'public' }, schema: { response: { 200: versionSchema } } }, () =>
    versionInfo(app),
  );

  app.get(
    '/system/ismicroserviceenabled',
    { config: { access: 'public' }, schema: { response: { 200: microservicesEnabledSchema } } },
    () => ({
      services: Object.fromEntries(SERVICE_NAMES.map((name) => [name, app.config.services.includes(name)])),
    }),
  );

  app.get(
    '/system/featuresConfig',
    { config: { access: 'public' }, schema: { response: { 200: featuresConfigSchema } } },
    () => ({ features: features(app) }),
  );

  app.post(
    '/system/adoptionMetric',
    { config: { access: 'user' }, schema: { body: adoptionMetricBodySchema } },
    async (request, reply) => {
      await addAdoptionMetric(app.db, request.body);
      return reply.status(204).send();
    },
  );

  app.get(
    '/system/status/nodes',
    { config: { access: 'admin' }, schema: { response: { 200: nodesAnswerSchema } } },
    async () => ({ nodes: await listNodes(app.db) }),
  );

  app.get(
    '/system/status/ha',
    { config: { access: 'admin' }, schema: { response: { 200: haAnswerSchema } } },
    async () => ({ services: servicesMap(await listNodes(app.db)) }),
  );

  app.get(
    '/system/outbox',
    { config: { access: 'admin' }, schema: { response: { 200: outboxAnswerSchema } } },
    async () => ({ consumers: await consumerStates(app.db) }),
  );
  // the dead events of a consumer are tried again from their first attempt
  app.post(
    '/system/outbox/:consumer/requeue',
    {
      config: { access: 'admin' },
      schema: {
        params: z.object({ consumer: z.string().min(1).max(64) }),
        body: z.object({ eventId: z.string().max(36).optional() }).nullish(),
        response: { 200: z.object({ requeued: z.number().int() }) },
      },
    },
    async (request) => {
      const requeued = await requeueDead(app.db, request.params.consumer, request.body?.eventId);
      await audit(request, {
        category: 'system',
        action: 'outbox.requeue',
        target: request.params.consumer,
        after: { requeued },
      });
      return { requeued };
    },
  );
  app.get(
    '/system/jobs',
    { config: { access: 'admin' }, schema: { querystring: jobsQuerySchema, response: { 200: jobsAnswerSchema } } },
    async (request) => ({ jobs: app.jobs.list(), runs: await app.jobs.runs(request.query) }),
  );
};

/** The Artifactory-compatible system calls that clients and load balancers probe. */
export const artifactorySystemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/artifactory/api/system/ping', { config: { access: 'public' } }, (_request, reply) =>
    reply.type('text/plain').send('OK'),
  );
  // tools gate features on Artifactory's version: they are told the API level Arca speaks, and
  // Arca's own version stays visible beside it (docs/decisions.md)
  app.get(
    '/artifactory/api/system/version',
    {
      config: { access: 'public' },
      schema: {
        summary: "Artifactory's API level (7.90.0) in `version`, Arca's own version in `arca` and X-Arca-Version",
        response: { 200: artifactoryVersionSchema },
      },
    },
    async (_request, reply) => {
      const own = await versionInfo(app);
      reply.header('x-arca-version', own.version);
      return { ...own, version: ARTIFACTORY_API_LEVEL, arca: { version: own.version, revision: own.revision } };
    },
  );
  app.get(
    '/access/api/v1/system/ping',
    { config: { access: 'public' }, schema: { summary: 'The access service answers OK (text)' } },
    (_request, reply) => reply.type('text/plain').send('OK'),
  );
  app.get('/healthz', { config: { access: 'public' } }, (_request, reply) => reply.type('text/plain').send('OK'));
};

/**
 * The topology call the Service Status page uses (spec part 2 §7.6): removes a node that stopped
 * answering; a running node is refused. Mounted where scripts call it and under the console's API base.
 */
export const topologyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.delete(
    '/topology/:serviceId/:nodeId',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Removes a node that stopped from the topology (409 while it runs)',
        params: z.object({ serviceId: z.string().min(1).max(300), nodeId: z.string().min(1).max(256) }),
      },
    },
    async (request, reply) => {
      const { nodeId, serviceId } = request.params;
      await removeStoppedNode(app.db, nodeId, (trx, node) =>
        recordChange(trx, auditActor(request), {
          audit: {
            category: 'system',
            action: 'node.removed',
            target: nodeId,
            before: { service: serviceId, host: node.host, version: node.version },
          },
        }),
      );
      return reply.status(204).send();
    },
  );
};
