import type { Db } from '../../db/database.js';
import type { RepositoryRow } from '../../db/schema.js';

export function findRepository(db: Db, key: string): Promise<RepositoryRow | undefined> {
  return db.selectFrom('repositories').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Case-insensitive look-up, for key clashes. */
export function findRepositoryIgnoringCase(db: Db, key: string): Promise<RepositoryRow | undefined> {
  return db
    .selectFrom('repositories')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['key']), '=', key.toLowerCase()))
    .executeTakeFirst();
}

export function listRepositories(db: Db): Promise<RepositoryRow[]> {
  return db.selectFrom('repositories').selectAll().orderBy('key').execute();
}

export async function insertRepository(db: Db, row: RepositoryRow): Promise<void> {
  await db.insertInto('repositories').values(row).execute();
}

export async function updateRepository(db: Db, row: RepositoryRow): Promise<void> {
  const { key, created_at: _created, ...rest } = row;
  await db.updateTable('repositories').set(rest).where('key', '=', key).execute();
}

export async function deleteRepository(db: Db, key: string): Promise<void> {
  await db.deleteFrom('repositories').where('key', '=', key).execute();
}

/** Files and their total size per repository. */
export async function usageByRepository(
  db: Db,
): Promise<Map<string, { files: number; folders: number; size: number }>> {
  const rows = await db
    .selectFrom('items')
    .select((eb) => [
      'repo_key',
      'folder',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('size').as('size'),
    ])
    .groupBy(['repo_key', 'folder'])
    .execute();
  const usage = new Map<string, { files: number; folders: number; size: number }>();
  for (const row of rows) {
    const entry = usage.get(row.repo_key) ?? { files: 0, folders: 0, size: 0 };
    if (row.folder === 1) entry.folders += Number(row.count);
    else {
      entry.files += Number(row.count);
      entry.size += Number(row.size ?? 0);
    }
    usage.set(row.repo_key, entry);
  }
  return usage;
}

export async function hasItems(db: Db, key: string): Promise<boolean> {
  return (
    (await db.selectFrom('items').select('id').where('repo_key', '=', key).limit(1).executeTakeFirst()) !== undefined
  );
}
