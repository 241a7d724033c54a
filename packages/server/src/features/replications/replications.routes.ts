import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REPLICATION_MESSAGES,
  heldContentsAnswerSchema,
  heldContentsBodySchema,
  replicationBodySchema,
  replicationRunSchema,
  replicationRunsQuerySchema,
  replicationSchema,
} from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import { storedContents } from '../artifacts/index.js';
import { encodeManifest, localManifest } from './replications.manifest.js';
import {
  createReplication,
  deleteReplication,
  getReplication,
  listReplications,
  listRuns,
  runOutput,
  startRun,
  updateReplication,
} from './replications.service.js';

const admin = { access: 'admin' as const };
const keyParams = z.object({ key: z.string().max(64) });

/** What another deployment replicating with this one asks: a local repository's manifest. */
export const replicationManifestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/artifactory/api/replication/manifest/:repoKey',
    { config: admin, schema: { params: z.object({ repoKey: z.string().max(64) }) } },
    async (request, reply) => {
      const repo = await app.db
        .selectFrom('repositories')
        .select('rclass')
        .where('key', '=', request.params.repoKey)
        .executeTakeFirst();
      if (repo?.rclass !== 'local') throw notFound(REPLICATION_MESSAGES.notLocal);
      const manifest = await localManifest(app.db, request.params.repoKey);
      return reply.type('application/gzip').send(encodeManifest(manifest.values()));
    },
  );
  app.post(
    '/artifactory/api/replication/contents',
    {
      config: admin,
      schema: {
        summary: 'Which of these contents (by SHA-256) this deployment holds',
        body: heldContentsBodySchema,
        response: { 200: heldContentsAnswerSchema },
      },
    },
    async (request) => ({ held: [...(await storedContents(app.db, request.body.sha256))] }),
  );
};

/** The console's replications (`mc/api/v1/replications`). */
export const replicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/mc/api/v1/replications';
  app.get(base, { config: admin, schema: { response: { 200: z.array(replicationSchema) } } }, () =>
    listReplications(app),
  );
  app.post(
    base,
    { config: admin, schema: { body: replicationBodySchema, response: { 201: replicationSchema } } },
    async (request, reply) => reply.status(201).send(await createReplication(request, request.body)),
  );
  app.get(
    `${base}/runs`,
    {
      config: admin,
      schema: { querystring: replicationRunsQuerySchema, response: { 200: z.array(replicationRunSchema) } },
    },
    (request) => listRuns(app, request.query),
  );
  app.get(
    `${base}/runs/:id`,
    {
      config: admin,
      schema: {
        params: z.object({ id: z.string().max(100) }),
        response: { 200: z.object({ run: replicationRunSchema, output: z.string() }) },
      },
    },
    (request) => runOutput(app, request.params.id),
  );
  app.get(
    `${base}/:key`,
    { config: admin, schema: { params: keyParams, response: { 200: replicationSchema } } },
    (request) => getReplication(app, request.params.key),
  );
  app.put(
    `${base}/:key`,
    { config: admin, schema: { params: keyParams, body: replicationBodySchema, response: { 200: replicationSchema } } },
    (request) => updateReplication(request, request.params.key, request.body),
  );
  app.delete(`${base}/:key`, { config: admin, schema: { params: keyParams } }, async (request) => {
    await deleteReplication(request, request.params.key);
    return { message: REPLICATION_MESSAGES.deleted };
  });
  app.post(
    `${base}/:key/run`,
    {
      config: admin,
      schema: { params: keyParams, response: { 200: z.object({ message: z.string(), run_id: z.string() }) } },
    },
    (request) => startRun(request, request.params.key),
  );
};
