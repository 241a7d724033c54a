import { sql } from 'kysely';
import { isPostgres, preparedQuery, type Db } from '../../db/database.js';
import type { ItemRow } from '../../db/schema.js';
import { refuseHeld } from './artifacts.holds.store.js';

const itemAt = preparedQuery<ItemRow, [repoKey: string, path: string]>((db) =>
  db.selectFrom('items').selectAll().where('repo_key', '=', '').where('path', '=', ''),
);

/** Most item rows a process keeps between writes. */
const HOT_ITEMS = 10_000;

interface HotItems {
  changeMark: () => string;
  /**
   * Whether an absent item is kept too: where the mark is exact (SQLite). Where another node's
   * commit counts only once its notification arrives (PostgreSQL), a miss is asked again, so
   * that a file deployed on one node is found on the next at once.
   */
  keepsMisses: boolean;
  /** The database's mark when the rows were read: any write since, anywhere, drops them all. */
  mark: string;
  rows: Map<string, ItemRow | undefined>;
}

const hotItems = new WeakMap<Db, HotItems>();

/**
 * Keeps the items downloads look up in memory until the database changes (its change mark covers
 * this process's writes and other processes' commits: `openDatabase`), so that a hot file costs
 * no query. Only the root database object caches: reads inside a transaction always query.
 */
export function enableItemCache(db: Db, changeMark: () => string): void {
  hotItems.set(db, { changeMark, keepsMisses: !isPostgres(db), mark: '', rows: new Map() });
}

/** The item at a path: the query every download runs, compiled once (and cached where enabled). */
export async function findItem(db: Db, repoKey: string, path: string): Promise<ItemRow | undefined> {
  const hot = hotItems.get(db);
  if (!hot) return (await itemAt(db, repoKey, path))[0];
  const mark = hot.changeMark();
  if (mark !== hot.mark) {
    hot.rows.clear();
    hot.mark = mark;
  }
  const key = `${repoKey}\u0000${path}`;
  if (hot.rows.has(key)) {
    const row = hot.rows.get(key);
    return row && { ...row };
  }
  const row = (await itemAt(db, repoKey, path))[0];
  // kept only when nothing was written while it was read
  if ((row || hot.keepsMisses) && hot.changeMark() === mark && hot.mark === mark) {
    if (hot.rows.size >= HOT_ITEMS) hot.rows.delete(hot.rows.keys().next().value!);
    hot.rows.set(key, row && { ...row });
  }
  return row;
}

/**
 * The items at some paths of a repository, by path (a file and its ancestor folders): one round
 * trip on PostgreSQL; SQLite, in process, runs the compiled lookup of each faster than it builds
 * one query for them all.
 */
export async function findItems(db: Db, repoKey: string, paths: string[]): Promise<Map<string, ItemRow>> {
  if (!isPostgres(db)) {
    const found = new Map<string, ItemRow>();
    for (const path of paths) {
      const row = await findItem(db, repoKey, path);
      if (row) found.set(path, row);
    }
    return found;
  }
  if (!paths.length) return new Map();
  const rows = await db
    .selectFrom('items')
    .selectAll()
    .where('repo_key', '=', repoKey)
    .where('path', 'in', paths)
    .execute();
  return new Map(rows.map((row) => [row.path, row]));
}

/**
 * The item at a path, locked until the transaction ends on PostgreSQL (SQLite writers are
 * serialised already): for a change that depends on what is there now.
 */
export async function lockItem(trx: Db, repoKey: string, path: string): Promise<ItemRow | undefined> {
  await holdPath(trx, repoKey, path);
  const query = trx.selectFrom('items').selectAll().where('repo_key', '=', repoKey).where('path', '=', path);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Holds a path until the transaction ends on PostgreSQL, so that its writers take turns: a row
 * lock cannot hold a path that has no item yet, and two writers of a new file would both insert it,
 * the second failing on the unique key instead of replacing the first's. (SQLite's writers take
 * turns already.) Taken before the item is read, so that the read sees the previous writer's commit.
 */
export async function holdPath(trx: Db, repoKey: string, path: string): Promise<void> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtextextended(${`${repoKey}/${path}`}, 0))`.execute(trx);
}

/** `path` compared byte-wise (PostgreSQL's "C" collation; SQLite compares bytes already). */
function bytewisePath(db: Db) {
  return isPostgres(db) ? sql<string>`path collate "C"` : sql<string>`path`;
}

/**
 * The items strictly below `path` as an index range: `path/` ≤ p < `path0` ('0' follows '/'),
 * so listing a subtree reads only that subtree, never the whole repository.
 */
function belowPath(db: Db, path: string) {
  const column = bytewisePath(db);
  return sql<boolean>`(${column} >= ${`${path}/`} and ${column} < ${`${path}0`})`;
}

/** An item and everything below it, by path. */
export function findSubtree(db: Db, repoKey: string, path: string): Promise<ItemRow[]> {
  let query = db.selectFrom('items').selectAll().where('repo_key', '=', repoKey);
  if (path) query = query.where((eb) => eb.or([eb('path', '=', path), belowPath(db, path)]));
  return query.orderBy(bytewisePath(db)).execute();
}

/** Changes a repository's counters by the given amounts (in the change's transaction). */
export async function adjustUsage(
  db: Db,
  repoKey: string,
  delta: { files?: number; folders?: number; size?: number },
): Promise<void> {
  const files = delta.files ?? 0;
  const folders = delta.folders ?? 0;
  const size = delta.size ?? 0;
  if (!files && !folders && !size) return;
  await db
    .insertInto('repository_usage')
    .values({ repo_key: repoKey, files, folders, size })
    .onConflict((oc) =>
      oc.column('repo_key').doUpdateSet({
        files: sql<number>`repository_usage.files + ${files}`,
        folders: sql<number>`repository_usage.folders + ${folders}`,
        size: sql<number>`repository_usage.size + ${size}`,
      }),
    )
    .execute();
}

/** What a set of items adds to its repositories' counters (negate to remove them). */
export async function countItems(db: Db, items: ItemRow[], sign: 1 | -1): Promise<void> {
  const byRepo = new Map<string, { files: number; folders: number; size: number }>();
  for (const item of items) {
    const entry = byRepo.get(item.repo_key) ?? { files: 0, folders: 0, size: 0 };
    if (item.folder === 1) entry.folders += sign;
    else {
      entry.files += sign;
      entry.size += sign * Number(item.size);
    }
    byRepo.set(item.repo_key, entry);
  }
  for (const [repoKey, delta] of byRepo) await adjustUsage(db, repoKey, delta);
}

function childrenOfKind(db: Db, repoKey: string, parent: string, folder: 0 | 1, offset: number, limit: number) {
  return db
    .selectFrom('items')
    .selectAll()
    .where('repo_key', '=', repoKey)
    .where('parent', '=', parent)
    .where('folder', '=', folder)
    .orderBy('name')
    .offset(offset)
    .limit(limit)
    .execute();
}

async function countOfKind(db: Db, repoKey: string, parent: string, folder: 0 | 1): Promise<number> {
  const row = await db
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('repo_key', '=', repoKey)
    .where('parent', '=', parent)
    .where('folder', '=', folder)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One page of a folder's children: folders first, then files, each by name. Two range scans of
 * the (repo_key, parent, folder, name) index instead of one sort of every child.
 */
export async function listChildren(
  db: Db,
  repoKey: string,
  parent: string,
  offset: number,
  limit: number,
): Promise<ItemRow[]> {
  const folders = await countOfKind(db, repoKey, parent, 1);
  const page: ItemRow[] = [];
  if (offset < folders) page.push(...(await childrenOfKind(db, repoKey, parent, 1, offset, limit)));
  const left = limit - page.length;
  if (left > 0) page.push(...(await childrenOfKind(db, repoKey, parent, 0, Math.max(0, offset - folders), left)));
  return page;
}

export async function countChildren(db: Db, repoKey: string, parent: string): Promise<number> {
  const row = await db
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('repo_key', '=', repoKey)
    .where('parent', '=', parent)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function repositoryHasChildren(db: Db, repoKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('repo_key', '=', repoKey)
    .where('parent', '=', '')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function propertiesOf(db: Db, itemId: string): Promise<Record<string, string[]>> {
  const rows = await db
    .selectFrom('item_properties')
    .select(['key', 'value'])
    .where('item_id', '=', itemId)
    .orderBy('key')
    .orderBy('value')
    .execute();
  const result: Record<string, string[]> = {};
  for (const row of rows) (result[row.key] ??= []).push(row.value);
  return result;
}

/** Replaces the values of the given keys on one item. */
export async function putProperties(db: Db, itemId: string, properties: Record<string, string[]>): Promise<void> {
  for (const [key, values] of Object.entries(properties)) {
    await db.deleteFrom('item_properties').where('item_id', '=', itemId).where('key', '=', key).execute();
    const unique = [...new Set(values)];
    if (unique.length)
      await db
        .insertInto('item_properties')
        .values(unique.map((value) => ({ item_id: itemId, key, value })))
        .execute();
  }
}

export async function deleteProperties(db: Db, itemId: string, keys: string[]): Promise<void> {
  if (keys.length)
    await db.deleteFrom('item_properties').where('item_id', '=', itemId).where('key', 'in', keys).execute();
}

/** One more item refers to this content (inserts the binary row on first use). */
export async function retainBinary(
  db: Db,
  binary: { sha256: string; sha1: string; md5: string; size: number },
  now: number,
): Promise<void> {
  await db
    .insertInto('binaries')
    .values({
      sha256: binary.sha256,
      sha1: binary.sha1,
      md5: binary.md5,
      size: binary.size,
      ref_count: 1,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('sha256').doUpdateSet({ ref_count: sql<number>`binaries.ref_count + 1`, updated_at: now }),
    )
    .execute();
}

/** Items no longer refer to these contents (one release per entry). */
export async function releaseBinaries(db: Db, sha256s: string[], now: number): Promise<void> {
  const counts = new Map<string, number>();
  for (const sha of sha256s) counts.set(sha, (counts.get(sha) ?? 0) + 1);
  // the contents released as many times alike in one statement (most: once each)
  const byCount = new Map<number, string[]>();
  for (const [sha, n] of counts) {
    const shas = byCount.get(n) ?? [];
    shas.push(sha);
    byCount.set(n, shas);
  }
  for (const [n, shas] of byCount) {
    for (let i = 0; i < shas.length; i += 500) {
      await db
        .updateTable('binaries')
        .set({ ref_count: sql<number>`ref_count - ${n}`, updated_at: now })
        .where('sha256', 'in', shas.slice(i, i + 500))
        .execute();
    }
  }
}

/** Which of the given contents this deployment holds: a deploy of them by checksum needs no bytes. */
export async function storedContents(db: Db, sha256s: string[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (let i = 0; i < sha256s.length; i += 500) {
    const rows = await db
      .selectFrom('binaries')
      .select('sha256')
      .where('sha256', 'in', sha256s.slice(i, i + 500))
      .execute();
    for (const row of rows) held.add(row.sha256);
  }
  return held;
}

export function findBinary(db: Db, checksum: { sha256?: string; sha1?: string }) {
  let query = db.selectFrom('binaries').selectAll();
  if (checksum.sha256) query = query.where('sha256', '=', checksum.sha256.toLowerCase());
  else if (checksum.sha1) query = query.where('sha1', '=', checksum.sha1.toLowerCase());
  else return Promise.resolve(undefined);
  return query.executeTakeFirst();
}

/**
 * Deletes items (properties go with them), releases their contents and updates the counters. A
 * held file refuses the whole deletion (409) unless `held` is 'ignore' (a file replaced by the
 * same content, a repository deleted whole).
 */
export async function deleteItems(
  db: Db,
  items: ItemRow[],
  now: number,
  options: { held?: 'refuse' | 'ignore' } = {},
): Promise<void> {
  if (!items.length) return;
  if (options.held !== 'ignore') await refuseHeld(db, items);
  await countItems(db, items, -1);
  const ids = items.map((i) => i.id);
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .deleteFrom('items')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
  await releaseBinaries(
    db,
    items.filter((i) => i.folder === 0 && i.sha256).map((i) => i.sha256!),
    now,
  );
}

/** Files, folders and bytes below a path (the whole repository for ''). */
export async function subtreeStats(
  db: Db,
  repoKey: string,
  path: string,
): Promise<{ files: number; folders: number; size: number }> {
  let query = db
    .selectFrom('items')
    .select((eb) => [
      'folder',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('size').as('size'),
    ])
    .where('repo_key', '=', repoKey);
  if (path) query = query.where(belowPath(db, path));
  const rows = await query.groupBy('folder').execute();
  const stats = { files: 0, folders: 0, size: 0 };
  for (const row of rows) {
    if (row.folder === 1) stats.folders = Number(row.n);
    else {
      stats.files = Number(row.n);
      stats.size = Number(row.size ?? 0);
    }
  }
  return stats;
}

/** Files of local repositories whose SHA-1 is one of `sha1s` (of one repository, or all but one). */
export async function filesBySha1(db: Db, sha1s: string[], options: { repoKey?: string; except?: string } = {}) {
  if (!sha1s.length) return [];
  let query = db
    .selectFrom('items as i')
    .innerJoin('binaries as b', 'b.sha256', 'i.sha256')
    .innerJoin('repositories as r', 'r.key', 'i.repo_key')
    .select(['i.repo_key', 'i.path', 'b.sha1'])
    .where('b.sha1', 'in', sha1s)
    .where('i.folder', '=', 0)
    .where('r.rclass', '=', 'local');
  if (options.except) query = query.where('i.repo_key', '!=', options.except);
  if (options.repoKey) query = query.where('i.repo_key', '=', options.repoKey);
  return query.execute();
}
