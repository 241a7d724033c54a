import { randomUUID } from 'node:crypto';
import { BUILT_IN_ADMIN, type ArcaEvent, type FederationEntityType } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { recordChange } from '../../core/changes.js';
import { credentialsChanged } from '../../core/credentials.js';
import { findUserByName } from '../identity/index.js';

/**
 * What travels for each federated entity: its whole state (or its absence), so that applying
 * the same version twice, or an older one after a newer, changes nothing.
 */
export interface EntityVersion {
  type: FederationEntityType;
  name: string;
  clock: number;
  origin: string;
  /** The version this one replaced where it was made. */
  base_clock: number;
  base_origin: string;
  /** The entity's state; null when it was deleted. */
  data: Record<string, unknown> | null;
}

/** The entity an event is about, if it is one federation carries. */
export function entityOf(event: ArcaEvent): { type: FederationEntityType; name: string } | undefined {
  switch (event.type) {
    case 'user.created':
    case 'user.updated':
    case 'user.deleted':
      return { type: 'USERS', name: event.payload.name };
    case 'group.created':
    case 'group.updated':
    case 'group.deleted':
      return { type: 'GROUPS', name: event.payload.name };
    case 'permission.saved':
    case 'permission.deleted':
      return { type: 'PERMISSIONS', name: event.payload.name };
    case 'token.created':
    case 'token.revoked':
      return { type: 'TOKENS', name: event.payload.id };
    default:
      return undefined;
  }
}

/** Tokens a management deployment made to reach members travel nowhere: each belongs to one deployment. */
export const SERVICE_TOKEN_DESCRIPTION = /^(Access federation|Management deployment) /;

/** The names of every entity of a type this deployment holds (a broadcast sends them all). */
export async function entityNames(db: Db, type: FederationEntityType): Promise<string[]> {
  switch (type) {
    case 'USERS':
      return (await db.selectFrom('users').select('name').orderBy('name').execute()).map((r) => r.name);
    case 'GROUPS':
      return (await db.selectFrom('groups').select('name').orderBy('name').execute()).map((r) => r.name);
    case 'PERMISSIONS':
      return (await db.selectFrom('permission_targets').select('name').orderBy('name').execute()).map((r) => r.name);
    case 'TOKENS':
      return (
        await db
          .selectFrom('access_tokens')
          .select(['id', 'description'])
          .where('kind', '=', 'token')
          .orderBy('id')
          .execute()
      )
        .filter((r) => !SERVICE_TOKEN_DESCRIPTION.test(r.description))
        .map((r) => r.id);
  }
}

/** An entity's state as it travels, or null when this deployment has no such entity. */
export async function stateOf(
  db: Db,
  type: FederationEntityType,
  name: string,
  options: { adminCredentials?: boolean } = {},
): Promise<Record<string, unknown> | null> {
  switch (type) {
    case 'USERS': {
      const user = await findUserByName(db, name);
      if (!user) return null;
      const groups = await db
        .selectFrom('group_members')
        .select('group_name')
        .where('user_id', '=', user.id)
        .orderBy('group_name')
        .execute();
      // each member's built-in administrator keeps its own password unless the administrator sends it on purpose
      const credentials =
        name !== BUILT_IN_ADMIN || options.adminCredentials
          ? {
              password_hash: user.password_hash,
              must_change_password: user.must_change_password,
              password_changed_at: user.password_changed_at,
            }
          : {};
      return {
        email: user.email,
        ...credentials,
        admin: user.admin,
        disable_ui_access: user.disable_ui_access,
        realm: user.realm,
        external_source: user.external_source,
        groups: groups.map((g) => g.group_name),
      };
    }
    case 'GROUPS': {
      const group = await db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
      if (!group) return null;
      const members = await db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select('users.name')
        .where('group_members.group_name', '=', name)
        .orderBy('users.name')
        .execute();
      return {
        description: group.description,
        auto_join: group.auto_join,
        admin_privileges: group.admin_privileges,
        watch_manager: group.watch_manager,
        policy_manager: group.policy_manager,
        policy_viewer: group.policy_viewer,
        realm: group.realm,
        members: members.map((m) => m.name),
      };
    }
    case 'PERMISSIONS': {
      const target = await db.selectFrom('permission_targets').selectAll().where('name', '=', name).executeTakeFirst();
      if (!target) return null;
      const grants = await db
        .selectFrom('permission_grants')
        .select(['resource', 'principal_type', 'principal_name', 'actions'])
        .where('target_name', '=', name)
        .orderBy(['resource', 'principal_type', 'principal_name'])
        .execute();
      return { resources: target.resources, grants };
    }
    case 'TOKENS': {
      const token = await db
        .selectFrom('access_tokens')
        .innerJoin('users', 'users.id', 'access_tokens.user_id')
        .select([
          'access_tokens.kind',
          'access_tokens.token_hash',
          'access_tokens.description',
          'access_tokens.scope',
          'access_tokens.created_at',
          'access_tokens.expires_at',
          'access_tokens.refresh_hash',
          'users.name as user',
        ])
        .where('access_tokens.id', '=', name)
        .executeTakeFirst();
      if (!token || token.kind !== 'token' || SERVICE_TOKEN_DESCRIPTION.test(token.description)) return null;
      return {
        user: token.user,
        token_hash: token.token_hash,
        description: token.description,
        scope: token.scope,
        created_at: Number(token.created_at),
        expires_at: token.expires_at === null ? null : Number(token.expires_at),
        refresh_hash: token.refresh_hash,
      };
    }
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v) || 0);
const maybeNum = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : num(v));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

async function userIdsByName(trx: Db, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  return (await trx.selectFrom('users').select('id').where('name', 'in', names).execute()).map((r) => r.id);
}

async function existingGroups(trx: Db, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  return (await trx.selectFrom('groups').select('name').where('name', 'in', names).execute()).map((r) => r.name);
}

/**
 * Makes this deployment hold `version` (inside the caller's transaction), recording the change
 * with its event as any change is recorded — by `actor`, which marks it as federation's, so that
 * it is not sent on again. Answers the users whose rights it changed. References to what this
 * deployment lacks (a group not federated, a token's owner that is not here) are left out.
 */
export async function applyState(trx: Db, version: EntityVersion, actor: string): Promise<string[]> {
  const { type, name, data } = version;
  const changed: string[] = [];
  const now = Date.now();
  const record = (event: ArcaEvent, action: string, category: 'user' | 'group' | 'permission' | 'token') =>
    recordChange(trx, { actor, sourceIp: '' }, { audit: { category, action, target: name }, event });
  switch (type) {
    case 'USERS': {
      const existing = await trx.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
      if (!data) {
        if (!existing) return changed;
        for (const table of ['permission_grants', 'project_members'] as const)
          await trx.deleteFrom(table).where('principal_type', '=', 'user').where('principal_name', '=', name).execute();
        await trx.deleteFrom('users').where('id', '=', existing.id).execute();
        await record({ type: 'user.deleted', payload: { name } }, 'delete user (federation)', 'user');
        return [existing.id];
      }
      // a version without credentials (the built-in administrator's) leaves the ones held here as they are
      const credentials =
        'password_hash' in data || !existing
          ? {
              password_hash: typeof data.password_hash === 'string' ? data.password_hash : null,
              must_change_password: num(data.must_change_password) ? 1 : 0,
              password_changed_at: maybeNum(data.password_changed_at),
            }
          : {
              password_hash: existing.password_hash,
              must_change_password: existing.must_change_password,
              password_changed_at: existing.password_changed_at,
            };
      const fields = {
        email: typeof data.email === 'string' ? data.email : null,
        ...credentials,
        admin: num(data.admin) ? 1 : 0,
        disable_ui_access: num(data.disable_ui_access) ? 1 : 0,
        realm: str(data.realm) || 'internal',
        external_source: str(data.external_source),
      };
      const id = existing?.id ?? randomUUID();
      if (existing) {
        await trx.updateTable('users').set(fields).where('id', '=', id).execute();
        // a new password ends the user's sessions here as where it was changed
        if (existing.password_hash !== fields.password_hash)
          await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
      } else {
        await trx
          .insertInto('users')
          .values({
            id,
            name,
            ...fields,
            created_at: now,
            last_login_at: null,
            mfa_secret: null,
            mfa_enrolled_at: null,
            mfa_last_step: null,
          })
          .execute();
      }
      await trx.deleteFrom('group_members').where('user_id', '=', id).execute();
      const groups = await existingGroups(trx, strings(data.groups));
      if (groups.length)
        await trx
          .insertInto('group_members')
          .values(groups.map((group_name) => ({ group_name, user_id: id })))
          .execute();
      await record(
        { type: existing ? 'user.updated' : 'user.created', payload: { name } },
        `${existing ? 'update' : 'create'} user (federation)`,
        'user',
      );
      return [id];
    }
    case 'GROUPS': {
      const existing = await trx.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
      const before = existing
        ? (await trx.selectFrom('group_members').select('user_id').where('group_name', '=', name).execute()).map(
            (r) => r.user_id,
          )
        : [];
      if (!data) {
        if (!existing) return changed;
        for (const table of ['permission_grants', 'project_members'] as const)
          await trx
            .deleteFrom(table)
            .where('principal_type', '=', 'group')
            .where('principal_name', '=', name)
            .execute();
        await trx.deleteFrom('group_members').where('group_name', '=', name).execute();
        await trx.deleteFrom('groups').where('name', '=', name).execute();
        await record({ type: 'group.deleted', payload: { name } }, 'delete group (federation)', 'group');
        return before;
      }
      const fields = {
        description: str(data.description),
        auto_join: num(data.auto_join) ? 1 : 0,
        admin_privileges: num(data.admin_privileges) ? 1 : 0,
        watch_manager: num(data.watch_manager) ? 1 : 0,
        policy_manager: num(data.policy_manager) ? 1 : 0,
        policy_viewer: num(data.policy_viewer) ? 1 : 0,
        realm: str(data.realm) || 'internal',
        updated_at: now,
      };
      if (existing) await trx.updateTable('groups').set(fields).where('name', '=', name).execute();
      else
        await trx
          .insertInto('groups')
          .values({ name, ...fields, created_at: now })
          .execute();
      const members = await userIdsByName(trx, strings(data.members));
      await trx.deleteFrom('group_members').where('group_name', '=', name).execute();
      if (members.length)
        await trx
          .insertInto('group_members')
          .values(members.map((user_id) => ({ group_name: name, user_id })))
          .execute();
      await record(
        { type: existing ? 'group.updated' : 'group.created', payload: { name } },
        `${existing ? 'update' : 'create'} group (federation)`,
        'group',
      );
      return [...new Set([...before, ...members])];
    }
    case 'PERMISSIONS': {
      const existing = await trx
        .selectFrom('permission_targets')
        .select('name')
        .where('name', '=', name)
        .executeTakeFirst();
      await trx.deleteFrom('permission_grants').where('target_name', '=', name).execute();
      if (!data) {
        if (!existing) return changed;
        await trx.deleteFrom('permission_targets').where('name', '=', name).execute();
        await record({ type: 'permission.deleted', payload: { name } }, 'delete permission (federation)', 'permission');
        return changed;
      }
      const resources = str(data.resources) || '{}';
      if (existing)
        await trx
          .updateTable('permission_targets')
          .set({ resources, updated_at: now })
          .where('name', '=', name)
          .execute();
      else
        await trx
          .insertInto('permission_targets')
          .values({ name, resources, created_at: now, updated_at: now })
          .execute();
      const grants = (Array.isArray(data.grants) ? (data.grants as Record<string, unknown>[]) : []).map((g) => ({
        target_name: name,
        resource: str(g.resource),
        principal_type: str(g.principal_type),
        principal_name: str(g.principal_name),
        actions: str(g.actions),
      }));
      if (grants.length) await trx.insertInto('permission_grants').values(grants).execute();
      await record({ type: 'permission.saved', payload: { name } }, 'save permission (federation)', 'permission');
      return changed;
    }
    case 'TOKENS': {
      const existing = await trx
        .selectFrom('access_tokens')
        .innerJoin('users', 'users.id', 'access_tokens.user_id')
        .select(['access_tokens.id', 'users.name as user'])
        .where('access_tokens.id', '=', name)
        .executeTakeFirst();
      if (!data) {
        if (!existing) return changed;
        await trx.deleteFrom('access_tokens').where('id', '=', name).execute();
        await record(
          { type: 'token.revoked', payload: { id: name, user: existing.user } },
          'revoke access token (federation)',
          'token',
        );
        return changed;
      }
      const owner = await trx.selectFrom('users').select('id').where('name', '=', str(data.user)).executeTakeFirst();
      // a token of a user this deployment does not have works nowhere here
      if (!owner || existing) return changed;
      await trx
        .insertInto('access_tokens')
        .values({
          id: name,
          user_id: owner.id,
          kind: 'token',
          token_hash: str(data.token_hash),
          description: str(data.description),
          scope: str(data.scope),
          created_at: num(data.created_at),
          expires_at: maybeNum(data.expires_at),
          last_used_at: null,
          refresh_hash: typeof data.refresh_hash === 'string' ? data.refresh_hash : null,
          sealed: null,
        })
        .execute();
      await record(
        { type: 'token.created', payload: { id: name, user: str(data.user) } },
        'create access token (federation)',
        'token',
      );
      return changed;
    }
  }
}

/** Ends the cached verdicts of users whose rights changed (after the transaction commits). */
export const afterApply = (userIds: string[]) => userIds.forEach(credentialsChanged);
