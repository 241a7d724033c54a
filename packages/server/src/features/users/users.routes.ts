import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userListSchema, type UserListItem } from '@arca/contracts';
import type { UserRow } from '../../db/schema.js';
import { listUsers } from './users.store.js';

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

/** Users of the administration console (read-only until the access feature adds editing). */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/users', { config: { access: 'admin' }, schema: { response: { 200: userListSchema } } }, async () =>
    (await listUsers(app.db)).map(toUserListItem),
  );
};
