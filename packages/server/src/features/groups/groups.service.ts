import { ACCESS_MESSAGES, GROUP_NAME_PATTERN, formatMessage, type Group, type GroupRestBody } from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { credentialsChanged } from '../../core/credentials.js';

const fill = (message: string, name: string) => formatMessage(message, { name });
const iso = (ms: number) => new Date(ms).toISOString();

export interface GroupChanges {
  description?: string | undefined;
  autoJoin?: boolean | undefined;
  adminPrivileges?: boolean | undefined;
  /** Replaces the member list when given. */
  members?: string[] | undefined;
}

export async function groupMembers(db: Db, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.name')
    .where('m.group_name', '=', name)
    .orderBy('u.name')
    .execute();
  return rows.map((r) => r.name);
}

export async function toGroup(db: Db, row: GroupRow): Promise<Group> {
  return {
    name: row.name,
    description: row.description,
    autoJoin: row.auto_join === 1,
    adminPrivileges: row.admin_privileges === 1,
    realm: row.realm,
    members: await groupMembers(db, row.name),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function listGroups(db: Db): Promise<Group[]> {
  const rows = await db.selectFrom('groups').selectAll().orderBy('name').execute();
  const members = await db
    .selectFrom('group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.group_name', 'u.name'])
    .orderBy('u.name')
    .execute();
  const byGroup = new Map<string, string[]>();
  for (const m of members) byGroup.set(m.group_name, [...(byGroup.get(m.group_name) ?? []), m.name]);
  return rows.map((row) => ({
    name: row.name,
    description: row.description,
    autoJoin: row.auto_join === 1,
    adminPrivileges: row.admin_privileges === 1,
    realm: row.realm,
    members: byGroup.get(row.name) ?? [],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

export async function getGroup(db: Db, name: string): Promise<GroupRow> {
  const row = await db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound(fill(ACCESS_MESSAGES.groupNotFound, name));
  return row;
}

async function userIds(db: Db, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const rows = await db.selectFrom('users').select(['id', 'name']).where('name', 'in', unique).execute();
  const missing = unique.find((n) => !rows.some((r) => r.name === n));
  if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownUser, missing));
  return rows.map((r) => r.id);
}

/** Everyone whose rights depend on the group; their cached verdicts are dropped after a change. */
async function memberIds(db: Db, name: string): Promise<string[]> {
  const rows = await db.selectFrom('group_members').select('user_id').where('group_name', '=', name).execute();
  return rows.map((r) => r.user_id);
}

/** Creates a group; all-or-nothing with its members. */
export async function createGroup(
  db: Db,
  name: string,
  changes: GroupChanges,
  onChange?: OnChange<GroupRow>,
  now = Date.now(),
): Promise<GroupRow> {
  if (!GROUP_NAME_PATTERN.test(name)) throw badRequest(ACCESS_MESSAGES.groupNameFormat, 'name');
  const ids = await userIds(db, changes.members ?? []);
  const row: GroupRow = {
    name,
    description: changes.description ?? '',
    auto_join: changes.autoJoin ? 1 : 0,
    admin_privileges: changes.adminPrivileges ? 1 : 0,
    realm: 'internal',
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    const exists = await trx.selectFrom('groups').select('name').where('name', '=', name).executeTakeFirst();
    if (exists) throw conflict(fill(ACCESS_MESSAGES.groupTaken, name), 'name');
    await trx.insertInto('groups').values(row).execute();
    if (ids.length) {
      await trx
        .insertInto('group_members')
        .values(ids.map((user_id) => ({ group_name: name, user_id })))
        .execute();
    }
    await onChange?.(trx, row);
  });
  ids.forEach(credentialsChanged);
  return row;
}

export async function updateGroup(
  db: Db,
  name: string,
  changes: GroupChanges,
  onChange?: OnChange<GroupRow>,
  now = Date.now(),
): Promise<GroupRow> {
  const existing = await getGroup(db, name);
  const ids = changes.members ? await userIds(db, changes.members) : undefined;
  const before = await memberIds(db, name);
  const updated: GroupRow = {
    ...existing,
    description: changes.description ?? existing.description,
    auto_join: changes.autoJoin === undefined ? existing.auto_join : changes.autoJoin ? 1 : 0,
    admin_privileges:
      changes.adminPrivileges === undefined ? existing.admin_privileges : changes.adminPrivileges ? 1 : 0,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('groups')
      .set({
        description: updated.description,
        auto_join: updated.auto_join,
        admin_privileges: updated.admin_privileges,
        updated_at: now,
      })
      .where('name', '=', name)
      .execute();
    if (ids) {
      await trx.deleteFrom('group_members').where('group_name', '=', name).execute();
      if (ids.length) {
        await trx
          .insertInto('group_members')
          .values(ids.map((user_id) => ({ group_name: name, user_id })))
          .execute();
      }
    }
    await onChange?.(trx, updated);
  });
  new Set([...before, ...(ids ?? [])]).forEach(credentialsChanged);
  return updated;
}

export async function deleteGroups(db: Db, names: string[], onChange?: OnChange<string[]>): Promise<void> {
  for (const name of names) await getGroup(db, name);
  const affected = new Set<string>();
  for (const name of names) (await memberIds(db, name)).forEach((id) => affected.add(id));
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('permission_grants')
      .where('principal_type', '=', 'group')
      .where('principal_name', 'in', names)
      .execute();
    await trx
      .deleteFrom('project_members')
      .where('principal_type', '=', 'group')
      .where('principal_name', 'in', names)
      .execute();
    await trx.deleteFrom('groups').where('name', 'in', names).execute();
    await onChange?.(trx, names);
  });
  affected.forEach(credentialsChanged);
}

/** The groups a user belongs to, by name. */
export async function groupsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('group_name')
    .where('user_id', '=', userId)
    .orderBy('group_name')
    .execute();
  return rows.map((r) => r.group_name);
}

/** Replaces a user's groups inside the caller's transaction (the caller ends cached verdicts after commit). */
export async function replaceUserGroups(trx: Db, userId: string, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length) {
    const rows = await trx.selectFrom('groups').select('name').where('name', 'in', unique).execute();
    const missing = unique.find((n) => !rows.some((r) => r.name === n));
    if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownGroup, missing));
  }
  await trx.deleteFrom('group_members').where('user_id', '=', userId).execute();
  if (unique.length) {
    await trx
      .insertInto('group_members')
      .values(unique.map((group_name) => ({ group_name, user_id: userId })))
      .execute();
  }
}

/** Groups every new user joins. */
export async function autoJoinGroups(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('groups').select('name').where('auto_join', '=', 1).execute();
  return rows.map((r) => r.name);
}

/** Maps Artifactory's REST group body onto the changes above. */
export function restGroupChanges(body: GroupRestBody): GroupChanges {
  return {
    description: body.description,
    autoJoin: body.autoJoin,
    adminPrivileges: body.adminPrivileges,
    members: body.userNames,
  };
}
