import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';

/** The rows of the groups feature: groups and their members (users by id). */

export function findGroup(db: Db, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The names of every group, or of those of one realm (`ldap`: imported from a directory). */
export async function groupNames(db: Db, realm?: string): Promise<string[]> {
  let query = db.selectFrom('groups').select('name');
  if (realm !== undefined) query = query.where('realm', '=', realm);
  return (await query.execute()).map((g) => g.name);
}

export function allGroups(db: Db): Promise<GroupRow[]> {
  return db.selectFrom('groups').selectAll().orderBy('name').execute();
}

/** The names of a group's members, in order. */
export async function memberNames(db: Db, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.name')
    .where('m.group_name', '=', name)
    .orderBy('u.name')
    .execute();
  return rows.map((r) => r.name);
}

/** Every membership as group name and user name, ordered by user name. */
export function allMemberships(db: Db): Promise<{ group_name: string; name: string }[]> {
  return db
    .selectFrom('group_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.group_name', 'u.name'])
    .orderBy('u.name')
    .execute();
}

/** The ids of users by name (the names not found are missing from the answer). */
export function usersByName(db: Db, names: string[]): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('users').select(['id', 'name']).where('name', 'in', names).execute();
}

export async function memberIds(db: Db, name: string): Promise<string[]> {
  const rows = await db.selectFrom('group_members').select('user_id').where('group_name', '=', name).execute();
  return rows.map((r) => r.user_id);
}

export async function insertGroup(trx: Db, row: GroupRow): Promise<void> {
  await trx.insertInto('groups').values(row).execute();
}

export async function updateGroupRow(
  trx: Db,
  name: string,
  values: Pick<
    GroupRow,
    | 'description'
    | 'auto_join'
    | 'admin_privileges'
    | 'watch_manager'
    | 'policy_manager'
    | 'policy_viewer'
    | 'updated_at'
  >,
): Promise<void> {
  await trx.updateTable('groups').set(values).where('name', '=', name).execute();
}

/** Sets a group's members (user ids), replacing those it had. */
export async function replaceMembers(trx: Db, name: string, userIds: string[]): Promise<void> {
  await trx.deleteFrom('group_members').where('group_name', '=', name).execute();
  if (userIds.length)
    await trx
      .insertInto('group_members')
      .values(userIds.map((user_id) => ({ group_name: name, user_id })))
      .execute();
}

/** Removes groups with what grants them rights (permission grants, project memberships). */
export async function deleteGroupRows(trx: Db, names: string[]): Promise<void> {
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
}

export async function groupNamesOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('group_members')
    .select('group_name')
    .where('user_id', '=', userId)
    .orderBy('group_name')
    .execute();
  return rows.map((r) => r.group_name);
}

/** Which of these group names exist. */
export async function existingGroupNames(db: Db, names: string[]): Promise<string[]> {
  return (await db.selectFrom('groups').select('name').where('name', 'in', names).execute()).map((r) => r.name);
}

/** Sets a user's groups, replacing those the user had. */
export async function replaceUserMemberships(trx: Db, userId: string, names: string[]): Promise<void> {
  await trx.deleteFrom('group_members').where('user_id', '=', userId).execute();
  if (names.length)
    await trx
      .insertInto('group_members')
      .values(names.map((group_name) => ({ group_name, user_id: userId })))
      .execute();
}

export async function autoJoinGroupNames(db: Db): Promise<string[]> {
  return (await db.selectFrom('groups').select('name').where('auto_join', '=', 1).execute()).map((r) => r.name);
}

/** Every membership as user id and group name, ordered by group name. */
export function membershipsByUserId(db: Db): Promise<{ user_id: string; group_name: string }[]> {
  return db.selectFrom('group_members').select(['user_id', 'group_name']).orderBy('group_name').execute();
}

export async function adminGroupNameRows(db: Db): Promise<string[]> {
  return (await db.selectFrom('groups').select('name').where('admin_privileges', '=', 1).execute()).map((r) => r.name);
}
