import type { Db } from '../../db/database.js';
import type {
  EnvironmentsTable,
  ReleaseBundleArtifactsTable,
  ReleaseBundleDistributionsTable,
  ReleaseBundlePromotionsTable,
  ReleaseBundleVersionsTable,
} from '../../db/schema.js';

/* The release bundles' queries: versions, their artifacts, environments and promotions. */

const CHUNK = 500;

export function findVersion(db: Db, name: string, version: string): Promise<ReleaseBundleVersionsTable | undefined> {
  return db
    .selectFrom('release_bundle_versions')
    .selectAll()
    .where('name', '=', name)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** The versions of a bundle, newest first. */
export function versionsOf(db: Db, name: string): Promise<ReleaseBundleVersionsTable[]> {
  return db
    .selectFrom('release_bundle_versions')
    .selectAll()
    .where('name', '=', name)
    .orderBy('created_at', 'desc')
    .orderBy('version', 'desc')
    .execute();
}

/** Every version, newest first (the console's list groups them by name). */
export function allVersions(db: Db): Promise<ReleaseBundleVersionsTable[]> {
  return db
    .selectFrom('release_bundle_versions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('version', 'desc')
    .execute();
}

export async function insertVersion(
  trx: Db,
  row: ReleaseBundleVersionsTable,
  artifacts: Omit<ReleaseBundleArtifactsTable, 'version_id'>[],
): Promise<void> {
  await trx.insertInto('release_bundle_versions').values(row).execute();
  for (let i = 0; i < artifacts.length; i += CHUNK) {
    await trx
      .insertInto('release_bundle_artifacts')
      .values(artifacts.slice(i, i + CHUNK).map((a) => ({ ...a, version_id: row.id })))
      .execute();
  }
}

export async function deleteVersion(trx: Db, id: string): Promise<void> {
  // the artifacts, promotions and distributions go with it (foreign keys), deleted first for SQLite
  await trx.deleteFrom('release_bundle_artifacts').where('version_id', '=', id).execute();
  await trx.deleteFrom('release_bundle_promotions').where('version_id', '=', id).execute();
  await trx.deleteFrom('release_bundle_distributions').where('version_id', '=', id).execute();
  await trx.deleteFrom('release_bundle_versions').where('id', '=', id).execute();
}

/** A version's artifacts in manifest order (repository, then path). */
export function artifactsOf(
  db: Db,
  versionId: string,
  page?: { limit: number; offset: number },
): Promise<ReleaseBundleArtifactsTable[]> {
  let query = db
    .selectFrom('release_bundle_artifacts')
    .selectAll()
    .where('version_id', '=', versionId)
    .orderBy('repo_key')
    .orderBy('path');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

/** The versions that hold a file with this SHA-256 (the artifact's "release bundles" tab). */
export function versionsHolding(db: Db, sha256: string, limit: number) {
  return db
    .selectFrom('release_bundle_artifacts as a')
    .innerJoin('release_bundle_versions as v', 'v.id', 'a.version_id')
    .select(['v.name', 'v.version', 'v.created_at', 'v.created_by', 'a.repo_key', 'a.path'])
    .where('a.sha256', '=', sha256.toLowerCase())
    .orderBy('v.created_at', 'desc')
    .limit(limit)
    .execute();
}

/* ---------- Environments ---------- */

export function environments(db: Db): Promise<EnvironmentsTable[]> {
  return db.selectFrom('environments').selectAll().orderBy('position').orderBy('name').execute();
}

export function findEnvironment(db: Db, name: string): Promise<EnvironmentsTable | undefined> {
  return db.selectFrom('environments').selectAll().where('name', '=', name).executeTakeFirst();
}

/** The repositories of each environment (or of one). */
export async function environmentRepositories(db: Db, name?: string): Promise<Map<string, string[]>> {
  let query = db.selectFrom('environment_repositories').selectAll().orderBy('repo_key');
  if (name !== undefined) query = query.where('environment', '=', name);
  const byEnvironment = new Map<string, string[]>();
  for (const row of await query.execute()) {
    const list = byEnvironment.get(row.environment) ?? [];
    list.push(row.repo_key);
    byEnvironment.set(row.environment, list);
  }
  return byEnvironment;
}

export async function insertEnvironment(trx: Db, row: EnvironmentsTable): Promise<void> {
  await trx.insertInto('environments').values(row).execute();
}

export async function updateEnvironment(trx: Db, name: string, description: string): Promise<void> {
  await trx.updateTable('environments').set({ description }).where('name', '=', name).execute();
}

export async function setEnvironmentRepositories(trx: Db, name: string, repoKeys: string[]): Promise<void> {
  await trx.deleteFrom('environment_repositories').where('environment', '=', name).execute();
  if (repoKeys.length)
    await trx
      .insertInto('environment_repositories')
      .values(repoKeys.map((repo_key) => ({ environment: name, repo_key })))
      .execute();
}

export async function deleteEnvironment(trx: Db, name: string): Promise<void> {
  await trx.deleteFrom('environment_repositories').where('environment', '=', name).execute();
  await trx.deleteFrom('environments').where('name', '=', name).execute();
}

export async function nextEnvironmentPosition(db: Db): Promise<number> {
  const row = await db
    .selectFrom('environments')
    .select((eb) => eb.fn.max<number | null>('position').as('top'))
    .executeTakeFirst();
  return Number(row?.top ?? -1) + 1;
}

/* ---------- Promotions ---------- */

export async function insertPromotion(trx: Db, row: ReleaseBundlePromotionsTable): Promise<void> {
  await trx.insertInto('release_bundle_promotions').values(row).execute();
}

/** A version's promotions, newest first. */
export function promotionsOf(db: Db, versionId: string): Promise<ReleaseBundlePromotionsTable[]> {
  return db
    .selectFrom('release_bundle_promotions')
    .selectAll()
    .where('version_id', '=', versionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The successful promotions of many versions, oldest first: each version's environments reached. */
export async function reachedEnvironments(db: Db, versionIds: string[]): Promise<Map<string, string[]>> {
  const reached = new Map<string, string[]>();
  for (let i = 0; i < versionIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('release_bundle_promotions')
      .select(['version_id', 'environment'])
      .where('version_id', 'in', versionIds.slice(i, i + CHUNK))
      .where('status', '=', 'COMPLETED')
      .orderBy('created_at')
      .execute();
    for (const row of rows) {
      const list = reached.get(row.version_id) ?? [];
      if (list.includes(row.environment)) list.splice(list.indexOf(row.environment), 1);
      list.push(row.environment);
      reached.set(row.version_id, list);
    }
  }
  return reached;
}

export async function promotionsIn(db: Db, environment: string): Promise<number> {
  const row = await db
    .selectFrom('release_bundle_promotions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('environment', '=', environment)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findVersionById(db: Db, id: string): Promise<ReleaseBundleVersionsTable | undefined> {
  return db.selectFrom('release_bundle_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/* ---------- Distributions ---------- */

export async function insertDistribution(trx: Db, row: ReleaseBundleDistributionsTable): Promise<void> {
  await trx.insertInto('release_bundle_distributions').values(row).execute();
}

export function findDistribution(db: Db, id: string): Promise<ReleaseBundleDistributionsTable | undefined> {
  return db.selectFrom('release_bundle_distributions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Changes a distribution still in progress; answers whether it was. One that ended or was aborted
 * meanwhile is left as it is: whoever ended it first decides.
 */
export async function updateDistribution(
  db: Db,
  id: string,
  changes: Partial<Omit<ReleaseBundleDistributionsTable, 'id'>>,
): Promise<boolean> {
  const changed = await db
    .updateTable('release_bundle_distributions')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

/** A version's distributions (and deletions), newest first. */
export function distributionsOf(db: Db, versionId: string): Promise<ReleaseBundleDistributionsTable[]> {
  return db
    .selectFrom('release_bundle_distributions')
    .selectAll()
    .where('version_id', '=', versionId)
    .orderBy('created_at', 'desc')
    .orderBy('target_name')
    .execute();
}
