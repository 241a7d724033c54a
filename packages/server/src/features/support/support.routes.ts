import fs from 'node:fs';
import {
  supportBundleBodySchema,
  supportBundleSchema,
  supportBundlesAnswerSchema,
  type SupportBundleService,
} from '@arca/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActor } from '../../core/audit.js';
import { requireNodeCall } from '../../core/node-calls.js';
import { BundleMaker, bundleFile, deleteBundle, listBundles, ownBundleFile, pruneBundles } from './support.service.js';

const idParams = z.object({ id: z.string().uuid('Unknown support bundle.') });

function create(
  maker: BundleMaker,
  request: FastifyRequest,
  body: z.infer<typeof supportBundleBodySchema>,
  service?: SupportBundleService,
) {
  return maker.create(auditActor(request), {
    name: body.name,
    description: body.description,
    service: service ?? body.service,
    parameters: body.parameters,
  });
}

/** The support zone's calls (spec part 2 §7.14), under the console's API base: administrators only. */
export const supportRoutes: FastifyPluginAsyncZod<{ maker: BundleMaker }> = async (app, { maker }) => {
  app.get(
    '/ui/userSupport/listBundles',
    { config: { access: 'admin' }, schema: { response: { 200: supportBundlesAnswerSchema } } },
    async () => {
      const bundles = await listBundles(app);
      return { count: bundles.length, bundles };
    },
  );
  app.post(
    '/ui/userSupport/generateBundle',
    { config: { access: 'admin' }, schema: { body: supportBundleBodySchema, response: { 202: supportBundleSchema } } },
    async (request, reply) => reply.status(202).send(await create(maker, request, request.body)),
  );
  app.delete(
    '/ui/userSupport/deleteBundle/:id',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request, reply) => {
      await deleteBundle(app, auditActor(request), request.params.id);
      return reply.status(204).send();
    },
  );
  app.get(
    '/ui/userSupport/downloadBundle/:id',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request, reply) => {
      const found = await bundleFile(app, request.params.id);
      const { row } = found;
      const name = `${row.name.replace(/[^A-Za-z0-9._-]+/g, '_')}-${row.id.slice(0, 8)}.zip`;
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', String(row.size))
        .send('file' in found ? fs.createReadStream(found.file) : found.remote);
    },
  );
};

/**
 * The per-service creation call for the services Arca runs (the service comes from the path),
 * where scripts call it and under the console's API base.
 */
export const supportCreationRoutes: FastifyPluginAsyncZod<{ maker: BundleMaker }> = async (app, { maker }) => {
  for (const [prefix, service] of [
    ['/artifactory/api/system/support/bundle', 'artifactory'],
    ['/access/api/v1/system/support/bundle', 'access'],
  ] as const) {
    app.post(
      prefix,
      {
        config: { access: 'admin' },
        schema: {
          body: supportBundleBodySchema.omit({ service: true }),
          response: { 202: supportBundleSchema },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await create(maker, request, { ...request.body, service }, service)),
    );
  }
};

/** The call by which another node fetches a bundle's zip from the node that made it, sealed with the deployment's key. */
export const supportNodeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/internal/v1/support/bundles/:id/file',
    { config: { access: 'public' }, schema: { params: idParams } },
    async (request, reply) => {
      await requireNodeCall(app.db, request);
      return reply.type('application/zip').send(fs.createReadStream(await ownBundleFile(app, request.params.id)));
    },
  );
};

/**
 * Support bundles with the server: the maker on every process, bundles a stopped node left
 * unfinished marked failed, and the daily removal of old ones.
 */
export function registerSupportBundles(app: FastifyInstance): BundleMaker {
  const maker = new BundleMaker(app);
  app.addHook('onReady', async () => maker.failInterrupted());
  app.addHook('onClose', async () => maker.idle());
  app.jobs.register('support-bundle-retention', '41 4 * * *', async () => {
    const removed = await pruneBundles(app, app.config.supportBundleRetentionDays);
    if (removed) app.log.info({ removed }, 'support bundles past retention removed');
  });
  return maker;
}
