import type { Db } from '../../db/database.js';
import type { RepositoryRow } from '../../db/schema.js';
import { cachedConfigPresent } from '../../core/config-cache.js';

/**
 * A repository by key; outside transactions from the per-process configuration cache (an unknown
 * key is asked again, so that a repository another node just created is found).
 */
export function findRepository(db: Db, key: string): Promise<RepositoryRow | undefined> {
  return cachedConfigPresent(db, `repository:${key}`, () =>
    db.selectFrom('repositories').selectAll().where('key', '=', key).executeTakeFirst(),
  );
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
/** Files, folders and bytes per repository, from the counters every item change keeps up to date. */
export async function usageByRepository(
  db: Db,
): Promise<Map<string, { files: number; folders: number; size: number }>> {
  const rows = await db.selectFrom('repository_usage').selectAll().execute();
  return new Map(
    rows.map((r) => [r.repo_key, { files: Number(r.files), folders: Number(r.folders), size: Number(r.size) }]),
  );
}

export async function hasItems(db: Db, key: string): Promise<boolean> {
  return (
    (await db.selectFrom('items').select('id').where('repo_key', '=', key).limit(1).executeTakeFirst()) !== undefined
  );
}

/** Inserts a repository unless one with its key exists; answers whether it was inserted. */
export async function insertRepositoryIfAbsent(db: Db, row: RepositoryRow): Promise<boolean> {
  const result = await db
    .insertInto('repositories')
    .values(row)
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
