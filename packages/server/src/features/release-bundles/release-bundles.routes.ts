import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RELEASE_BUNDLE_MESSAGES,
  bundleContentAnswerSchema,
  bundleVersionParamsSchema,
  createReleaseBundleAnswerSchema,
  createReleaseBundleBodySchema,
  environmentBodySchema,
  environmentSchema,
  environmentUpdateSchema,
  formatMessage,
  lifecycleQuerySchema,
  pagingQuerySchema,
  promotionAnswerSchema,
  promotionBodySchema,
  promotionQuerySchema,
  promotionRecordsAnswerSchema,
  releaseBundleNamesAnswerSchema,
  releaseBundleVersionSchema,
  releaseBundleVersionsAnswerSchema,
  verifyAnswerSchema,
  distributeBodySchema,
  abortedTargetSchema,
  distributionTrackerSchema,
  receiveBundleBodySchema,
} from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import {
  createEnvironment,
  deleteEnvironment,
  getEnvironment,
  listEnvironments,
  updateEnvironment,
} from './release-bundles.environments.js';
import { listPromotions, promoteVersion } from './release-bundles.promotion.js';
import { abortDistribution, listTrackers, startDistribution } from './release-bundles.distribution.js';
import {
  createVersion,
  deleteVersion,
  listBundles,
  listVersions,
  readableVersion,
  receiveVersion,
  serviceIdOf,
  verifyVersion,
  versionAnswer,
  versionContent,
} from './release-bundles.service.js';
import { reachedEnvironments, versionsHolding } from './release-bundles.store.js';

const signedIn = { access: 'user' as const };
const anyone = { access: 'public' as const };
const admin = { access: 'admin' as const };
const tags = ['release lifecycle'];

/**
 * JFrog's Release Lifecycle API v2 (`/lifecycle/api/v2/…`): create, read, list, content, verify and
 * delete release bundle versions, promote them and read their promotions. Mounted at the root for
 * scripts and CI plug-ins, and under the console's base for the console.
 */
export const releaseBundlesRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/lifecycle/api/v2';

  app.post(
    `${base}/release_bundle`,
    {
      config: signedIn,
      // an artifacts source may list up to 100 000 paths
      bodyLimit: 32 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Create a release bundle version from artifacts, builds, other bundles, an AQL query or packages',
        querystring: lifecycleQuerySchema,
        body: createReleaseBundleBodySchema,
        response: { 201: createReleaseBundleAnswerSchema },
      },
    },
    async (request, reply) => {
      const signingKey = request.headers['x-jfrog-signing-key-name'];
      const answer = await createVersion(request, request.body, {
        ...(request.query.project ? { project: request.query.project } : {}),
        ...(typeof signingKey === 'string' ? { signingKey } : {}),
      });
      return reply.status(201).send(answer);
    },
  );

  app.get(
    `${base}/release_bundle/names`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'Every release bundle with its latest version',
        response: { 200: releaseBundleNamesAnswerSchema },
      },
    },
    async (request) => {
      const bundles = await listBundles(request);
      return { release_bundles: bundles, total: bundles.length };
    },
  );

  app.get(
    `${base}/release_bundle/records/:name`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'The versions of a release bundle, newest first',
        params: z.object({ name: z.string() }),
        querystring: pagingQuerySchema,
        response: { 200: releaseBundleVersionsAnswerSchema },
      },
    },
    async (request) => {
      const versions = await listVersions(request, request.params.name);
      if (!versions.length)
        throw notFound(formatMessage(RELEASE_BUNDLE_MESSAGES.nameNotFound, { name: request.params.name }));
      const { limit, offset } = request.query;
      return { release_bundles: versions.slice(offset, offset + limit), total: versions.length, limit, offset };
    },
  );

  app.get(
    `${base}/release_bundle/records/:name/:version`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'One release bundle version',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
        response: { 200: releaseBundleVersionSchema },
      },
    },
    async (request) => {
      const row = await readableVersion(request, request.params.name, request.params.version);
      const reached = await reachedEnvironments(app.db, [row.id]);
      return versionAnswer(row, serviceIdOf(request), reached.get(row.id));
    },
  );

  app.get(
    `${base}/release_bundle/records/:name/:version/content`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'The artifacts of a release bundle version, by repository and path',
        params: bundleVersionParamsSchema,
        querystring: pagingQuerySchema,
        response: { 200: bundleContentAnswerSchema },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await versionContent(request, request.params.name, request.params.version, { limit, offset });
      return { ...page, limit, offset };
    },
  );

  app.get(
    `${base}/release_bundle/records/:name/:version/verify`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'Verify a version: its manifest against its signature, its artifacts against the manifest',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
        response: { 200: verifyAnswerSchema },
      },
    },
    (request) => verifyVersion(request, request.params.name, request.params.version),
  );

  app.delete(
    `${base}/release_bundle/records/:name/:version`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Delete a release bundle version (its artifacts may then change again)',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
      },
    },
    async (request, reply) => {
      await deleteVersion(request, request.params.name, request.params.version);
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/promotion/records/:name/:version`,
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "Promote a version to an environment: its artifacts copied (or moved) into the environment's repositories",
        params: bundleVersionParamsSchema,
        querystring: promotionQuerySchema,
        body: promotionBodySchema,
        response: { 200: promotionAnswerSchema },
      },
    },
    async (request) => {
      const record = await promoteVersion(
        request,
        request.params.name,
        request.params.version,
        request.body,
        request.query.operation,
      );
      return {
        release_bundle_name: record.release_bundle_name,
        release_bundle_version: record.release_bundle_version,
        environment: record.environment,
        included_repository_keys: record.included_repository_keys,
        excluded_repository_keys: request.body.excluded_repository_keys,
        created: record.created,
        created_millis: record.created_millis,
      };
    },
  );

  app.get(
    `${base}/promotion/records/:name/:version`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'The promotions of a version, newest first, failed ones included',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
        response: { 200: promotionRecordsAnswerSchema },
      },
    },
    async (request) => {
      const promotions = await listPromotions(request, request.params.name, request.params.version);
      return { promotions, total: promotions.length };
    },
  );

  for (const [path, action, summary] of [
    ['distribute', 'distribute', 'Distribute a version to the paired deployments the rules name'],
    ['remote_delete', 'delete', 'Delete a version from the paired deployments the rules name'],
  ] as const)
    app.post(
      `${base}/distribution/${path}/:name/:version`,
      {
        config: signedIn,
        schema: {
          tags,
          summary,
          params: bundleVersionParamsSchema,
          querystring: lifecycleQuerySchema,
          body: distributeBodySchema,
          response: { 202: z.object({ trackers: z.array(distributionTrackerSchema) }) },
        },
      },
      async (request, reply) =>
        reply.status(202).send({
          trackers: await startDistribution(request, request.params.name, request.params.version, request.body, action),
        }),
    );

  app.put(
    `${base}/distribution/abort/:name/:version`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Abort the distributions of a version still under way; answers the targets that stopped',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
        response: { 200: z.array(abortedTargetSchema) },
      },
    },
    (request) => abortDistribution(request, request.params.name, request.params.version),
  );

  app.get(
    `${base}/distribution/trackers/:name/:version`,
    {
      config: anyone,
      schema: {
        tags,
        summary: 'Where a version was distributed (and deleted), each target with its status and progress',
        params: bundleVersionParamsSchema,
        querystring: lifecycleQuerySchema,
        response: { 200: z.array(distributionTrackerSchema) },
      },
    },
    (request) => listTrackers(request, request.params.name, request.params.version),
  );

  // what a source deployment calls on this one (with the service token pairing gave it)
  app.post(
    `${base}/distribution/receive/:name/:version`,
    {
      config: admin,
      // a manifest lists every artifact: 100 000 of them take tens of MB
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Receive a version another deployment distributed here, once its files are here',
        params: bundleVersionParamsSchema,
        body: receiveBundleBodySchema,
        response: { 200: z.object({ created: z.boolean() }), 201: z.object({ created: z.boolean() }) },
      },
    },
    async (request, reply) => {
      const answer = await receiveVersion(request, request.params.name, request.params.version, request.body);
      return reply.status(answer.created ? 201 : 200).send(answer);
    },
  );
  app.delete(
    `${base}/distribution/receive/:name/:version`,
    {
      config: admin,
      schema: {
        tags,
        summary: 'Delete a version another deployment distributed here',
        params: bundleVersionParamsSchema,
        querystring: z.object({ origin: z.string().max(1024).default('another deployment') }),
      },
    },
    async (request, reply) => {
      await deleteVersion(request, request.params.name, request.params.version, request.query.origin);
      return reply.status(204).send();
    },
  );

  // the artifact's "release bundles" tab (spec part 2 §7.9): the versions holding a content
  app.get(
    '/distribution/api/ui/release_bundle/checksum/:checksum',
    {
      config: anyone,
      schema: {
        tags,
        summary: 'The release bundle versions that hold a file with this SHA-256',
        params: z.object({ checksum: z.string().regex(/^[0-9a-fA-F]{64}$/) }),
        querystring: z.object({ num_of_rows: z.coerce.number().int().min(1).max(1000).default(100) }),
        response: {
          200: z.object({
            release_bundles: z.array(
              z.object({
                name: z.string(),
                version: z.string(),
                created: z.string(),
                created_by: z.string(),
                path: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const rows = await versionsHolding(app.db, request.params.checksum, request.query.num_of_rows);
      const visible = [];
      for (const row of rows) {
        try {
          await readableVersion(request, row.name, row.version);
        } catch {
          continue;
        }
        visible.push({
          name: row.name,
          version: row.version,
          created: new Date(Number(row.created_at)).toISOString(),
          created_by: row.created_by,
          path: `${row.repo_key}/${row.path}`,
        });
      }
      return { release_bundles: visible };
    },
  );
};

/** Environments (JFrog Access's `/access/api/v1/environments`; the console's `/access/environments`). */
export const environmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/access/api/v1/environments';
  const envTags = ['environments'];
  const nameParams = z.object({ name: z.string().max(64) });
  for (const path of [base, '/access/environments'])
    app.get(
      path,
      {
        config: signedIn,
        schema: {
          tags: envTags,
          summary: 'The environments, in order, with their repositories',
          response: { 200: z.array(environmentSchema) },
        },
      },
      () => listEnvironments(app.db),
    );
  app.get(
    `${base}/:name`,
    { config: signedIn, schema: { tags: envTags, params: nameParams, response: { 200: environmentSchema } } },
    (request) => getEnvironment(app.db, request.params.name),
  );
  app.post(
    base,
    {
      config: admin,
      schema: {
        tags: envTags,
        summary: 'Create an environment',
        body: environmentBodySchema,
        response: { 201: environmentSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await createEnvironment(request, request.body)),
  );
  app.put(
    `${base}/:name`,
    {
      config: admin,
      schema: {
        tags: envTags,
        summary: "Change an environment's description and repositories",
        params: nameParams,
        body: environmentUpdateSchema,
        response: { 200: environmentSchema },
      },
    },
    (request) => updateEnvironment(request, request.params.name, request.body),
  );
  app.delete(
    `${base}/:name`,
    { config: admin, schema: { tags: envTags, summary: 'Delete an environment', params: nameParams } },
    async (request, reply) => {
      await deleteEnvironment(request, request.params.name);
      return reply.status(204).send();
    },
  );
};
