import type { Readable } from 'node:stream';
import {
  ARTIFACT_MESSAGES,
  RETENTION_MESSAGES,
  TRASHCAN_REPO,
  formatMessage,
  type ArcaEvent,
  type Properties,
} from '@arca/contracts';
import { isPostgres, type Db } from '../../db/database.js';
import { recordEventChanges } from '../../core/changes.js';
import type { BinaryStore, PendingBinary } from '../../storage/binary-store.js';
import { findRepository } from '../repositories/index.js';
import { putFile } from './artifacts.items.js';
import { acceptsPath } from './artifacts.service.js';
import { deleteItems, findItem, putProperties } from './artifacts.store.js';
import { heldPaths } from './artifacts.holds.store.js';
import { moveToTrash } from './artifacts.trash.js';

/*
 * The door the archive goes through: a file leaves its repository (for good, or through the
 * trash can) in the same transaction as the archive's record of it, and comes back with its
 * properties, checksums and creation as a deploy; contents no item uses any more are released.
 */

const fill = formatMessage;

/** A file as it leaves its repository: everything the archive keeps of it. */
export interface OutgoingFile {
  id: string;
  repoKey: string;
  path: string;
  name: string;
  parent: string;
  sha256: string;
  sha1: string;
  md5: string;
  size: number;
  mimeType: string | null;
  properties: Properties;
  createdAt: number;
  createdBy: string;
  modifiedAt: number;
  modifiedBy: string;
  downloadCount: number;
  lastDownloaded: number | null;
}

/**
 * Takes files out of their repositories — to the trash can, or for good — each only if it is
 * still there with the content it was chosen with, and calls `record` in the same transaction
 * with what leaves: all of them leave with their record, or none. Answers what left; the others
 * (gone, or changed since they were chosen) are left as they are.
 */
export async function takeOutFiles(
  db: Db,
  files: { id: string; sha256: string }[],
  options: { actor: string; toTrash: boolean },
  record: (trx: Db, files: OutgoingFile[]) => Promise<void>,
): Promise<OutgoingFile[]> {
  if (!files.length) return [];
  const now = Date.now();
  const wanted = new Map(files.map((f) => [f.id, f.sha256]));
  return db.transaction().execute(async (trx) => {
    const query = trx
      .selectFrom('items')
      .selectAll()
      .where('id', 'in', [...wanted.keys()]);
    const candidates = (await (isPostgres(trx) ? query.forUpdate() : query).execute()).filter(
      (item) => item.folder === 0 && item.sha256 === wanted.get(item.id) && item.repo_key !== TRASHCAN_REPO,
    );
    // a held file stays where it is (a release bundle keeps it)
    const held = new Set<string>();
    for (const repoKey of new Set(candidates.map((i) => i.repo_key))) {
      const paths = candidates.filter((i) => i.repo_key === repoKey).map((i) => i.path);
      for (const path of (await heldPaths(trx, repoKey, paths)).keys()) held.add(`${repoKey}/${path}`);
    }
    const items = candidates.filter((item) => !held.has(`${item.repo_key}/${item.path}`));
    if (!items.length) return [];
    const shas = [...new Set(items.map((i) => i.sha256!))];
    const binaries = new Map(
      (await trx.selectFrom('binaries').selectAll().where('sha256', 'in', shas).execute()).map((b) => [b.sha256, b]),
    );
    const properties = new Map<string, Properties>();
    for (const row of await trx
      .selectFrom('item_properties')
      .selectAll()
      .where(
        'item_id',
        'in',
        items.map((i) => i.id),
      )
      .execute()) {
      const own = properties.get(row.item_id) ?? {};
      (own[row.key] ??= []).push(row.value);
      properties.set(row.item_id, own);
    }
    const outgoing: OutgoingFile[] = items.map((item) => {
      const binary = binaries.get(item.sha256!);
      if (!binary) throw new Error(`the content of ${item.repo_key}/${item.path} has no row`);
      return {
        id: item.id,
        repoKey: item.repo_key,
        path: item.path,
        name: item.name,
        parent: item.parent,
        sha256: binary.sha256,
        sha1: binary.sha1,
        md5: binary.md5,
        size: Number(item.size),
        mimeType: item.mime_type,
        properties: properties.get(item.id) ?? {},
        createdAt: Number(item.created_at),
        createdBy: item.created_by,
        modifiedAt: Number(item.modified_at),
        modifiedBy: item.modified_by,
        downloadCount: Number(item.download_count ?? 0),
        lastDownloaded: item.last_downloaded === null ? null : Number(item.last_downloaded),
      };
    });
    await record(trx, outgoing);
    if (!options.toTrash) await deleteItems(trx, items, now);
    const events: ArcaEvent[] = [];
    for (const item of items) {
      const content = { sha256: item.sha256!, size: Number(item.size), archived: true };
      const payload = options.toTrash
        ? { trashPath: await moveToTrash(trx, item.repo_key, item.path, [item], options.actor, now), ...content }
        : { permanently: true, ...content };
      events.push({ type: 'artifact.deleted', repoKey: item.repo_key, path: item.path, payload });
    }
    await recordEventChanges(trx, options.actor, events, now);
    return outgoing;
  });
}

/** A file coming back: where to, its content (read from wherever it was kept) and what it was. */
export interface IncomingFile {
  target: { repoKey: string; path: string };
  open: () => Readable;
  sha256: string;
  size: number;
  properties: Properties;
  createdAt: number;
  createdBy: string;
}

/**
 * Where a file may come back to: an existing local repository that accepts the path, with no
 * file there; else the refusal's message.
 */
export async function refusalAt(db: Db, target: { repoKey: string; path: string }): Promise<string | undefined> {
  const repo = target.repoKey === TRASHCAN_REPO ? undefined : await findRepository(db, target.repoKey);
  if (!repo || repo.rclass !== 'local') return fill(RETENTION_MESSAGES.repositoryUnknown, { key: target.repoKey });
  if (!acceptsPath(repo, target.path))
    return fill(ARTIFACT_MESSAGES.patternRefused, { path: target.path, key: repo.key });
  if (await findItem(db, repo.key, target.path))
    return fill(RETENTION_MESSAGES.restoreExists, { path: `${repo.key}/${target.path}` });
  return undefined;
}

/**
 * Puts files back: each content written to the store (a few at a time, each once) and checked
 * against its SHA-256, then every item with its properties and original creation recorded with
 * the usual deploy event, and `record` called with them, in one transaction — all or none. A
 * file whose content failed, or whose target meanwhile holds a file, is left out (answered in
 * `refused` with why); the caller checked the targets with `refusalAt` beforehand.
 */
export async function putBackFiles<T extends IncomingFile>(
  ctx: { db: Db; store: BinaryStore },
  files: T[],
  actor: string,
  record: (trx: Db, placed: T[]) => Promise<void>,
): Promise<{ placed: T[]; refused: { file: T; message: string }[] }> {
  const { db, store } = ctx;
  const refused: { file: T; message: string }[] = [];
  const written = new Map<string, Promise<PendingBinary | string>>();
  const write = (file: T) => {
    const known = written.get(file.sha256);
    if (known) return known;
    const writing = (async () => {
      const pending = await store.write(file.open(), file.size);
      if (pending.sha256 !== file.sha256 || pending.size !== file.size) {
        await pending.discard();
        return `The archived content of '${file.target.repoKey}/${file.target.path}' does not match its SHA-256 (${pending.sha256}).`;
      }
      await pending.commit();
      return pending;
    })().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    written.set(file.sha256, writing);
    return writing;
  };
  const contents = new Map<T, PendingBinary>();
  for (let i = 0; i < files.length; i += 16) {
    await Promise.all(
      files.slice(i, i + 16).map(async (file) => {
        const result = await write(file);
        if (typeof result === 'string') refused.push({ file, message: result });
        else contents.set(file, result);
      }),
    );
  }
  const now = Date.now();
  const placed = await db.transaction().execute(async (trx) => {
    const placed: T[] = [];
    const events: ArcaEvent[] = [];
    for (const [file, binary] of contents) {
      const { repoKey, path } = file.target;
      const existing = await trx
        .selectFrom('items')
        .select('id')
        .where('repo_key', '=', repoKey)
        .where('path', '=', path)
        .executeTakeFirst();
      if (existing) {
        refused.push({ file, message: fill(RETENTION_MESSAGES.restoreExists, { path: `${repoKey}/${path}` }) });
        continue;
      }
      const item = await putFile(trx, repoKey, path, binary, actor, now, { at: file.createdAt, by: file.createdBy });
      if (Object.keys(file.properties).length) await putProperties(trx, item.id, file.properties);
      events.push({
        type: 'artifact.deployed',
        repoKey,
        path,
        payload: { sha256: binary.sha256, size: binary.size, restored: true },
      });
      placed.push(file);
    }
    await recordEventChanges(trx, actor, events, now);
    await record(trx, placed);
    return placed;
  });
  return { placed, refused };
}

/**
 * Releases contents no item refers to any more at once (rather than at the next garbage
 * collection): the row first, then the stored content — unless it was written or touched in the
 * last `graceMs`, when a deploy of the same bytes may be recording it; the garbage collection
 * takes those later. Answers how many were removed from the store.
 */
export async function releaseUnusedContents(
  ctx: { db: Db; store: BinaryStore },
  sha256s: Iterable<string>,
  graceMs: number,
): Promise<number> {
  const unique = [...new Set(sha256s)];
  let removed = 0;
  for (let i = 0; i < unique.length; i += 500) {
    const released = await ctx.db
      .deleteFrom('binaries')
      .where('sha256', 'in', unique.slice(i, i + 500))
      .where('ref_count', '<=', 0)
      .returning('sha256')
      .execute();
    const cutoff = Date.now() - graceMs;
    // removed a few at a time: each is a file (or an object) of its own
    for (let j = 0; j < released.length; j += 16) {
      const done = await Promise.all(released.slice(j, j + 16).map(({ sha256 }) => ctx.store.remove(sha256, cutoff)));
      removed += done.filter(Boolean).length;
    }
  }
  return removed;
}
