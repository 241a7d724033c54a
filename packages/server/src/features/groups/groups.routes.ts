import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupFormSchema, groupRestBodySchema, groupSchema } from '@arca/contracts';
import type { FastifyRequest } from 'fastify';
import type { Group } from '@arca/contracts';
import type { GroupRow } from '../../db/schema.js';
import { recordWith } from '../../core/audit.js';
import {
  createGroup,
  deleteGroups,
  getGroup,
  listGroups,
  restGroupChanges,
  toGroup,
  updateGroup,
} from './groups.service.js';
import { baseUrlOf } from '../../core/base-url.js';
import { findGroup } from './groups.store.js';

const nameParams = z.object({ name: z.string().min(1).max(64) });
const bulkNames = z.object({ names: z.array(z.string()).min(1, 'This field is mandatory.') });

/* A group change is audited (with the group as it is after it, members included) and announced in its transaction. */
const created = (request: FastifyRequest) =>
  recordWith<GroupRow>(request, async (trx, row) => ({
    audit: { category: 'group', action: 'create', target: row.name, after: await toGroup(trx, row) },
    event: { type: 'group.created', payload: { name: row.name } },
  }));
const updated = (request: FastifyRequest, before: Group) =>
  recordWith<GroupRow>(request, async (trx, row) => ({
    audit: { category: 'group', action: 'update', target: row.name, before, after: await toGroup(trx, row) },
    event: { type: 'group.updated', payload: { name: row.name } },
  }));
const deleted = (request: FastifyRequest) =>
  recordWith<string[]>(request, (_trx, names) =>
    names.map((name) => ({
      audit: { category: 'group', action: 'delete', target: name },
      event: { type: 'group.deleted', payload: { name } },
    })),
  );

/** Groups in the administration console. */
export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/groups', { schema: { response: { 200: z.array(groupSchema) } } }, async () => listGroups(app.db));

  app.get('/ui/groups/:name', { schema: { params: nameParams, response: { 200: groupSchema } } }, async (request) =>
    toGroup(app.db, await getGroup(app.db, request.params.name)),
  );

  app.post('/ui/groups', { schema: { body: groupFormSchema, response: { 200: groupSchema } } }, async (request) => {
    const { name, ...changes } = request.body;
    return toGroup(app.db, await createGroup(app.db, name, changes, created(request)));
  });

  app.put(
    '/ui/groups/:name',
    { schema: { params: nameParams, body: groupFormSchema.partial(), response: { 200: groupSchema } } },
    async (request) => {
      const { name: _ignored, ...changes } = request.body;
      const before = await toGroup(app.db, await getGroup(app.db, request.params.name));
      return toGroup(app.db, await updateGroup(app.db, request.params.name, changes, updated(request, before)));
    },
  );

  app.post('/ui/groups/delete', { schema: { body: bulkNames } }, async (request, reply) => {
    await deleteGroups(app.db, request.body.names, deleted(request));
    return reply.status(204).send();
  });
};

/** Artifactory-compatible group administration: `/artifactory/api/security/groups[/{name}]`. */
export const groupsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/artifactory/api/security/groups';

  app.get(base, async (request) =>
    (await listGroups(app.db)).map((g) => ({
      name: g.name,
      uri: `${baseUrlOf(request)}${base}/${encodeURIComponent(g.name)}`,
    })),
  );

  app.get(
    `${base}/:name`,
    { schema: { params: nameParams, querystring: z.object({ includeUsers: z.string().optional() }) } },
    async (request) => {
      const group = await toGroup(app.db, await getGroup(app.db, request.params.name));
      return {
        name: group.name,
        description: group.description,
        autoJoin: group.autoJoin,
        adminPrivileges: group.adminPrivileges,
        watchManager: group.watchManager,
        policyManager: group.policyManager,
        policyViewer: group.policyViewer,
        realm: group.realm,
        ...(request.query.includeUsers === 'true' ? { userNames: group.members } : {}),
      };
    },
  );

  app.put(`${base}/:name`, { schema: { params: nameParams, body: groupRestBodySchema } }, async (request, reply) => {
    const { name } = request.params;
    const exists = await findGroup(app.db, name);
    const changes = restGroupChanges(request.body);
    if (exists) {
      const before = await toGroup(app.db, await getGroup(app.db, name));
      await updateGroup(
        app.db,
        name,
        {
          description: changes.description ?? '',
          autoJoin: changes.autoJoin ?? false,
          adminPrivileges: changes.adminPrivileges ?? false,
          watchManager: changes.watchManager ?? false,
          policyManager: changes.policyManager ?? false,
          policyViewer: changes.policyViewer ?? false,
          ...(changes.members ? { members: changes.members } : {}),
        },
        updated(request, before),
      );
      return reply.status(200).send();
    }
    await createGroup(app.db, name, changes, created(request));
    return reply.status(201).send();
  });

  app.post(`${base}/:name`, { schema: { params: nameParams, body: groupRestBodySchema } }, async (request, reply) => {
    const before = await toGroup(app.db, await getGroup(app.db, request.params.name));
    await updateGroup(app.db, request.params.name, restGroupChanges(request.body), updated(request, before));
    return reply.status(200).send();
  });

  app.delete(`${base}/:name`, { schema: { params: nameParams } }, async (request, reply) => {
    await deleteGroups(app.db, [request.params.name], deleted(request));
    return reply.type('text/plain').send(`Group '${request.params.name}' has been removed successfully.`);
  });
};
