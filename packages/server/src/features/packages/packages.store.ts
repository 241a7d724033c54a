import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/database.js';
import type { PackageVersionRow } from '../../db/schema.js';
import { folderOfFile } from '../../core/artifact-path.js';

/** A version row with its lead file's size, download count and repository class. */
export type CatalogueRow = PackageVersionRow & { download_count: number; rclass: string };

export interface RowFilter {
  types?: string[];
  /** A lowercase name with `*` and `?` wildcards. */
  namePattern?: string;
  name?: string;
  repoKeys: string[];
}

/** Records (or replaces) what a repository's lead file says of a package version; answers the version's id. */
export async function upsertVersion(
  db: Db,
  row: Omit<PackageVersionRow, 'id' | 'created_at' | 'modified_at'> & { created_at: number; modified_at: number },
): Promise<string> {
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('package_versions')
      .where('repo_key', '=', row.repo_key)
      .where('lead_path', '=', row.lead_path)
      .execute();
    await trx
      .insertInto('package_versions')
      .values({ id, ...row })
      .execute();
  });
  return id;
}

/** Forgets the versions whose lead file was at or below a path (the repository's whole content for ''). */
export async function deleteUnder(db: Db, repoKey: string, path: string): Promise<void> {
  let query = db.deleteFrom('package_versions').where('repo_key', '=', repoKey);
  if (path) {
    query = query.where((eb) =>
      eb.or([
        eb('lead_path', '=', path),
        eb.and([eb('lead_path', '>=', `${path}/`), eb('lead_path', '<', `${path}0`)]),
      ]),
    );
  }
  await query.execute();
}

/** The version rows a filter selects, with their lead files' figures. */
export async function findRows(db: Db, filter: RowFilter): Promise<CatalogueRow[]> {
  if (!filter.repoKeys.length) return [];
  let query = db
    .selectFrom('package_versions as v')
    .innerJoin('repositories as r', 'r.key', 'v.repo_key')
    .leftJoin('items as i', (join) => join.onRef('i.repo_key', '=', 'v.repo_key').onRef('i.path', '=', 'v.lead_path'))
    .selectAll('v')
    .select(['r.rclass', sql<number>`coalesce(i.download_count, 0)`.as('download_count')])
    .where('v.repo_key', 'in', filter.repoKeys);
  if (filter.types?.length) query = query.where('v.package_type', 'in', filter.types);
  if (filter.name !== undefined) query = query.where('v.name', '=', filter.name);
  if (filter.namePattern && filter.namePattern !== '*') {
    const like = filter.namePattern
      .replace(/[\\%_]/g, (c) => `\\${c}`)
      .replace(/\*/g, '%')
      .replace(/\?/g, '_');
    query = query.where(
      isPostgres(db)
        ? sql<boolean>`v.lowercase_name like ${like} escape '\\'`
        : sql<boolean>`v.lowercase_name like ${like} escape '\\'`,
    );
  }
  const rows = await query.execute();
  return rows.map((r) => ({ ...r, download_count: Number(r.download_count), size: Number(r.size) }));
}

/** The lead file of one package version in one repository (the newest row when indexed twice). */
export async function versionLeadPath(
  db: Db,
  key: { packageType: string; name: string; version: string; repoKey: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('package_versions')
    .select('lead_path')
    .where('repo_key', '=', key.repoKey)
    .where('package_type', '=', key.packageType)
    .where('name', '=', key.name)
    .where('version', '=', key.version)
    .orderBy('modified_at', 'desc')
    .executeTakeFirst();
  return row?.lead_path;
}

/**
 * The catalogued version a stored file belongs to: the one it leads, or (`inFolder`, a format whose
 * versions are folders) the one led by a file of its folder.
 */
export async function catalogueVersionOf(
  db: Db,
  repoKey: string,
  path: string,
  inFolder: boolean,
): Promise<CatalogueVersion | undefined> {
  const columns = ['id', 'package_type', 'name', 'version', 'repo_key', 'lead_path', 'sha256', 'licenses'] as const;
  const exact = await db
    .selectFrom('package_versions')
    .select(columns)
    .where('repo_key', '=', repoKey)
    .where('lead_path', '=', path)
    .executeTakeFirst();
  const folder = folderOfFile(path);
  if (exact || !inFolder || !folder) return exact;
  const rows = await db
    .selectFrom('package_versions')
    .select(columns)
    .where('repo_key', '=', repoKey)
    .where('lead_path', '>=', folder.from)
    .where('lead_path', '<', folder.below)
    .execute();
  return rows.find((r) => folder.holds(r.lead_path));
}

/** A catalogued version as a scanner reads it. */
export type CatalogueVersion = Pick<
  PackageVersionRow,
  'id' | 'package_type' | 'name' | 'version' | 'repo_key' | 'lead_path' | 'sha256' | 'licenses'
>;

/** The catalogue's versions in id order after `after` ('' for the first), `limit` at a time. */
export function catalogueVersions(db: Db, after: string, limit: number): Promise<CatalogueVersion[]> {
  return db
    .selectFrom('package_versions')
    .select(['id', 'package_type', 'name', 'version', 'repo_key', 'lead_path', 'sha256', 'licenses'])
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
}
