import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';

/** The rows of the users feature (who is who is the identity feature's: user rows by id and name). */

export function listUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('name').execute();
}

export async function adminCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('admin', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUserRow(trx: Db, id: string, changes: Partial<UserRow>): Promise<void> {
  await trx.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Removes a user with what grants the name rights and what the console kept for it (a later user of the same name starts with none). */
export async function deleteUserRow(trx: Db, user: Pick<UserRow, 'id' | 'name'>): Promise<void> {
  await trx
    .deleteFrom('permission_grants')
    .where('principal_type', '=', 'user')
    .where('principal_name', '=', user.name)
    .execute();
  await trx
    .deleteFrom('project_members')
    .where('principal_type', '=', 'user')
    .where('principal_name', '=', user.name)
    .execute();
  // the console's values for the name (Getting Started seen, the onboarding) go with it too
  await trx.deleteFrom('user_custom_data').where('user_name', '=', user.name).execute();
  await trx.deleteFrom('users').where('id', '=', user.id).execute();
}

/** A user's custom data, by key (values parsed from JSON). */
export async function customDataOf(db: Db, user: string): Promise<Record<string, unknown>> {
  const rows = await db
    .selectFrom('user_custom_data')
    .select(['data_key', 'value'])
    .where('user_name', '=', user)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.data_key, JSON.parse(r.value) as unknown]));
}

export async function putCustomData(db: Db, user: string, key: string, value: unknown): Promise<void> {
  const text = JSON.stringify(value ?? null);
  const now = Date.now();
  await db
    .insertInto('user_custom_data')
    .values({ user_name: user, data_key: key, value: text, updated_at: now })
    .onConflict((oc) => oc.columns(['user_name', 'data_key']).doUpdateSet({ value: text, updated_at: now }))
    .execute();
}

export async function deleteCustomData(db: Db, user: string, key: string): Promise<boolean> {
  const result = await db
    .deleteFrom('user_custom_data')
    .where('user_name', '=', user)
    .where('data_key', '=', key)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
