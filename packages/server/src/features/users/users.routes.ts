import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PASSWORD_FLOW_MESSAGES,
  bulkDeleteUsersSchema,
  userAnswerSchema,
  userBodySchema,
  userFormSchema,
  userListItemSchema,
  userListSchema,
  unlockUsersSchema,
  userRefListSchema,
  type UserListItem,
} from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import { actorName } from '../../core/permissions.js';
import { deleteUser, getUser, putUser, toUserAnswer, updateUser } from './users.service.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import type { FastifyRequest } from 'fastify';
import { auditActor, recordWith } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { lockedUsers, unlockUsers, sendInvitation, findUserByName } from '../identity/index.js';
import { mailConfigured, requireLinkBaseUrl } from '../mail/index.js';
import { adminGroups, groupsByUser, groupsOfUser } from '../groups/index.js';
import { listUsers } from './users.store.js';
import { baseUrlOf } from '../../core/base-url.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toUserListItem(
  row: UserRow,
  groups: string[],
  adminGroups: ReadonlySet<string> = new Set(),
  lockedUntil?: number,
): UserListItem {
  return {
    name: row.name,
    email: row.email,
    admin: row.admin === 1,
    disableUIAccess: row.disable_ui_access === 1,
    realm: row.realm,
    lastLoggedIn: iso(row.last_login_at),
    createdAt: new Date(row.created_at).toISOString(),
    groups,
    adminViaGroup: groups.some((g) => adminGroups.has(g)),
    mustChangePassword: row.must_change_password === 1,
    mfaEnrolled: row.mfa_enrolled_at !== null,
    lockedUntil: lockedUntil === undefined ? null : iso(lockedUntil),
  };
}

async function userListItem(db: Db, row: UserRow): Promise<UserListItem> {
  const locks = await lockedUsers(db);
  return toUserListItem(row, await groupsOfUser(db, row.id), await adminGroups(db), locks.get(row.name));
}

/** Releases users from a lockout, audited per user; 404 (nothing released) for an unknown name. */
async function unlock(request: FastifyRequest, names: readonly string[]): Promise<void> {
  const { db } = request.server;
  for (const name of names) await getUser(db, name);
  const locks = await lockedUsers(db);
  await db.transaction().execute(async (trx) => {
    await unlockUsers(trx, names);
    for (const name of names) {
      if (!locks.has(name)) continue;
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'user',
          action: 'unlock',
          target: name,
          message: `locked until ${new Date(locks.get(name)!).toISOString()}`,
        },
        event: { type: 'user.updated', payload: { name } },
      });
    }
  });
}

const nameParams = z.object({ name: z.string().min(1).max(64) });

/** Users of the administration console: list, create, edit, bulk delete. */
/* A user change is audited (the user as the list shows it, before and after) and announced in its transaction. */
const userCreated = (request: FastifyRequest) =>
  recordWith<UserRow>(request, async (trx, row) => ({
    audit: { category: 'user', action: 'create', target: row.name, after: await userListItem(trx, row) },
    event: { type: 'user.created', payload: { name: row.name } },
  }));
const userUpdated = (request: FastifyRequest, before: UserListItem, action = 'update') =>
  recordWith<UserRow>(request, async (trx, row) => ({
    audit: { category: 'user', action, target: row.name, before, after: await userListItem(trx, row) },
    event: { type: 'user.updated', payload: { name: row.name } },
  }));
const userDeleted = (request: FastifyRequest, message?: string) =>
  recordWith<UserRow>(request, (_trx, row) => ({
    audit: { category: 'user', action: 'delete', target: row.name, ...(message ? { message } : {}) },
    event: { type: 'user.deleted', payload: { name: row.name } },
  }));

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/users', { config: { access: 'admin' }, schema: { response: { 200: userListSchema } } }, async () => {
    const byUser = await groupsByUser(app.db);
    const admins = await adminGroups(app.db);
    const locks = await lockedUsers(app.db);
    return (await listUsers(app.db)).map((row) =>
      toUserListItem(row, byUser.get(row.id) ?? [], admins, locks.get(row.name)),
    );
  });

  app.post(
    '/ui/users/unlock',
    { config: { access: 'admin' }, schema: { body: unlockUsersSchema } },
    async (request, reply) => {
      await unlock(request, request.body.names);
      return reply.status(204).send();
    },
  );

  app.post(
    '/ui/users',
    { config: { access: 'admin' }, schema: { body: userFormSchema, response: { 200: userListItemSchema } } },
    async (request) => {
      const { name, invite, ...body } = request.body;
      if (await findUserByName(app.db, name)) throw conflict(`A user named '${name}' already exists.`, 'name');
      if (invite && !(await mailConfigured(app.db))) throw badRequest(PASSWORD_FLOW_MESSAGES.mailNotConfigured);
      const linkBase = invite ? await requireLinkBaseUrl(app.db, app.config.baseUrl) : '';
      const { row } = await putUser(app.db, name, body, { invited: invite === true, onCreate: userCreated(request) });
      if (invite) {
        try {
          await sendInvitation(app.db, row, linkBase);
        } catch (error) {
          // no invitation, no user: the administrator fixes the mail settings and tries again
          await deleteUser(app.db, name, '', userDeleted(request, (error as Error).message));
          throw error;
        }
      }
      return userListItem(app.db, row);
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
      const before = await userListItem(app.db, await getUser(app.db, request.params.name));
      const row = await updateUser(
        app.db,
        request.params.name,
        { ...rest, ...(password ? { password } : {}) },
        userUpdated(request, before, password ? 'update (password changed)' : 'update'),
      );
      return userListItem(app.db, row);
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
      for (const name of request.body.names) await deleteUser(app.db, name, actor, userDeleted(request));
      return reply.status(204).send();
    },
  );
};

/** Artifactory-compatible user administration: `/artifactory/api/security/users[/{name}]`. */
export const usersRestRoutes: FastifyPluginAsyncZod = async (app) => {
  // Artifactory's lockout release: a JSON array of names, one name, or everyone locked
  app.post(
    '/artifactory/api/security/unlockUsers',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Release the named users locked after failed sign-ins; answers text',
        body: z.array(z.string().min(1)),
      },
    },
    async (request, reply) => {
      await unlock(request, request.body);
      return reply.type('text/plain').send('Completed unlocking users');
    },
  );
  app.post(
    '/artifactory/api/security/unlockUsers/:name',
    { config: { access: 'admin' }, schema: { summary: 'Release one locked user; answers text', params: nameParams } },
    async (request, reply) => {
      await unlock(request, [request.params.name]);
      return reply.type('text/plain').send(`Completed unlocking user '${request.params.name}'`);
    },
  );
  app.post(
    '/artifactory/api/security/unlockAllUsers',
    { config: { access: 'admin' }, schema: { summary: 'Release every locked user; answers text' } },
    async (request, reply) => {
      const names = [];
      for (const name of (await lockedUsers(app.db)).keys()) if (await findUserByName(app.db, name)) names.push(name);
      await unlock(request, names);
      return reply.type('text/plain').send('Completed unlocking all users');
    },
  );

  app.get(
    '/artifactory/api/security/users',
    { config: { access: 'admin' }, schema: { response: { 200: userRefListSchema } } },
    async (request) =>
      (await listUsers(app.db)).map((u) => ({
        name: u.name,
        uri: `${baseUrlOf(request)}/artifactory/api/security/users/${encodeURIComponent(u.name)}`,
        realm: u.realm,
      })),
  );

  app.get(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, response: { 200: userAnswerSchema } } },
    async (request) => {
      const row = await getUser(app.db, request.params.name);
      return toUserAnswer(row, await groupsOfUser(app.db, row.id));
    },
  );

  app.put(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, body: userBodySchema } },
    async (request, reply) => {
      const before = await findUserByName(app.db, request.params.name);
      const { created } = await putUser(app.db, request.params.name, request.body, {
        onCreate: userCreated(request),
        ...(before ? { onUpdate: userUpdated(request, await userListItem(app.db, before)) } : {}),
      });
      return reply.status(created ? 201 : 200).send();
    },
  );

  app.post(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams, body: userBodySchema } },
    async (request, reply) => {
      const before = await userListItem(app.db, await getUser(app.db, request.params.name));
      await updateUser(app.db, request.params.name, request.body, userUpdated(request, before));
      return reply.status(200).send();
    },
  );

  app.delete(
    '/artifactory/api/security/users/:name',
    { config: { access: 'admin' }, schema: { params: nameParams } },
    async (request, reply) => {
      await deleteUser(app.db, request.params.name, actorName(request.principal), userDeleted(request));
      return reply.type('text/plain').send(`User '${request.params.name}' has been removed successfully.`);
    },
  );
};
