import { randomUUID } from 'node:crypto';
import mime from 'mime-types';
import { ARTIFACT_MESSAGES, TRASHCAN_REPO, formatMessage } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { ancestorsOf, nameOf, parentOf } from '../../core/artifact-path.js';
import { conflict } from '../../core/errors.js';
import { getRepository } from '../repositories/index.js';
import { refuseHeld } from './artifacts.holds.store.js';
import {
  adjustUsage,
  countItems,
  deleteItems,
  findItem,
  findItems,
  holdPath,
  putProperties,
  retainBinary,
} from './artifacts.store.js';

/*
 * The item writes every content change is made of — folders, files, relocation — each inside the
 * caller's transaction and keeping the repository usage counters, and the trash can as a repository.
 */

const fill = formatMessage;

/** The trash can looks like a repository in answers and in the tree. */
export const TRASHCAN_ROW: RepositoryRow = {
  key: TRASHCAN_REPO,
  rclass: 'local',
  package_type: 'generic',
  description: 'Deleted items, kept until the trash can is emptied',
  notes: '',
  project_key: null,
  includes_pattern: '**/*',
  excludes_pattern: '',
  repo_layout_ref: 'simple-default',
  url: '',
  username: '',
  proxy_key: '',
  client_tls_certificate: '',
  offline: 0,
  socket_timeout_ms: 15_000,
  quota_bytes: 0,
  password: null,
  members: '[]',
  default_deployment_repo: '',
  metadata_max_age_secs: 0,
  checksum_policy: 'client-checksums',
  suppress_pom_checks: 0,
  redeploy_releases: 1,
  created_at: 0,
  updated_at: 0,
};

/** A repository row, the trash can included; unknown keys answer 404. */
export async function repositoryOrTrash(db: Db, key: string): Promise<RepositoryRow> {
  if (key === TRASHCAN_REPO) return TRASHCAN_ROW;
  return getRepository(db, key);
}

/** Types the mime database does not know that Artifactory answers (Maven's descriptors and checksums). */
const PACKAGE_MIME_TYPES: Record<string, string> = {
  pom: 'application/x-maven-pom+xml',
  sha1: 'text/plain',
  md5: 'text/plain',
  sha256: 'text/plain',
};

export function mimeTypeOf(path: string): string {
  return mime.lookup(path) || PACKAGE_MIME_TYPES[path.slice(path.lastIndexOf('.') + 1)] || 'application/octet-stream';
}

/**
 * Creates the missing ancestor folders of `path`; refuses when one of them is a file. `found`: the
 * items at those paths when the caller looked them up already.
 */
export async function ensureFolders(
  trx: Db,
  repoKey: string,
  path: string,
  actor: string,
  now: number,
  found?: Map<string, ItemRow>,
): Promise<void> {
  const ancestors = ancestorsOf(path);
  const items = found ?? (await findItems(trx, repoKey, ancestors));
  for (const folder of ancestors) {
    const existing = items.get(folder);
    if (existing) {
      if (existing.folder === 0) throw conflict(fill(ARTIFACT_MESSAGES.folderIsFile, { path: folder }));
      continue;
    }
    const inserted = await trx
      .insertInto('items')
      .values({
        id: randomUUID(),
        repo_key: repoKey,
        path: folder,
        parent: parentOf(folder),
        name: nameOf(folder),
        folder: 1,
        sha256: null,
        size: 0,
        mime_type: null,
        created_at: now,
        created_by: actor,
        modified_at: now,
        modified_by: actor,
      })
      .onConflict((oc) => oc.columns(['repo_key', 'path']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await adjustUsage(trx, repoKey, { folders: 1 });
  }
}

/** Stores a file item pointing at a binary, replacing a file at the same path. Call inside a transaction. */
export async function putFile(
  trx: Db,
  repoKey: string,
  path: string,
  binary: { sha256: string; sha1: string; md5: string; size: number },
  actor: string,
  now: number,
  created?: { at: number; by: string },
): Promise<ItemRow> {
  await holdPath(trx, repoKey, path);
  // the file and its folders in one round trip
  const found = await findItems(trx, repoKey, [...ancestorsOf(path), path]);
  await ensureFolders(trx, repoKey, path, actor, now, found);
  const existing = found.get(path);
  if (existing?.folder === 1) throw conflict(fill(ARTIFACT_MESSAGES.fileIsFolder, { path }));
  await retainBinary(trx, binary, now);
  // the same content again leaves a held file as it was
  if (existing)
    await deleteItems(trx, [existing], now, { held: existing.sha256 === binary.sha256 ? 'ignore' : 'refuse' });
  const row: ItemRow = {
    id: randomUUID(),
    repo_key: repoKey,
    path,
    parent: parentOf(path),
    name: nameOf(path),
    folder: 0,
    sha256: binary.sha256,
    size: binary.size,
    mime_type: mimeTypeOf(path),
    created_at: created?.at ?? now,
    created_by: created?.by ?? actor,
    modified_at: now,
    modified_by: actor,
    download_count: 0,
    last_downloaded: null,
    last_downloaded_by: null,
  };
  await trx.insertInto('items').values(row).execute();
  await adjustUsage(trx, repoKey, { files: 1, size: row.size });
  return row;
}

export type Location = { repoKey: string; path: string };

/**
 * Checks, inside the change's transaction, that the caller may touch every item it is about to
 * change (and, for copies and moves, every path it will write); throws to refuse the whole change.
 */
export type Authorize<T = undefined> = (
  items: ItemRow[],
  targetPathOf?: (item: ItemRow) => string,
  destination?: T,
) => Promise<void>;

export const allowAll = async () => undefined;

/**
 * Moves a subtree to another place. A file at the destination is replaced; a folder at the
 * destination is merged into. `extraProperties` are set on every moved item.
 */
export async function relocate(
  trx: Db,
  items: ItemRow[],
  from: Location,
  to: Location,
  actor: string,
  now: number,
  extraProperties?: Record<string, string[]>,
): Promise<void> {
  await refuseHeld(trx, items);
  if (to.path) await ensureFolders(trx, to.repoKey, to.path, actor, now);
  for (const item of items) {
    const newPath = to.path + item.path.slice(from.path.length);
    const normalized = newPath.replace(/^\/+/, '');
    const existing = await findItem(trx, to.repoKey, normalized);
    if (existing) {
      if (existing.folder === 1 && item.folder === 1) {
        // merge: keep the destination folder, drop the source one
        await trx.deleteFrom('items').where('id', '=', item.id).execute();
        await countItems(trx, [item], -1);
        continue;
      }
      if (existing.folder !== item.folder) {
        throw conflict(
          fill(item.folder ? ARTIFACT_MESSAGES.folderIsFile : ARTIFACT_MESSAGES.fileIsFolder, { path: normalized }),
        );
      }
      await deleteItems(trx, [existing], now);
    }
    await trx
      .updateTable('items')
      .set({
        repo_key: to.repoKey,
        path: normalized,
        parent: parentOf(normalized),
        name: nameOf(normalized),
        modified_at: now,
        modified_by: actor,
      })
      .where('id', '=', item.id)
      .execute();
    if (to.repoKey !== item.repo_key) {
      await countItems(trx, [item], -1);
      await countItems(trx, [{ ...item, repo_key: to.repoKey }], 1);
    }
    if (extraProperties) await putProperties(trx, item.id, extraProperties);
  }
}
