import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupFormSchema, groupRestBodySchema, groupSchema } from '@arca/contracts';
import { audit } from '../audit/audit.service.js';
import {
  createGroup,
  deleteGroups,
  getGroup,
  listGroups,
  restGroupChanges,
  toGroup,
  updateGroup,
} from './groups.service.js';

const nameParams = z.object({ name: z.string().min(1).max(64) });
const bulkNames = z.object({ names: z.array(z.string()).min(1, 'This field is mandatory.') });

/** Groups in the administration console. */
export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/groups', { schema: { response: { 200: z.array(groupSchema) } } }, async () => listGroups(app.db));

  app.get('/ui/groups/:name', { schema: { params: nameParams, response: { 200: groupSchema } } }, async (request) =>
    toGroup(app.db, await getGroup(app.db, request.params.name)),
  );

  app.post('/ui/groups', { schema: { body: groupFormSchema, response: { 200: groupSchema } } }, async (request) => {
    const { name, ...changes } = request.body;
    const group = await toGroup(app.db, await createGroup(app.db, name, changes));
    await audit(request, { category: 'group', action: 'create', target: name, after: group });
    return group;
  });

  app.put(
    '/ui/groups/:name',
    { schema: { params: nameParams, body: groupFormSchema.partial(), response: { 200: groupSchema } } },
    async (request) => {
      const { name: _ignored, ...changes } = request.body;
      const before = await toGroup(app.db, await getGroup(app.db, request.params.name));
      const after = await toGroup(app.db, await updateGroup(app.db, request.params.name, changes));
      await audit(request, { category: 'group', action: 'update', target: request.params.name, before, after });
      return after;
    },
  );

  app.post('/ui/groups/delete', { schema: { body: bulkNames } }, async (request, reply) => {
    await deleteGroups(app.db, request.body.names);
    for (const name of request.body.names) await audit(request, { category: 'group', action: 'delete', target: name });
    return reply.status(204).send();
  });
};

/** Artifactory-compatible group administration: `/artifactory/api/security/groups[/{name}]`. */
export const groupsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/artifactory/api/security/groups';

  app.get(base, async (request) =>
    (await listGroups(app.db)).map((g) => ({
      name: g.name,
      uri: `${request.protocol}://${request.host}${base}/${encodeURIComponent(g.name)}`,
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
        realm: group.realm,
        ...(request.query.includeUsers === 'true' ? { userNames: group.members } : {}),
      };
    },
  );

  app.put(`${base}/:name`, { schema: { params: nameParams, body: groupRestBodySchema } }, async (request, reply) => {
    const { name } = request.params;
    const exists = await app.db.selectFrom('groups').select('name').where('name', '=', name).executeTakeFirst();
    const changes = restGroupChanges(request.body);
    if (exists) {
      const before = await toGroup(app.db, await getGroup(app.db, name));
      const after = await toGroup(
        app.db,
        await updateGroup(app.db, name, {
          description: changes.description ?? '',
          autoJoin: changes.autoJoin ?? false,
          adminPrivileges: changes.adminPrivileges ?? false,
          ...(changes.members ? { members: changes.members } : {}),
        }),
      );
      await audit(request, { category: 'group', action: 'update', target: name, before, after });
      return reply.status(200).send();
    }
    const group = await toGroup(app.db, await createGroup(app.db, name, changes));
    await audit(request, { category: 'group', action: 'create', target: name, after: group });
    return reply.status(201).send();
  });

  app.post(`${base}/:name`, { schema: { params: nameParams, body: groupRestBodySchema } }, async (request, reply) => {
    const before = await toGroup(app.db, await getGroup(app.db, request.params.name));
    const after = await toGroup(app.db, await updateGroup(app.db, request.params.name, restGroupChanges(request.body)));
    await audit(request, { category: 'group', action: 'update', target: request.params.name, before, after });
    return reply.status(200).send();
  });

  app.delete(`${base}/:name`, { schema: { params: nameParams } }, async (request, reply) => {
    await deleteGroups(app.db, [request.params.name]);
    await audit(request, { category: 'group', action: 'delete', target: request.params.name });
    return reply.type('text/plain').send(`Group '${request.params.name}' has been removed successfully.`);
  });
};
