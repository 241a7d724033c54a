import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import type { ArchiveExecutionsTable, ArchivePoliciesTable, ArchivedItemsTable } from '../../db/schema.js';
import type { Work } from '../../core/work.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { refusalAt, type OutgoingFile } from '../artifacts/index.js';
import { destinationOf, type RestoreOptions } from './retention.runs.js';

/*
 * What an archive or restore run does to each item, in the run's transactions
 * (`retention.executions.ts`): each item is moved in one transaction with its record, so that a
 * run that stops anywhere has moved every item once or not at all.
 */

/** Contents copied to (or from) the cold store at once. */
export const COPIES_AT_ONCE = 16;
/** Contents up to this size are copied as one buffer, hashed in one go, not streamed. */
const IN_MEMORY_COPY_BYTES = 64 * 1024;

/** A small content read whole and written with the digests of what was read (checked by the caller). */
async function copyInMemory(hot: BinaryStore, cold: BinaryStore, sha256: string) {
  const chunks: Buffer[] = [];
  for await (const chunk of hot.read(sha256)) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const digest = (algorithm: string) => createHash(algorithm).update(body).digest('hex');
  return cold.writeKnown(body, { sha256: digest('sha256'), sha1: digest('sha1'), md5: digest('md5') });
}

const under = (folder: string, path: string) => (folder ? `${folder}/${path}` : path);

/** What a run works with. */
export interface RunnerContext {
  db: Db;
  hot: BinaryStore;
  cold: BinaryStore;
  log: FastifyBaseLogger;
  /** The durable-work kernel the runs are tasks of. */
  work: Work;
  /** Contents written or touched this recently are left to the garbage collection rather than removed at once. */
  releaseGraceMs: number;
}

/** The run's items, in the order they are moved. */
export async function insertItems(
  trx: Db,
  id: string,
  files: { id: string; repo_key: string; path: string; sha256: string; size: number }[],
): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    await trx
      .insertInto('archive_execution_items')
      .values(
        files.slice(i, i + 500).map((f, j) => ({
          execution_id: id,
          seq: i + j,
          item_id: f.id,
          repo_key: f.repo_key,
          path: f.path,
          sha256: f.sha256,
          size: f.size,
          state: 'pending' as const,
          error: null,
        })),
      )
      .execute();
  }
}

/** Settles one item of a run and counts it, in the caller's transaction. */
export async function settle(
  trx: Db,
  id: string,
  seq: number,
  state: 'done' | 'skipped' | 'failed',
  error: string | null,
  bytes: number,
): Promise<void> {
  const updated = await trx
    .updateTable('archive_execution_items')
    .set({ state, error: error?.slice(0, 2000) ?? null })
    .where('execution_id', '=', id)
    .where('seq', '=', seq)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new Error('the item was settled by another run');
  await trx
    .updateTable('archive_executions')
    .set((eb) => ({
      done: state === 'done' ? eb('done', '+', 1) : eb.ref('done'),
      skipped: state === 'skipped' ? eb('skipped', '+', 1) : eb.ref('skipped'),
      failed: state === 'failed' ? eb('failed', '+', 1) : eb.ref('failed'),
      bytes: eb('bytes', '+', bytes),
      updated_at: Date.now(),
      state:
        state === 'failed'
          ? sql<
              ArchiveExecutionsTable['state']
            >`case when state = 'IN_PROGRESS' then 'IN_PROGRESS_WITH_ERRORS' else state end`
          : eb.ref('state'),
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * The archive's records of files that leave (in their transaction): a file archived before at
 * the same path is replaced. Answers the replaced ones' contents, whose cold copies may be released.
 */
export async function archiveRecords(
  trx: Db,
  files: OutgoingFile[],
  run: { execution: ArchiveExecutionsTable; policy: ArchivePoliciesTable; now: number; expires: number | null },
): Promise<string[]> {
  if (!files.length) return [];
  // by repository and path, as the archive's index on them is ordered
  const byRepository = new Map<string, string[]>();
  for (const file of files) byRepository.set(file.repoKey, [...(byRepository.get(file.repoKey) ?? []), file.path]);
  const before: { id: string; sha256: string }[] = [];
  for (const [repoKey, paths] of byRepository) {
    before.push(
      ...(await trx
        .selectFrom('archived_items')
        .select(['id', 'sha256'])
        .where('repo_key', '=', repoKey)
        .where('path', 'in', paths)
        .execute()),
    );
  }
  for (const row of before) {
    await trx.deleteFrom('archived_items').where('id', '=', row.id).execute();
    await dropColdReference(trx, row.sha256);
  }
  await trx
    .insertInto('archived_items')
    .values(
      files.map((file) => ({
        id: file.id,
        repo_key: file.repoKey,
        path: file.path,
        parent: file.parent,
        name: file.name,
        sha256: file.sha256,
        sha1: file.sha1,
        md5: file.md5,
        size: file.size,
        mime_type: file.mimeType,
        properties: JSON.stringify(file.properties),
        created_at: file.createdAt,
        created_by: file.createdBy,
        modified_at: file.modifiedAt,
        modified_by: file.modifiedBy,
        download_count: file.downloadCount,
        last_downloaded: file.lastDownloaded,
        archived_at: run.now,
        archived_by: run.execution.actor,
        policy_key: run.policy.key,
        execution_id: run.execution.id,
        expires_at: run.expires,
      })),
    )
    .execute();
  const uses = new Map<string, { size: number; count: number }>();
  for (const file of files) {
    const use = uses.get(file.sha256) ?? { size: file.size, count: 0 };
    use.count += 1;
    uses.set(file.sha256, use);
  }
  // one statement for the batch's contents: each new one counted, each known one counted up
  await trx
    .insertInto('cold_binaries')
    .values(
      [...uses].map(([sha256, { size, count }]) => ({
        sha256,
        size,
        ref_count: count,
        created_at: run.now,
        updated_at: run.now,
      })),
    )
    .onConflict((oc) =>
      oc.column('sha256').doUpdateSet((eb) => ({
        ref_count: sql<number>`cold_binaries.ref_count + ${eb.ref('excluded.ref_count')}`,
        updated_at: run.now,
      })),
    )
    .execute();
  return before.map((row) => row.sha256);
}

/** Settles items of a run as done and counts them, in the caller's transaction. */
export async function settleDone(trx: Db, id: string, entries: { seq: number; bytes: number }[]): Promise<void> {
  if (!entries.length) return;
  const updated = await trx
    .updateTable('archive_execution_items')
    .set({ state: 'done' })
    .where('execution_id', '=', id)
    .where(
      'seq',
      'in',
      entries.map((e) => e.seq),
    )
    .where('state', '=', 'pending')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== entries.length) throw new Error('items were settled by another run');
  const bytes = entries.reduce((sum, e) => sum + e.bytes, 0);
  await trx
    .updateTable('archive_executions')
    .set((eb) => ({ done: eb('done', '+', entries.length), bytes: eb('bytes', '+', bytes), updated_at: Date.now() }))
    .where('id', '=', id)
    .execute();
}

/** One archived item fewer refers to a cold content. */
export async function dropColdReference(trx: Db, sha256: string): Promise<void> {
  await trx
    .updateTable('cold_binaries')
    .set({ ref_count: sql<number>`ref_count - 1`, updated_at: Date.now() })
    .where('sha256', '=', sha256)
    .execute();
}

/** Removes cold contents no archived item refers to any more (a recent one is left to the cold garbage collection). */
export async function releaseCold(ctx: Pick<RunnerContext, 'db' | 'cold' | 'releaseGraceMs'>, sha256s: string[]) {
  const unique = [...new Set(sha256s)];
  if (!unique.length) return;
  const released = await ctx.db
    .deleteFrom('cold_binaries')
    .where('sha256', 'in', unique)
    .where('ref_count', '<=', 0)
    .returning('sha256')
    .execute();
  const cutoff = Date.now() - ctx.releaseGraceMs;
  await eachAtOnce(released, COPIES_AT_ONCE, async ({ sha256 }) => {
    await ctx.cold.remove(sha256, cutoff);
  });
}

/**
 * Copies a content to the cold store unless it is there (then marked as just used, so that no
 * release removes it meanwhile), checked by its SHA-256. Answers a failure's message, or undefined.
 */
export async function copyContent(
  hot: BinaryStore,
  cold: BinaryStore,
  sha256: string,
  size: number,
): Promise<undefined> {
  if (await cold.touch(sha256)) return undefined;
  const pending =
    size <= IN_MEMORY_COPY_BYTES ? await copyInMemory(hot, cold, sha256) : await cold.write(hot.read(sha256), size);
  if (pending.sha256 !== sha256) {
    await pending.discard();
    throw new Error(`The stored content does not match its SHA-256 ${sha256} (read ${pending.sha256}).`);
  }
  await pending.commit();
  return undefined;
}

/** Where an archived item goes back to, or why it cannot. */
export async function restoreTarget(
  db: Db,
  archived: ArchivedItemsTable,
  options: RestoreOptions,
): Promise<{ repoKey: string; path: string } | { refusal: string }> {
  if (!options.restoreToOriginal) {
    const central = destinationOf(options.centralDestinationPath)!;
    const target = { repoKey: central.repoKey, path: under(central.folder, `${archived.repo_key}/${archived.path}`) };
    const refusal = await refusalAt(db, target);
    return refusal ? { refusal } : target;
  }
  const original = { repoKey: archived.repo_key, path: archived.path };
  const refusal = await refusalAt(db, original);
  if (!refusal) return original;
  const fallback = destinationOf(options.fallbackDestinationPath);
  if (!fallback) return { refusal };
  const target = { repoKey: fallback.repoKey, path: under(fallback.folder, `${archived.repo_key}/${archived.path}`) };
  const second = await refusalAt(db, target);
  return second ? { refusal: `${refusal} ${second}` } : target;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Calls `work` on every entry, at most `limit` at a time. */
export async function eachAtOnce<T>(entries: T[], limit: number, work: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, entries.length) }, async () => {
      for (let i = next++; i < entries.length; i = next++) await work(entries[i]!);
    }),
  );
}
