import { ARTIFACT_MESSAGES, REPOSITORY_MESSAGES, formatMessage, type RepositoryDeletion } from '@arca/contracts';
import type { ChangeActor } from '../../core/changes.js';
import { HttpError, badRequest, conflict } from '../../core/errors.js';
import type { TaskRun, TaskView, Work } from '../../core/work.js';
import type { Db } from '../../db/database.js';
import {
  deletionRefusal,
  findRepository,
  getRepository,
  recordRepositoryChangeAs,
  removeRepository,
} from '../repositories/index.js';
import { holderIn } from './artifacts.holds.store.js';
import { deleteItems, subtreeStats } from './artifacts.store.js';

/** Items deleted per transaction: small enough to keep each short, large enough to be quick. */
const BATCH = 500;
/** Rounds of deleting content written while the repository was being deleted, before the deletion fails. */
const MAX_ROUNDS = 5;
/** Repositories with at most this many items are deleted before the call answers. */
const AT_ONCE = 2_000;

/** The durable-work kernel's kind for a repository's deletion; its key is the repository's. */
export const REPOSITORY_DELETION = 'repository-deletion';

/** What a deletion knows from the start: who asked (for the audit entry, whichever node finishes) and the figures. */
interface DeletionPayload {
  actor: string;
  sourceIp: string;
  files: number;
  bytes: number;
}

/** What it has done, committed with each batch: a node taking it over goes on from there. */
interface DeletionProgress {
  deletedFiles: number;
  deletedBytes: number;
}

function progressOf(task: TaskView<DeletionPayload, DeletionProgress>): RepositoryDeletion {
  return {
    key: task.key,
    state: task.state === 'done' ? 'done' : task.state === 'queued' || task.state === 'running' ? 'running' : 'failed',
    files: task.payload.files,
    bytes: task.payload.bytes,
    deletedFiles: task.progress?.deletedFiles ?? 0,
    deletedBytes: task.progress?.deletedBytes ?? 0,
    message: task.message,
  };
}

/** The latest deletion of a repository (running or finished), whichever node runs it. */
export async function repositoryDeletion(work: Work, key: string): Promise<RepositoryDeletion | undefined> {
  const task = await work.get<DeletionPayload, DeletionProgress>(REPOSITORY_DELETION, key);
  return task && progressOf(task);
}

/**
 * Deletes the repository's content batch by batch, then the repository itself with its audit
 * entry and event; each step commits with the progress and the renewal of this node's hold, so
 * that a node that dies leaves a deletion another node takes over where it stopped.
 */
async function purge(db: Db, task: TaskRun<DeletionPayload, DeletionProgress>): Promise<void> {
  const key = task.key;
  // taken over after the node before removed the repository but before it recorded the end
  if (!(await findRepository(db, key))) return;
  let progress = task.progress ?? { deletedFiles: 0, deletedBytes: 0 };
  const counted = (trx: Db, files: number, bytes: number) => {
    progress = { deletedFiles: progress.deletedFiles + files, deletedBytes: progress.deletedBytes + bytes };
    return task.hold(progress, trx);
  };
  // content written meanwhile by another route or a background writer (a Maven metadata file
  // recalculated after a copy) is taken in a further round: the repository goes when it is empty
  for (let round = 1; ; round++) {
    await deleteContent(db, key, task.signal, counted);
    const record = recordRepositoryChangeAs({ actor: task.payload.actor, sourceIp: task.payload.sourceIp });
    try {
      await removeRepository(
        db,
        key,
        async (trx, change) => {
          await record(trx, change);
          await task.hold(progress, trx);
        },
        `deleted with ${progress.deletedFiles} file(s), ${progress.deletedBytes} bytes`,
      );
      return;
    } catch (error) {
      const notEmpty = formatMessage(REPOSITORY_MESSAGES.notEmpty, { key });
      if (round < MAX_ROUNDS && error instanceof HttpError && error.message === notEmpty) continue;
      throw error;
    }
  }
}

/** Deletes the repository's items, deepest first, a batch per transaction that also counts them. */
async function deleteContent(
  db: Db,
  key: string,
  signal: AbortSignal,
  counted: (trx: Db, files: number, bytes: number) => Promise<void>,
): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
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
      await deleteItems(trx, batch, Date.now(), { held: 'ignore' });
      await counted(trx, files.length, bytes);
    });
  }
}

/** Defines the repository deletion's kind of work on this process (a deletion runs on any node). */
export function defineRepositoryDeletion(work: Work, db: Db): void {
  work.define<DeletionPayload, DeletionProgress, void>(REPOSITORY_DELETION, { run: (task) => purge(db, task) });
}

/**
 * Deletes a repository with everything in it, for good (not to the trash can): refused, with
 * nothing changed, while a virtual repository or a project lists it. Content goes in batches; the
 * repository itself, its audit entry and its event go last, in one transaction. Small
 * repositories are gone when this answers; larger ones continue in the background as a task of
 * the durable-work kernel, their progress in the database for every node to show, taken over by
 * another node if this one dies. Files are released to garbage collection, which removes bytes no
 * other item shares.
 */
export async function deleteRepositoryWithContent(
  db: Db,
  work: Work,
  key: string,
  confirmKey: string,
  who: ChangeActor,
): Promise<RepositoryDeletion> {
  const row = await getRepository(db, key);
  if (confirmKey !== row.key) throw badRequest(formatMessage(REPOSITORY_MESSAGES.confirmKey, { key: row.key }));
  const current = await repositoryDeletion(work, key);
  if (current?.state === 'running') return current;
  const refusal = await deletionRefusal(db, row);
  if (refusal) throw conflict(refusal);
  const holder = await holderIn(db, key);
  if (holder) throw conflict(formatMessage(ARTIFACT_MESSAGES.repositoryHeld, { key, holder }));
  const stats = await subtreeStats(db, key, '');
  // one node wins a deletion asked on two at once; the other answers its progress
  const { task, created, done } = await work.submit<DeletionPayload>(
    REPOSITORY_DELETION,
    { actor: who.actor, sourceIp: who.sourceIp, files: stats.files, bytes: stats.size },
    { key, runHere: true },
  );
  if (!created) return progressOf(task as TaskView<DeletionPayload, DeletionProgress>);
  if (stats.files + stats.folders <= AT_ONCE) await done;
  return (await repositoryDeletion(work, key)) ?? progressOf(task as TaskView<DeletionPayload, DeletionProgress>);
}
