import type { FastifyBaseLogger } from 'fastify';
import { sql, type UpdateObject } from 'kysely';
import { REPOSITORY_MESSAGES, formatMessage, type RepositoryDeletion } from '@arca/contracts';
import type { ChangeActor } from '../../core/changes.js';
import { HttpError, badRequest, conflict } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import type { Database, RepositoryDeletionsTable } from '../../db/schema.js';
import { deletionRefusal, getRepository, recordRepositoryChangeAs, removeRepository } from '../repositories/index.js';
import { deleteItems, subtreeStats } from './artifacts.store.js';

/** Items deleted per transaction: small enough to keep each short, large enough to be quick. */
const BATCH = 500;
/** Rounds of deleting content written while the repository was being deleted, before the deletion fails. */
const MAX_ROUNDS = 5;
/** Repositories with at most this many items are deleted before the call answers. */
const AT_ONCE = 2_000;
/** How long a node's hold on a deletion lasts; each batch renews it. Past it, another node takes the deletion up. */
export const DELETION_LEASE_MS = 60_000;
/** Finished deletions stay this long, for their progress to answer. */
const KEPT_MS = 7 * 86_400_000;

/** Deletions under way in this process (the server stops after them). */
const pending = new Set<Promise<void>>();

/** A node that lost its hold on a deletion (its lease ran out and another node took it up) stops. */
class LeaseLost extends Error {}

function progressOf(row: RepositoryDeletionsTable): RepositoryDeletion {
  return {
    key: row.repo_key,
    state: row.state,
    files: Number(row.files),
    bytes: Number(row.bytes),
    deletedFiles: Number(row.deleted_files),
    deletedBytes: Number(row.deleted_bytes),
    message: row.message,
  };
}

/** The latest deletion of a repository (running or finished), whichever node runs it. */
export async function repositoryDeletion(db: Db, key: string): Promise<RepositoryDeletion | undefined> {
  const row = await db.selectFrom('repository_deletions').selectAll().where('repo_key', '=', key).executeTakeFirst();
  return row && progressOf(row);
}

/** Waits for the deletions this process is running (the server stops after them). */
export async function settleRepositoryDeletions(): Promise<void> {
  await Promise.allSettled([...pending]);
}

/**
 * Deletes the repository's content batch by batch, then the repository itself with its audit
 * entry and event; each step commits with the progress and the renewal of this node's lease, so
 * that a node that dies leaves a deletion another node takes up where it stopped.
 */
async function purge(
  db: Db,
  log: FastifyBaseLogger,
  holder: string,
  deletion: RepositoryDeletionsTable,
): Promise<void> {
  const key = deletion.repo_key;
  const held = async (trx: Db, set: UpdateObject<Database, 'repository_deletions'>) => {
    const now = Date.now();
    const updated = await trx
      .updateTable('repository_deletions')
      .set({ ...set, lease_until: now + DELETION_LEASE_MS, updated_at: now })
      .where('repo_key', '=', key)
      .where('holder', '=', holder)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new LeaseLost();
  };
  try {
    // content written meanwhile by another route or a background writer (a Maven metadata file
    // recalculated after a copy) is taken in a further round: the repository goes when it is empty
    for (let round = 1; ; round++) {
      await deleteContent(db, key, held);
      const done = await db
        .selectFrom('repository_deletions')
        .select(['deleted_files', 'deleted_bytes'])
        .where('repo_key', '=', key)
        .executeTakeFirstOrThrow();
      const record = recordRepositoryChangeAs({ actor: deletion.actor, sourceIp: deletion.source_ip });
      try {
        await removeRepository(
          db,
          key,
          async (trx, change) => {
            await record(trx, change);
            await held(trx, { state: 'done', lease_until: 0 });
          },
          `deleted with ${Number(done.deleted_files)} file(s), ${Number(done.deleted_bytes)} bytes`,
        );
        return;
      } catch (error) {
        const notEmpty = formatMessage(REPOSITORY_MESSAGES.notEmpty, { key });
        if (round < MAX_ROUNDS && error instanceof HttpError && error.message === notEmpty) continue;
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof LeaseLost) {
      log.warn({ repoKey: key }, 'another node took up the deletion of this repository');
      return;
    }
    log.error({ err: error, repoKey: key }, 'deleting a repository with its content failed');
    await db
      .updateTable('repository_deletions')
      .set({ state: 'failed', message: (error as Error).message, lease_until: 0, updated_at: Date.now() })
      .where('repo_key', '=', key)
      .where('holder', '=', holder)
      .execute()
      .catch((failed: unknown) =>
        log.error({ err: failed, repoKey: key }, 'the failed deletion could not be recorded'),
      );
  }
}

/** Deletes the repository's items, deepest first, a batch per transaction that also renews the hold. */
async function deleteContent(
  db: Db,
  key: string,
  held: (trx: Db, set: UpdateObject<Database, 'repository_deletions'>) => Promise<void>,
): Promise<void> {
  for (;;) {
    const batch = await db
      .selectFrom('items')
      .selectAll()
      .where('repo_key', '=', key)
      .orderBy('path', 'desc')
      .limit(BATCH)
      .execute();
    if (!batch.length) return;
    const files = batch.filter((item) => item.folder !== 1);
    const bytes = files.reduce((sum, item) => sum + Number(item.size), 0);
    await db.transaction().execute(async (trx) => {
      await deleteItems(trx, batch, Date.now());
      await held(trx, {
        deleted_files: sql<number>`deleted_files + ${files.length}`,
        deleted_bytes: sql<number>`deleted_bytes + ${bytes}`,
      });
    });
  }
}

/** Runs a deletion this node holds, in the background; the server waits for it before it stops. */
function start(db: Db, log: FastifyBaseLogger, holder: string, deletion: RepositoryDeletionsTable): Promise<void> {
  const work = purge(db, log, holder, deletion);
  pending.add(work);
  void work.finally(() => pending.delete(work));
  return work;
}

/**
 * Deletes a repository with everything in it, for good (not to the trash can): refused, with
 * nothing changed, while a virtual repository or a project lists it. Content goes in batches; the
 * repository itself, its audit entry and its event go last, in one transaction. Small
 * repositories are gone when this answers; larger ones continue in the background, their
 * progress in the database for every node to show (`repositoryDeletion`). A deletion whose node
 * died is taken up by another (`resumeRepositoryDeletions`). Files are released to garbage
 * collection, which removes bytes no other item shares.
 */
export async function deleteRepositoryWithContent(
  db: Db,
  log: FastifyBaseLogger,
  holder: string,
  key: string,
  confirmKey: string,
  who: ChangeActor,
): Promise<RepositoryDeletion> {
  const row = await getRepository(db, key);
  if (confirmKey !== row.key) throw badRequest(formatMessage(REPOSITORY_MESSAGES.confirmKey, { key: row.key }));
  const now = Date.now();
  const current = await db
    .selectFrom('repository_deletions')
    .selectAll()
    .where('repo_key', '=', key)
    .executeTakeFirst();
  if (current?.state === 'running' && Number(current.lease_until) >= now) return progressOf(current);
  const refusal = await deletionRefusal(db, row);
  if (refusal) throw conflict(refusal);
  const stats = await subtreeStats(db, key, '');
  const deletion: RepositoryDeletionsTable = {
    repo_key: key,
    state: 'running',
    files: stats.files,
    bytes: stats.size,
    deleted_files: 0,
    deleted_bytes: 0,
    message: null,
    holder,
    lease_until: now + DELETION_LEASE_MS,
    actor: who.actor,
    source_ip: who.sourceIp,
    started_at: now,
    updated_at: now,
  };
  // one node wins a deletion asked on two at once; the other answers its progress
  const claimed = await db
    .insertInto('repository_deletions')
    .values(deletion)
    .onConflict((oc) =>
      oc
        .column('repo_key')
        .doUpdateSet(deletion)
        .where((eb) =>
          eb.or([eb('repository_deletions.state', '!=', 'running'), eb('repository_deletions.lease_until', '<', now)]),
        ),
    )
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) {
    const other = await repositoryDeletion(db, key);
    if (other) return other;
  }
  const work = start(db, log, holder, deletion);
  if (stats.files + stats.folders <= AT_ONCE) await work;
  return (await repositoryDeletion(db, key)) ?? progressOf(deletion);
}

/**
 * Takes up the deletions whose node stopped holding them (it died, or stopped midway), and
 * forgets finished ones past a week. Runs as a scheduled job on one node at a time.
 */
export async function resumeRepositoryDeletions(db: Db, log: FastifyBaseLogger, holder: string): Promise<number> {
  const now = Date.now();
  await db
    .deleteFrom('repository_deletions')
    .where('state', '!=', 'running')
    .where('updated_at', '<', now - KEPT_MS)
    .execute();
  const orphans = await db
    .selectFrom('repository_deletions')
    .selectAll()
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .execute();
  let resumed = 0;
  for (const orphan of orphans) {
    const taken = await db
      .updateTable('repository_deletions')
      .set({ holder, lease_until: now + DELETION_LEASE_MS, updated_at: now })
      .where('repo_key', '=', orphan.repo_key)
      .where('state', '=', 'running')
      .where('lease_until', '<', now)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    log.info({ repoKey: orphan.repo_key, from: orphan.holder }, 'taking up the deletion of a repository');
    resumed += 1;
    await start(db, log, holder, { ...orphan, holder });
  }
  return resumed;
}
