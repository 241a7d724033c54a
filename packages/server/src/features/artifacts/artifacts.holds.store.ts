import { sql } from 'kysely';
import { ARTIFACT_MESSAGES, formatMessage } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ItemRow } from '../../db/schema.js';
import { conflict } from '../../core/errors.js';

/*
 * Holds: something outside the artifacts (a release bundle version) keeps files as they are. A
 * held file cannot be deleted, moved, overwritten with other content or archived while a hold
 * names it; the refusal says who holds it. The holder is a label a person reads
 * ('release bundle app 1.0.0'), unique per holder.
 */

const CHUNK = 500;

/**
 * Holds the files for `holder` (again holding one it holds already changes nothing), each as it is
 * now: a file that is gone or has another SHA-256 than given refuses the whole hold (409). Call
 * inside the holder's transaction.
 */
export async function holdFiles(
  trx: Db,
  holder: string,
  files: { repoKey: string; path: string; sha256: string }[],
): Promise<void> {
  const byRepo = new Map<string, Map<string, string>>();
  for (const f of files) {
    const paths = byRepo.get(f.repoKey) ?? new Map<string, string>();
    paths.set(f.path, f.sha256);
    byRepo.set(f.repoKey, paths);
  }
  for (const [repoKey, paths] of byRepo) {
    const list = [...paths.keys()];
    for (let i = 0; i < list.length; i += CHUNK) {
      const rows = await trx
        .selectFrom('items')
        .select(['path', 'sha256'])
        .where('repo_key', '=', repoKey)
        .where('path', 'in', list.slice(i, i + CHUNK))
        .where('folder', '=', 0)
        .execute();
      const now = new Map(rows.map((r) => [r.path, r.sha256]));
      for (const path of list.slice(i, i + CHUNK))
        if (now.get(path) !== paths.get(path))
          throw conflict(formatMessage(ARTIFACT_MESSAGES.changedMeanwhile, { path: `${repoKey}/${path}` }));
    }
  }
  for (let i = 0; i < files.length; i += CHUNK) {
    await trx
      .insertInto('item_holds')
      .values(files.slice(i, i + CHUNK).map((f) => ({ repo_key: f.repoKey, path: f.path, holder })))
      .onConflict((oc) => oc.columns(['repo_key', 'path', 'holder']).doNothing())
      .execute();
  }
}

/** Lets go of every file `holder` holds. */
export async function releaseHolds(trx: Db, holder: string): Promise<void> {
  await trx.deleteFrom('item_holds').where('holder', '=', holder).execute();
}

/** Which of `paths` of a repository are held, each with one of its holders. */
export async function heldPaths(db: Db, repoKey: string, paths: string[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (let i = 0; i < paths.length; i += CHUNK) {
    const rows = await db
      .selectFrom('item_holds')
      .select(['path', 'holder'])
      .where('repo_key', '=', repoKey)
      .where('path', 'in', paths.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) if (!held.has(row.path)) held.set(row.path, row.holder);
  }
  return held;
}

/**
 * A condition on the files of a query over `items as i` that chooses files to take away (a
 * retention policy's): none that a hold names.
 */
export const notHeld = sql<boolean>`not exists (select 1 from item_holds h where h.repo_key = i.repo_key and h.path = i.path)`;

/** A holder of some file of the repository, when there is one. */
export async function holderIn(db: Db, repoKey: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('item_holds')
    .select('holder')
    .where('repo_key', '=', repoKey)
    .limit(1)
    .executeTakeFirst();
  return row?.holder;
}

/** Refuses (409, naming the holder) a change that would take away or replace one of `items` while it is held. */
export async function refuseHeld(
  db: Db,
  items: readonly Pick<ItemRow, 'repo_key' | 'path' | 'folder'>[],
): Promise<void> {
  const byRepo = new Map<string, string[]>();
  for (const item of items) {
    if (item.folder === 1) continue;
    const list = byRepo.get(item.repo_key) ?? [];
    list.push(item.path);
    byRepo.set(item.repo_key, list);
  }
  for (const [repoKey, paths] of byRepo) {
    const held = await heldPaths(db, repoKey, paths);
    for (const [path, holder] of held)
      throw conflict(formatMessage(ARTIFACT_MESSAGES.held, { path: `${repoKey}/${path}`, holder }));
  }
}
