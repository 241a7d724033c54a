import { ACCESS_MESSAGES, GROUP_NAME_PATTERN, formatMessage, type Group, type GroupRestBody } from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { credentialsChanged } from '../../core/credentials.js';
import {
  adminGroupNameRows,
  membershipsByUserId,
  allGroups,
  allMemberships,
  autoJoinGroupNames,
  deleteGroupRows,
  existingGroupNames,
  findGroup,
  groupNamesOfUser,
  insertGroup,
  memberIds,
  memberNames,
  replaceMembers,
  replaceUserMemberships,
  updateGroupRow,
  usersByName,
} from './groups.store.js';

const fill = (message: string, name: string) => formatMessage(message, { name });
const iso = (ms: number) => new Date(ms).toISOString();

export interface GroupChanges {
  description?: string | undefined;
  autoJoin?: boolean | undefined;
  adminPrivileges?: boolean | undefined;
  watchManager?: boolean | undefined;
  policyManager?: boolean | undefined;
  policyViewer?: boolean | undefined;
  /** Replaces the member list when given. */
  members?: string[] | undefined;
}

function groupOf(row: GroupRow, members: string[]): Group {
  return {
    name: row.name,
    description: row.description,
    autoJoin: row.auto_join === 1,
    adminPrivileges: row.admin_privileges === 1,
    watchManager: row.watch_manager === 1,
    policyManager: row.policy_manager === 1,
    policyViewer: row.policy_viewer === 1,
    realm: row.realm,
    members,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export async function toGroup(db: Db, row: GroupRow): Promise<Group> {
  return groupOf(row, await memberNames(db, row.name));
}

export async function listGroups(db: Db): Promise<Group[]> {
  const rows = await allGroups(db);
  const members = await allMemberships(db);
  const byGroup = new Map<string, string[]>();
  for (const m of members) byGroup.set(m.group_name, [...(byGroup.get(m.group_name) ?? []), m.name]);
  return rows.map((row) => groupOf(row, byGroup.get(row.name) ?? []));
}

export async function getGroup(db: Db, name: string): Promise<GroupRow> {
  const row = await findGroup(db, name);
  if (!row) throw notFound(fill(ACCESS_MESSAGES.groupNotFound, name));
  return row;
}

async function userIds(db: Db, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const rows = await usersByName(db, unique);
  const missing = unique.find((n) => !rows.some((r) => r.name === n));
  if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownUser, missing));
  return rows.map((r) => r.id);
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
    watch_manager: changes.watchManager ? 1 : 0,
    policy_manager: changes.policyManager ? 1 : 0,
    policy_viewer: changes.policyViewer ? 1 : 0,
    realm: 'internal',
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    if (await findGroup(trx, name)) throw conflict(fill(ACCESS_MESSAGES.groupTaken, name), 'name');
    await insertGroup(trx, row);
    await replaceMembers(trx, name, ids);
    await onChange?.(trx, row);
  });
  ids.forEach(credentialsChanged);
  return row;
}

/** A changed flag, or the stored one where the change leaves it out. */
const flag = (changed: boolean | undefined, stored: number) => (changed === undefined ? stored : changed ? 1 : 0);

export async function updateGroup(
  db: Db,
  name: string,
  changes: GroupChanges,
  onChange?: OnChange<GroupRow>,
  now = Date.now(),
): Promise<GroupRow> {
  const existing = await getGroup(db, name);
  const ids = changes.members ? await userIds(db, changes.members) : undefined;
  // everyone whose rights depend on the group: their cached verdicts are dropped after the change
  const before = await memberIds(db, name);
  const updated: GroupRow = {
    ...existing,
    description: changes.description ?? existing.description,
    auto_join: changes.autoJoin === undefined ? existing.auto_join : changes.autoJoin ? 1 : 0,
    admin_privileges: flag(changes.adminPrivileges, existing.admin_privileges),
    watch_manager: flag(changes.watchManager, existing.watch_manager),
    policy_manager: flag(changes.policyManager, existing.policy_manager),
    policy_viewer: flag(changes.policyViewer, existing.policy_viewer),
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await updateGroupRow(trx, name, {
      description: updated.description,
      auto_join: updated.auto_join,
      admin_privileges: updated.admin_privileges,
      watch_manager: updated.watch_manager,
      policy_manager: updated.policy_manager,
      policy_viewer: updated.policy_viewer,
      updated_at: now,
    });
    if (ids) await replaceMembers(trx, name, ids);
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
    await deleteGroupRows(trx, names);
    await onChange?.(trx, names);
  });
  affected.forEach(credentialsChanged);
}

/** The groups a user belongs to, by name. */
export function groupsOfUser(db: Db, userId: string): Promise<string[]> {
  return groupNamesOfUser(db, userId);
}

/** Replaces a user's groups inside the caller's transaction (the caller ends cached verdicts after commit). */
export async function replaceUserGroups(trx: Db, userId: string, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length) {
    const found = await existingGroupNames(trx, unique);
    const missing = unique.find((n) => !found.includes(n));
    if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownGroup, missing));
  }
  await replaceUserMemberships(trx, userId, unique);
}

/** Groups every new user joins. */
export function autoJoinGroups(db: Db): Promise<string[]> {
  return autoJoinGroupNames(db);
}

/** Maps Artifactory's REST group body onto the changes above. */
export function restGroupChanges(body: GroupRestBody): GroupChanges {
  return {
    description: body.description,
    autoJoin: body.autoJoin,
    adminPrivileges: body.adminPrivileges,
    watchManager: body.watchManager,
    policyManager: body.policyManager,
    policyViewer: body.policyViewer,
    members: body.userNames,
  };
}

/** The groups of every user, by user id. */
export async function groupsByUser(db: Db): Promise<Map<string, string[]>> {
  const byUser = new Map<string, string[]>();
  for (const m of await membershipsByUserId(db))
    byUser.set(m.user_id, [...(byUser.get(m.user_id) ?? []), m.group_name]);
  return byUser;
}

/** The groups whose members are administrators. */
export async function adminGroups(db: Db): Promise<Set<string>> {
  return new Set(await adminGroupNameRows(db));
}
