import type { Db } from '../../db/database.js';
import type { BuildFilesTable, BuildPromotionsTable, BuildsTable } from '../../db/schema.js';

/** The rows of the builds feature: runs (`builds`), their files and their promotions. */

/** Every build name, in order. */
export async function buildNames(db: Db): Promise<string[]> {
  return (await db.selectFrom('builds').select('name').distinct().orderBy('name').execute()).map((r) => r.name);
}

/** A run stored anew (a run of the same name, number and start replaced), with its files, in the caller's transaction. */
export async function replaceRun(trx: Db, run: BuildsTable, files: BuildFilesTable[]): Promise<void> {
  await trx
    .deleteFrom('builds')
    .where('name', '=', run.name)
    .where('number', '=', run.number)
    .where('started_at', '=', run.started_at)
    .execute();
  await trx.insertInto('builds').values(run).execute();
  for (let i = 0; i < files.length; i += 200)
    await trx
      .insertInto('build_files')
      .values(files.slice(i, i + 200))
      .execute();
}

/** The runs of a build, newest start first. */
export function runsOf(db: Db, name: string): Promise<BuildsTable[]> {
  return db.selectFrom('builds').selectAll().where('name', '=', name).orderBy('started_at', 'desc').execute();
}

/** A run by number, the newest when a number was published more than once. */
export function runOf(db: Db, name: string, number: string): Promise<BuildsTable | undefined> {
  return db
    .selectFrom('builds')
    .selectAll()
    .where('name', '=', name)
    .where('number', '=', number)
    .orderBy('started_at', 'desc')
    .executeTakeFirst();
}

export async function deleteRun(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('builds').where('id', '=', id).execute();
}

export async function renameRun(db: Db, id: string, name: string, path: string): Promise<void> {
  await db.updateTable('builds').set({ name, path }).where('id', '=', id).execute();
}

/** The SHA-1s of what a run produced (and, with `dependencies`, of what it used). */
export async function artifactSha1s(db: Db, runId: string, dependencies = false): Promise<string[]> {
  const rows = await db
    .selectFrom('build_files')
    .select('sha1')
    .where('build_id', '=', runId)
    .where('kind', 'in', dependencies ? ['artifact', 'dependency'] : ['artifact'])
    .execute();
  return rows.map((f) => f.sha1).filter((s): s is string => Boolean(s));
}

/** The runs that produced or used a file with this SHA-1. */
export function runsWithFile(db: Db, sha1: string) {
  return db
    .selectFrom('build_files as f')
    .innerJoin('builds as b', 'b.id', 'f.build_id')
    .select(['b.name', 'b.number', 'b.started', 'b.started_at', 'f.kind', 'f.module'])
    .where('f.sha1', '=', sha1)
    .execute();
}

/** The promotions of runs, oldest first. */
export function promotionsOf(db: Db, runIds: string[]): Promise<BuildPromotionsTable[]> {
  if (!runIds.length) return Promise.resolve([]);
  return db
    .selectFrom('build_promotions')
    .selectAll()
    .where('build_id', 'in', runIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertPromotion(trx: Db, row: BuildPromotionsTable): Promise<void> {
  await trx.insertInto('build_promotions').values(row).execute();
}
