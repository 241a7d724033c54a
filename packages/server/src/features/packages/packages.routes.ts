import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import mercurius from 'mercurius';
import { z } from 'zod';
import { AUTH_MESSAGES } from '@arca/contracts';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import { getSetting } from '../../core/settings.store.js';
import { repoContent, sendItem } from '../artifacts/index.js';
import { Catalogue } from './packages.service.js';
import { contextOf, resolvers, schema } from './packages.graphql.js';

const graphBody = z.object({
  query: z.string().min(1).max(100_000),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().nullish(),
});
const leadQuery = z.object({ path: z.string().min(3).max(2048) });

/**
 * The package catalogue (metadata service) for the console: `POST /mds/packages|package|versions`
 * (GraphQL, one schema behind all three), the npm version calls of the native view, and
 * `GET /ui/api/v1/download`. Kept in step with repository content by the outbox indexer.
 */
export const packagesRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(mercurius, { schema, resolvers, routes: false });

  // anonymous callers see what anonymous access grants, and nothing while it is off
  const requireCaller = async (principalKind: string) => {
    if (principalKind === 'anonymous' && !(await getSetting(app.db, 'security.anonymousAccess'))) {
      throw new HttpError(401, AUTH_MESSAGES.loginRequired);
    }
  };

  for (const call of ['packages', 'package', 'versions']) {
    app.post(`/mds/${call}`, { config: { access: 'public' }, schema: { body: graphBody } }, async (request, reply) => {
      await requireCaller(request.principal.kind);
      const { query, variables, operationName } = request.body;
      try {
        const result = await app.graphql(query, contextOf(request), variables ?? undefined, operationName ?? undefined);
        return reply.status(result.errors?.length && !result.data ? 400 : 200).send(result);
      } catch (error) {
        // a query that does not parse or validate: GraphQL's own messages, in the errors shape
        const problems = (error as { errors?: { message: string }[] }).errors;
        if (!problems?.length) throw error;
        return reply.status(400).send({ errors: problems.map((p) => ({ status: 400, message: p.message })) });
      }
    });
  }

  /** `path` is `{repoKey}/{lead file path}` as a version's repos give it. */
  const leadOf = async (request: Parameters<typeof repoContent>[0], path: string) => {
    const slash = path.indexOf('/');
    if (slash < 1) throw badRequest('The path is {repoKey}/{lead file path}.');
    const row = await new Catalogue(request).leadFile(path.slice(0, slash), path.slice(slash + 1));
    if (!row) throw notFound();
    return row;
  };
  const native = (name: string) => `/ui/v1/native/versions/npm/${name}`;
  app.get(
    native('dependencies'),
    { config: { access: 'public' }, schema: { querystring: leadQuery } },
    async (request) => {
      await requireCaller(request.principal.kind);
      const row = await leadOf(request, request.query.path);
      const dependencies = JSON.parse(row.dependencies) as Record<string, string>;
      return { dependencies: Object.entries(dependencies).map(([name, version]) => ({ name, version })) };
    },
  );
  app.get(native('readme'), { config: { access: 'public' }, schema: { querystring: leadQuery } }, async (request) => {
    await requireCaller(request.principal.kind);
    return { readme: (await leadOf(request, request.query.path)).readme };
  });
  app.get(native('props'), { config: { access: 'public' }, schema: { querystring: leadQuery } }, async (request) => {
    await requireCaller(request.principal.kind);
    const row = await leadOf(request, request.query.path);
    const content = repoContent(request);
    const item = await content.stored(row.repo_key, row.lead_path);
    return { props: item ? await content.properties(item) : {} };
  });

  app.get(
    '/ui/api/v1/download',
    {
      config: { access: 'public' },
      schema: { querystring: z.object({ repoKey: z.string().min(1), path: z.string().min(1) }) },
    },
    async (request, reply) => {
      const content = repoContent(request);
      const found = await content.resolve(request.query.repoKey, request.query.path);
      if (!found || found.item.folder === 1) throw notFound();
      return sendItem(request, reply, found.item);
    },
  );
};
