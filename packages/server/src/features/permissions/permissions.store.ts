import type { Db } from '../../db/database.js';
import type { PermissionGrantsTable, PermissionTargetRow } from '../../db/schema.js';

/** The rows of the permissions feature: permission targets and the grants they hold. */

export function findTarget(db: Db, name: string): Promise<PermissionTargetRow | undefined> {
  return db.selectFrom('permission_targets').selectAll().where('name', '=', name).executeTakeFirst();
}

export function allTargets(db: Db): Promise<PermissionTargetRow[]> {
  return db.selectFrom('permission_targets').selectAll().orderBy('name').execute();
}

/** The grants of one target, or of all. */
export function grantsOf(db: Db, targetName?: string): Promise<PermissionGrantsTable[]> {
  let query = db.selectFrom('permission_grants').selectAll();
  if (targetName !== undefined) query = query.where('target_name', '=', targetName);
  return query.execute();
}

/** Which of these names are repositories, users and groups. */
export async function knownNames(db: Db, names: { repositories: string[]; users: string[]; groups: string[] }) {
  const keys = names.repositories.length
    ? (await db.selectFrom('repositories').select('key').where('key', 'in', names.repositories).execute()).map(
        (r) => r.key,
      )
    : [];
  const users = names.users.length
    ? (await db.selectFrom('users').select('name').where('name', 'in', names.users).execute()).map((r) => r.name)
    : [];
  const groups = names.groups.length
    ? (await db.selectFrom('groups').select('name').where('name', 'in', names.groups).execute()).map((r) => r.name)
    : [];
  return { repositories: keys, users, groups };
}

/** Stores a target's scopes and grants (replacing its grants when it exists). */
export async function saveTargetRows(
  trx: Db,
  target: { name: string; resources: string; now: number; exists: boolean },
  grants: PermissionGrantsTable[],
): Promise<void> {
  if (target.exists) {
    await trx
      .updateTable('permission_targets')
      .set({ resources: target.resources, updated_at: target.now })
      .where('name', '=', target.name)
      .execute();
    await trx.deleteFrom('permission_grants').where('target_name', '=', target.name).execute();
  } else {
    await trx
      .insertInto('permission_targets')
      .values({ name: target.name, resources: target.resources, created_at: target.now, updated_at: target.now })
      .execute();
  }
  if (grants.length) await trx.insertInto('permission_grants').values(grants).execute();
}

export async function deleteTargetRows(trx: Db, names: string[]): Promise<void> {
  await trx.deleteFrom('permission_targets').where('name', 'in', names).execute();
}
