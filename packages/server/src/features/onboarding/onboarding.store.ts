import type { Db } from '../../db/database.js';

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
