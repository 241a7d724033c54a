import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AdvisorySourcesTable } from '../../db/schema.js';

/** The URLs advisories are fetched from, as stored. */
export type AdvisorySourceRow = Selectable<AdvisorySourcesTable>;

export function listSources(db: Db): Promise<AdvisorySourceRow[]> {
  return db.selectFrom('advisory_sources').selectAll().orderBy('name').execute();
}

export function findSource(db: Db, name: string): Promise<AdvisorySourceRow | undefined> {
  return db.selectFrom('advisory_sources').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertSource(db: Db, row: AdvisorySourceRow): Promise<void> {
  await db.insertInto('advisory_sources').values(row).execute();
}

export async function updateSource(
  db: Db,
  name: string,
  values: Partial<Omit<AdvisorySourceRow, 'name' | 'created_at' | 'created_by'>>,
): Promise<void> {
  await db.updateTable('advisory_sources').set(values).where('name', '=', name).execute();
}

export async function deleteSource(db: Db, name: string): Promise<boolean> {
  const result = await db.deleteFrom('advisory_sources').where('name', '=', name).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
