import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import {
  ALL_PROJECTS_CONTEXT,
  projectScopeSchema,
  REPOSITORY_LAYOUTS,
  quickCreateBodySchema,
  repositoryAnswerSchema,
  repositoryReaderAnswerSchema,
  REPOSITORY_MESSAGES,
  formatMessage,
  repositoryLayoutSchema,
  repositoryListItemSchema,
  repositoryListQuerySchema,
  repositorySummarySchema,
  remoteStateSchema,
  remoteTestAnswerSchema,
  setMeUpSchema,
} from '@arca/contracts';
import { isAllowed } from '../../core/permissions.js';
import { isAdmin } from '../../core/principals.js';
import { notFound } from '../../core/errors.js';
import { findRepository, listRepositories, usageByRepository } from './repositories.store.js';
import {
  createRepository,
  getRepository,
  parseMembers,
  quickCreate,
  recordRepositoryChange,
  removeRepository,
  remoteStateOf,
  testRemote,
  toAnswer,
  toListItem,
  toReaderAnswer,
  updateRepositoryConfig,
} from './repositories.service.js';
import { baseUrlOf } from '../../core/base-url.js';

const keyParams = z.object({ key: z.string().min(1).max(64) });

/** Artifactory-compatible repository configuration: `/artifactory/api/repositories[/{key}]`. */
export const repositoriesRestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/artifactory/api/repositories',
    {
      config: { access: 'public' },
      schema: { querystring: repositoryListQuerySchema, response: { 200: z.array(repositoryListItemSchema) } },
    },
    async (request) => {
      const rows = await listRepositories(app.db);
      const visible = [];
      for (const row of rows) {
        if (request.query.type && row.rclass !== request.query.type) continue;
        if (request.query.packageType && row.package_type !== request.query.packageType) continue;
        if (await isAllowed(app.db, request.principal, 'read', row.key, '')) visible.push(toListItem(row));
      }
      return visible;
    },
  );

  // administrators get the whole configuration; a reader the part Artifactory tells non-admins;
  // anyone else the answer for a repository that does not exist
  app.get(
    '/artifactory/api/repositories/:key',
    {
      config: { access: 'public' },
      schema: {
        summary: "A repository's configuration: whole for administrators, the partial one Artifactory gives to readers",
        params: keyParams,
        response: { 200: z.union([repositoryAnswerSchema, repositoryReaderAnswerSchema]) },
      },
    },
    async (request) => {
      if (isAdmin(request)) return toAnswer(await getRepository(app.db, request.params.key));
      const row = await findRepository(app.db, request.params.key);
      if (!row || !(await isAllowed(app.db, request.principal, 'read', row.key, '')))
        throw notFound(formatMessage(REPOSITORY_MESSAGES.notFound, { key: request.params.key }));
      return toReaderAnswer(row);
    },
  );

  app.put(
    '/artifactory/api/repositories/:key',
    { config: { access: 'admin' }, schema: { params: keyParams, body: z.record(z.string(), z.unknown()) } },
    async (request, reply) => {
      const row = await createRepository(
        app.db,
        { ...request.body, key: request.params.key },
        recordRepositoryChange(request),
        { allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts) },
      );
      return reply.type('text/plain').send(`Successfully created repository '${row.key}'`);
    },
  );

  app.post(
    '/artifactory/api/repositories/:key',
    { config: { access: 'admin' }, schema: { params: keyParams, body: z.record(z.string(), z.unknown()) } },
    async (request, reply) => {
      const row = await updateRepositoryConfig(
        app.db,
        request.params.key,
        request.body,
        recordRepositoryChange(request),
        {
          allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
        },
      );
      return reply.type('text/plain').send(`Repository '${row.key}' update successful.`);
    },
  );

  // DELETE /artifactory/api/repositories/:key removes the content too: the artifacts feature has it
};

/** The console's repository administration (`ui/admin/repositories`) and Set Me Up base URL. */
export const repositoriesConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ui/admin/repositories',
    {
      config: { access: 'admin' },
      schema: { querystring: projectScopeSchema, response: { 200: z.array(repositorySummarySchema) } },
    },
    async (request) => {
      const { projectKey } = request.query;
      const scoped = projectKey !== undefined && projectKey !== ALL_PROJECTS_CONTEXT.key;
      const [rows, usage] = await Promise.all([listRepositories(app.db), usageByRepository(app.db)]);
      return rows
        .filter((row) => !scoped || row.project_key === projectKey)
        .map((row) => ({
          key: row.key,
          rclass: row.rclass as 'local' | 'remote' | 'virtual',
          packageType: row.package_type,
          description: row.description,
          url: row.url,
          repositories: parseMembers(row),
          files: usage.get(row.key)?.files ?? 0,
          usedSpace: usage.get(row.key)?.size ?? 0,
          lastModified: new Date(row.updated_at).toISOString(),
          projectKey: row.project_key,
        }));
    },
  );

  app.get(
    '/ui/admin/repositories/layouts',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(repositoryLayoutSchema) } } },
    () => REPOSITORY_LAYOUTS,
  );

  app.post(
    '/ui/admin/repositories/quick',
    {
      config: { access: 'admin' },
      schema: { body: quickCreateBodySchema, response: { 200: z.array(repositoryAnswerSchema) } },
    },
    async (request) =>
      (
        await quickCreate(app.db, request.body, recordRepositoryChange(request), {
          allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
          defaultUpstream: app.formats.defaultUpstream,
        })
      ).map(toAnswer),
  );

  app.get(
    '/ui/admin/repositories/:key',
    { config: { access: 'admin' }, schema: { params: keyParams, response: { 200: repositoryAnswerSchema } } },
    async (request) => toAnswer(await getRepository(app.db, request.params.key)),
  );

  app.get(
    '/ui/admin/repositories/:key/upstream',
    { config: { access: 'admin' }, schema: { params: keyParams, response: { 200: remoteStateSchema } } },
    (request) => remoteStateOf(app.db, request.params.key),
  );

  // the remote form's Test: the settings as typed, nothing saved
  app.post(
    '/ui/admin/repositories/testremote',
    {
      config: { access: 'admin' },
      schema: { body: z.record(z.string(), z.unknown()), response: { 200: remoteTestAnswerSchema } },
    },
    async (request) =>
      testRemote(app.db, request.body, await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts)),
  );

  app.post(
    '/ui/admin/repositories',
    {
      config: { access: 'admin' },
      schema: { body: z.record(z.string(), z.unknown()), response: { 200: repositoryAnswerSchema } },
    },
    async (request) =>
      toAnswer(
        await createRepository(app.db, request.body, recordRepositoryChange(request), {
          allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
        }),
      ),
  );

  app.put(
    '/ui/admin/repositories/:key',
    {
      config: { access: 'admin' },
      schema: { params: keyParams, body: z.record(z.string(), z.unknown()), response: { 200: repositoryAnswerSchema } },
    },
    async (request) =>
      toAnswer(
        await updateRepositoryConfig(app.db, request.params.key, request.body, recordRepositoryChange(request), {
          allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
        }),
      ),
  );

  app.delete(
    '/ui/admin/repositories/:key',
    { config: { access: 'admin' }, schema: { params: keyParams } },
    async (request, reply) => {
      await removeRepository(app.db, request.params.key, recordRepositoryChange(request));
      return reply.status(204).send();
    },
  );

  app.get('/ui/setMeUp', { config: { access: 'public' }, schema: { response: { 200: setMeUpSchema } } }, (request) => ({
    baseUrl: baseUrlOf(request),
  }));
};
