import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  effectivePermissionsQuerySchema,
  effectivePermissionsSchema,
  type PermissionTarget,
  permissionRestBodySchema,
  permissionTargetFormSchema,
  permissionTargetSchema,
  type PermissionRestBody,
} from '@arca/contracts';
import { recordWith } from '../../core/audit.js';
import {
  deleteTargets,
  effectivePermissions,
  fromRestBody,
  fromV1Body,
  getTarget,
  listTargets,
  permissionV1BodySchema,
  saveTarget,
  toRestBody,
  toV1Body,
} from './permissions.service.js';
import { notFound } from '../../core/errors.js';
import { baseUrlOf } from '../../core/base-url.js';

const nameParams = z.object({ name: z.string().min(1).max(128) });
const bulkNames = z.object({ names: z.array(z.string()).min(1, 'This field is mandatory.') });

/* A target change is audited (the target before and after) and announced in its transaction. */
const targetSaved = (request: FastifyRequest, before: PermissionTarget | undefined) =>
  recordWith<{ name: string; created: boolean }>(request, async (trx, { name, created }) => ({
    audit: {
      category: 'permission',
      action: created ? 'create' : 'update',
      target: name,
      ...(before ? { before } : {}),
      after: await getTarget(trx, name),
    },
    event: { type: 'permission.saved', payload: { name } },
  }));
const targetsDeleted = (request: FastifyRequest) =>
  recordWith<string[]>(request, (_trx, names) =>
    names.map((name) => ({
      audit: { category: 'permission', action: 'delete', target: name },
      event: { type: 'permission.deleted', payload: { name } },
    })),
  );

/** Permission targets in the administration console. */
export const permissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/permissions', { schema: { response: { 200: z.array(permissionTargetSchema) } } }, async () =>
    listTargets(app.db),
  );

  // Effective Permissions: what a user, a group, or everyone on a repository may do, grant by grant
  app.get(
    '/ui/effective-permissions',
    {
      config: { access: 'admin' },
      schema: { querystring: effectivePermissionsQuerySchema, response: { 200: effectivePermissionsSchema } },
    },
    (request) => effectivePermissions(app.db, request.query),
  );

  app.get(
    '/ui/permissions/:name',
    { schema: { params: nameParams, response: { 200: permissionTargetSchema } } },
    async (request) => getTarget(app.db, request.params.name),
  );

  app.post(
    '/ui/permissions',
    { schema: { body: permissionTargetFormSchema, response: { 200: permissionTargetSchema } } },
    async (request) => {
      const { name, ...body } = request.body;
      await saveTarget(app.db, name, body, 'create', targetSaved(request, undefined));
      return getTarget(app.db, name);
    },
  );

  app.put(
    '/ui/permissions/:name',
    { schema: { params: nameParams, body: permissionTargetFormSchema, response: { 200: permissionTargetSchema } } },
    async (request) => {
      const { name: _ignored, ...body } = request.body;
      const before = await getTarget(app.db, request.params.name);
      await saveTarget(app.db, request.params.name, body, 'replace', targetSaved(request, before));
      return getTarget(app.db, request.params.name);
    },
  );

  app.post('/ui/permissions/delete', { schema: { body: bulkNames } }, async (request, reply) => {
    await deleteTargets(app.db, request.body.names, targetsDeleted(request));
    return reply.status(204).send();
  });
};

/** Artifactory-compatible permission targets: `/artifactory/api/v2/security/permissions[/{name}]`. */
export const permissionsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/artifactory/api/v2/security/permissions';

  app.get(base, async (request) =>
    (await listTargets(app.db)).map((t) => ({
      name: t.name,
      uri: `${baseUrlOf(request)}${base}/${encodeURIComponent(t.name)}`,
    })),
  );

  app.get(`${base}/:name`, { schema: { params: nameParams } }, async (request) =>
    toRestBody(await getTarget(app.db, request.params.name)),
  );

  async function saveFromRest(
    request: FastifyRequest,
    name: string,
    body: PermissionRestBody,
    mode: 'create' | 'upsert',
  ): Promise<number> {
    const before = await getTarget(app.db, name).catch(() => undefined);
    const { created } = await saveTarget(app.db, name, fromRestBody(body), mode, targetSaved(request, before));
    return created ? 201 : 200;
  }

  // POST creates (409 when the name is taken); PUT creates or replaces
  const schema = { params: nameParams, body: permissionRestBodySchema };
  app.post(`${base}/:name`, { schema }, async (request, reply) =>
    reply.status(await saveFromRest(request, request.params.name, request.body, 'create')).send(),
  );
  app.put(`${base}/:name`, { schema }, async (request, reply) =>
    reply.status(await saveFromRest(request, request.params.name, request.body, 'upsert')).send(),
  );

  app.delete(`${base}/:name`, { schema: { params: nameParams } }, async (request, reply) => {
    await deleteTargets(app.db, [request.params.name], targetsDeleted(request));
    return reply.type('text/plain').send(`Permission Target '${request.params.name}' has been removed successfully.`);
  });

  // the first version of the call, which older scripts and Terraform providers still use: one
  // repository resource, patterns as comma-separated text, actions as letters
  const v1 = '/artifactory/api/security/permissions';
  app.get(
    v1,
    {
      schema: {
        summary: 'Permission targets with a repository resource (the first version of the call)',
        response: { 200: z.array(z.object({ name: z.string(), uri: z.string() })) },
      },
    },
    async (request) =>
      (await listTargets(app.db))
        .filter((t) => t.repo)
        .map((t) => ({
          name: t.name,
          uri: `${baseUrlOf(request)}${v1}/${encodeURIComponent(t.name)}`,
        })),
  );
  app.get(
    `${v1}/:name`,
    {
      schema: {
        summary:
          'A permission target as the first version gives it: patterns as text, actions as letters (r, w, n, d, m)',
        params: nameParams,
        response: { 200: permissionV1BodySchema },
      },
    },
    async (request) => {
      const target = await getTarget(app.db, request.params.name);
      if (!target.repo) throw notFound(`Permission target '${request.params.name}' has no repository resource.`);
      return toV1Body(target.name, target.repo);
    },
  );
  app.put(
    `${v1}/:name`,
    {
      schema: {
        summary:
          'Create (201) or replace (200) the repository resource of a permission target; its build and release bundle resources are kept',
        params: nameParams,
        body: permissionV1BodySchema,
      },
    },
    async (request, reply) => {
      const before = await getTarget(app.db, request.params.name).catch(() => undefined);
      // the build and release bundle resources a v1 body cannot name are kept
      const body = {
        repo: fromV1Body(request.body),
        build: before?.build ?? null,
        releaseBundle: before?.releaseBundle ?? null,
      };
      const { created } = await saveTarget(app.db, request.params.name, body, 'upsert', targetSaved(request, before));
      return reply.status(created ? 201 : 200).send();
    },
  );
  app.delete(
    `${v1}/:name`,
    { schema: { summary: 'Delete a permission target; answers text', params: nameParams } },
    async (request, reply) => {
      await deleteTargets(app.db, [request.params.name], targetsDeleted(request));
      return reply.type('text/plain').send(`Permission Target '${request.params.name}' has been removed successfully.`);
    },
  );
};
