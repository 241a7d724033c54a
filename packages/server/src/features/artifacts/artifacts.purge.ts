import type { FastifyBaseLogger } from 'fastify';
import { REPOSITORY_MESSAGES, formatMessage, type RepositoryDeletion } from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import { badRequest, conflict } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import { deletionRefusal, getRepository, removeRepository, type RepositoryChange } from '../repositories/index.js';
import { deleteItems, subtreeStats } from './artifacts.store.js';

/** Items deleted per transaction: small enough to keep each short, large enough to be quick. */
const BATCH = 500;
/** Repositories with at most this many items are deleted before the call answers. */
const AT_ONCE = 2_000;

/** Deletions started by this process, per database (one per server instance). */
const started = new WeakMap<Db, Map<string, RepositoryDeletion>>();
const pending = new Set<Promise<void>>();

function deletionsOf(db: Db): Map<string, RepositoryDeletion> {
  let map = started.get(db);
  if (!map) started.set(db, (map = new Map()));
  return map;
}

/** The deletion of a repository started on this node (running or finished), if any. */
export function repositoryDeletion(db: Db, key: string): RepositoryDeletion | undefined {
  const progress = deletionsOf(db).get(key);
  return progress && { ...progress };
}

/** Waits for deletions in progress (the server stops after them). */
export async function settleRepositoryDeletions(): Promise<void> {
  await Promise.allSettled([...pending]);
}

async function purge(db: Db, key: string, progress: RepositoryDeletion): Promise<void> {
  const now = Date.now();
  for (;;) {
    // deepest paths first: a folder goes after what it holds
    const batch = await db
      .selectFrom('items')
      .selectAll()
      .where('repo_key', '=', key)
      .orderBy('path', 'desc')
      .limit(BATCH)
      .execute();
    if (!batch.length) return;
    await db.transaction().execute((trx) => deleteItems(trx, batch, now));
    for (const item of batch) {
      if (item.folder === 1) continue;
      progress.deletedFiles += 1;
      progress.deletedBytes += Number(item.size);
    }
  }
}

/**
 * Deletes a repository with everything in it, for good (not to the trash can): refused, with
 * nothing changed, while a virtual repository or a project lists it. Content goes in batches; the
 * repository itself, its audit entry and its event go last, in one transaction. Small
 * repositories are gone when this answers; larger ones continue in the background (see
 * `repositoryDeletion` for progress). Files are released to garbage collection, which removes
 * bytes no other item shares.
 */
export async function deleteRepositoryWithContent(
  db: Db,
  log: FastifyBaseLogger,
  key: string,
  confirmKey: string,
  record: OnChange<RepositoryChange>,
): Promise<RepositoryDeletion> {
  const row = await getRepository(db, key);
  if (confirmKey !== row.key) throw badRequest(formatMessage(REPOSITORY_MESSAGES.confirmKey, { key: row.key }));
  const deletions = deletionsOf(db);
  const current = deletions.get(key);
  if (current?.state === 'running') return { ...current };
  const refusal = await deletionRefusal(db, row);
  if (refusal) throw conflict(refusal);
  const stats = await subtreeStats(db, key, '');
  const progress: RepositoryDeletion = {
    key,
    state: 'running',
    files: stats.files,
    bytes: stats.size,
    deletedFiles: 0,
    deletedBytes: 0,
    message: null,
  };
  deletions.set(key, progress);
  const work = (async () => {
    try {
      await purge(db, key, progress);
      const what = `with ${progress.deletedFiles} file(s), ${progress.deletedBytes} bytes`;
      await removeRepository(db, key, record, `deleted ${what}`);
      progress.state = 'done';
    } catch (error) {
      progress.state = 'failed';
      progress.message = (error as Error).message;
      log.error({ err: error, repoKey: key }, 'deleting a repository with its content failed');
    }
  })();
  pending.add(work);
  void work.finally(() => pending.delete(work));
  if (stats.files + stats.folders <= AT_ONCE) await work;
  return { ...progress };
}
