import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkDeleteUsersSchema,
  userAnswerSchema,
  userBodySchema,
  userFormSchema,
  userListItemSchema,
  userListSchema,
  userRefListSchema,
  type UserListItem,
} from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import { actorName } from '../../core/permissions.js';
import { deleteUser, getUser, putUser, toUserAnswer, updateUser } from './users.service.js';
import type { UserRow } from '../../db/schema.js';
import { findUserByName, listUsers } from './users.store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toUserListItem(row: UserRow): UserListItem {
  return {
    name: row.name,
    email: row.email,
    admin: row.admin === 1,
    disableUIAccess: row.disable_ui_access === 1,
    realm: row.realm,
    lastLoggedIn: iso(row.last_login_at),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const nameParams = z.object({ name: z.string().min(1).max(64) });

/** Users of the administration console: list, create, edit, bulk delete. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/users', { config: { access: 'admin' }, schema: { response: { 200: userListSchema } } }, async () =>
    (await listUsers(app.db)).map(toUserListItem),
  );

  app.post(
    '/ui/users',
    { config: { access: 'admin' }, schema: { body: userFormSchema, response: { 200: userListItemSchema } } },
    async (request) => {
      const { name, ...body } = request.body;
      if (await findUserByName(app.db, name)) throw conflict(`A user named '${name}' already exists.`);
      const { row } = await putUser(app.db, name, body);
      app.accessLog.info({ user: name, by: actorName(request.principal) }, 'user created');
      return toUserListItem(row);
    },
  );

  app.put(
    '/ui/users/:name',
    {
      config: { access: 'admin' },
      schema: { params: nameParams, body: userFormSchema.partial(), response: { 200: userListItemSchema } },
    },
    async (request) => {
      const { name: _ignored, password, ...rest } = request.body;
      const row = await updateUser(app.db, request.params.name, { ...rest, ...(password ? { password } : {}) });
      app.accessLog.info({ user: request.params.name, by: actorName(request.principal) }, 'user updated');
      return toUserListItem(row);
    },
  );

  app.post(
    '/ui/users/delete',
    { config: { access: 'admin' }, schema: { body: bulkDeleteUsersSchema } },
    async (request, reply) => {
      const actor = actorName(request.principal);
      if (request.body.names.includes(actor)) throw badRequest('You cannot delete your own user.');
      // every name must exist before anything is deleted
      for (const name of request.body.names) await getUser(app.db, name);
      for (const name of request.body.names) await deleteUser(app.db, name, actor);
      app.accessLog.info({ users: request.body.names, by: actor }, 'users deleted');
      return reply.status(204).send();
    },
  );
};

/** Artifactory-compatible user administration: `/artifactory/api/security/users[/{name}]`. */
export const usersRestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/artifactory/api/security/users',
    { config: { access: 'admin' }, schema: { response: { 200: userRefListSchema } } },
    async (request) =>
      (await listUsers(app.db)).map((u) => ({
        name: u.name,
        uri: `${request.protocol}://${request.host}/artifactory/api/security/users/${encodeURIComponent(u.name)}`,
        realm: u.realm,
      })),
  );

  app.get(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, response: { 200: userAnswerSchema } } },
    async (request) => toUserAnswer(await getUser(app.db, request.params.name)),
  );

  app.put(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, body: userBodySchema } },
    async (request, reply) => {
      const { created } = await putUser(app.db, request.params.name, request.body);
      app.accessLog.info({ user: request.params.name, by: actorName(request.principal), created }, 'user saved');
      return reply.status(created ? 201 : 200).send();
    },
  );

  app.post(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, body: userBodySchema } },
    async (request, reply) => {
      await updateUser(app.db, request.params.name, request.body);
      app.accessLog.info({ user: request.params.name, by: actorName(request.principal) }, 'user updated');
      return reply.status(200).send();
    },
  );

  app.delete(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams } },
    async (request, reply) => {
      await deleteUser(app.db, request.params.name, actorName(request.principal));
      app.accessLog.info({ user: request.params.name, by: actorName(request.principal) }, 'user deleted');
      return reply.type('text/plain').send(`User '${request.params.name}' has been removed successfully.`);
    },
  );
};
