import { sql } from 'kysely';
import {
  RETENTION_MESSAGES,
  RETENTION_SEARCH_LIMIT,
  archiveSearchSchema,
  type ArchiveSearchAnswer,
  type BinariesSummary,
  type StorageInfo,
} from '@arca/contracts';
import { isPostgres, type Db } from '../../db/database.js';
import { badRequest } from '../../core/errors.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { wildcard } from '../search/index.js';
import { dropColdReference, releaseCold, type RunnerContext } from './retention.moves.js';

/*
 * The archive as administrators look at it: its search, its figures and their history; and its
 * upkeep — expired items deleted, contents no archived item uses removed from the cold store.
 */

const DAY_MS = 86_400_000;
/** The checksums' lengths (spec part 2 §9): MD5, SHA-1, SHA-256. */
const CHECKSUM_COLUMNS: Record<number, 'md5' | 'sha1' | 'sha256'> = { 32: 'md5', 40: 'sha1', 64: 'sha256' };

/** A date of the search: epoch ms as given, `YYYY-MM-DD` from the start (`after`) or to the end (`before`) of that day. */
function dateOf(value: string | number | null | undefined, end: boolean): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw badRequest(RETENTION_MESSAGES.paramsInvalid);
    return value;
  }
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const ms = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : Date.parse(value);
  if (!Number.isFinite(ms)) throw badRequest(RETENTION_MESSAGES.paramsInvalid);
  if (!day) return ms;
  // 'before' takes in the whole of its day, to 23:59:59.999; 'after' begins at its start
  return end ? ms + DAY_MS - 1 : ms;
}

/**
 * Searches the archive (spec part 2 §7.8: the body is JSON sent as plain text): by name with `*`
 * wildcards, repositories, a path, a checksum and the days it was archived between.
 */
export async function searchArchive(db: Db, text: string): Promise<ArchiveSearchAnswer> {
  let raw: unknown;
  try {
    raw = JSON.parse(text || '{}');
  } catch {
    throw badRequest(RETENTION_MESSAGES.paramsInvalid);
  }
  const parsed = archiveSearchSchema.safeParse(raw);
  if (!parsed.success) throw badRequest(RETENTION_MESSAGES.paramsInvalid);
  const search = parsed.data;
  const from = dateOf(search.after, false);
  const to = dateOf(search.before, true);
  if (from !== null && to !== null && from > to) throw badRequest(RETENTION_MESSAGES.paramsInvalid);
  const checksum = search.checksum.trim().toLowerCase();
  const checksumColumn = checksum ? CHECKSUM_COLUMNS[checksum.length] : undefined;
  if (checksum && !checksumColumn) throw badRequest(RETENTION_MESSAGES.checksumLength);

  let query = db.selectFrom('archived_items as a');
  const name = search.name.trim();
  if (name && name !== '*') {
    const pattern = /[*?]/.test(name) ? name : `*${name}*`;
    query = query.where(() => wildcard(sql.ref('a.name'), pattern, isPostgres(db)));
  }
  if (search.repositories.length) query = query.where('a.repo_key', 'in', search.repositories);
  const path = search.path.trim().replace(/^\/+|\/+$/g, '');
  if (path) query = query.where((eb) => eb.or([eb('a.parent', '=', path), eb('a.parent', 'like', `${path}/%`)]));
  if (checksumColumn) query = query.where(`a.${checksumColumn}`, '=', checksum);
  if (from !== null) query = query.where('a.archived_at', '>=', from);
  if (to !== null) query = query.where('a.archived_at', '<=', to);

  const total = Number(
    (await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await query
    .selectAll('a')
    .orderBy('a.archived_at', 'desc')
    .orderBy('a.repo_key')
    .orderBy('a.path')
    .limit(RETENTION_SEARCH_LIMIT)
    .execute();
  return {
    results: rows.map((r) => ({
      name: r.name,
      created: Number(r.created_at),
      repo: r.repo_key,
      path: r.path,
      size: Number(r.size),
      sha256: r.sha256,
      archived: Number(r.archived_at),
      archivedBy: r.archived_by,
      policyName: r.policy_key,
      expires: r.expires_at === null ? null : Number(r.expires_at),
    })),
    range: { from, to },
    total,
    limited: total > rows.length,
  };
}

/** The archive's figures now (spec part 1 §2: the cold-storage tiles). */
export async function binariesSummary(db: Db): Promise<BinariesSummary> {
  const binaries = await db
    .selectFrom('cold_binaries')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('size').as('bytes')])
    .where('ref_count', '>', 0)
    .executeTakeFirstOrThrow();
  const artifacts = await db
    .selectFrom('archived_items')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('size').as('bytes')])
    .executeTakeFirstOrThrow();
  const folders = await db
    .selectFrom(db.selectFrom('archived_items').select(['repo_key', 'parent']).distinct().as('f'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const binariesSize = Number(binaries.bytes ?? 0);
  const artifactsSize = Number(artifacts.bytes ?? 0);
  return {
    binariesSize,
    artifactsSize,
    optimization: artifactsSize > 0 ? Math.round((1 - binariesSize / artifactsSize) * 10_000) / 100 : 0,
    binariesCount: Number(binaries.n),
    artifactsCount: Number(artifacts.n),
    itemsCount: Number(artifacts.n) + Number(folders.n),
  };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Records today's figures (once a day, and again later the same day replaces them). */
export async function sampleArchive(db: Db, now = Date.now()): Promise<void> {
  const summary = await binariesSummary(db);
  const row = {
    day: dayOf(now),
    binaries_count: summary.binariesCount,
    binaries_size: summary.binariesSize,
    artifacts_count: summary.artifactsCount,
    artifacts_size: summary.artifactsSize,
    items_count: summary.itemsCount,
  };
  await db
    .insertInto('archive_samples')
    .values(row)
    .onConflict((oc) => oc.column('day').doUpdateSet({ ...row }))
    .execute();
}

/** The figures and their daily history between `from` and `to` (today's are the live ones). */
export async function storageInfo(db: Db, cold: BinaryStore, from: number, to: number): Promise<StorageInfo> {
  const summary = await binariesSummary(db);
  const samples = await db
    .selectFrom('archive_samples')
    .selectAll()
    .where('day', '>=', dayOf(from))
    .where('day', '<=', dayOf(to))
    .orderBy('day')
    .execute();
  const today = dayOf(Date.now());
  const history = samples
    .filter((s) => s.day !== today)
    .map((s) => {
      const binariesSize = Number(s.binaries_size);
      const artifactsSize = Number(s.artifacts_size);
      return {
        day: s.day,
        binariesSize,
        artifactsSize,
        optimization: artifactsSize > 0 ? Math.round((1 - binariesSize / artifactsSize) * 10_000) / 100 : 0,
        binariesCount: Number(s.binaries_count),
        artifactsCount: Number(s.artifacts_count),
        itemsCount: Number(s.items_count),
      };
    });
  if (today >= dayOf(from) && today <= dayOf(to)) history.push({ day: today, ...summary });
  const figures = await cold.figures();
  return { binariesSummary: summary, store: { type: figures.type, location: figures.location }, history };
}

/** Deletes archived items whose policy's expiration has come; answers how many. */
export async function expireArchived(ctx: Pick<RunnerContext, 'db' | 'cold' | 'releaseGraceMs'>, now = Date.now()) {
  const { db } = ctx;
  let expired = 0;
  for (;;) {
    const rows = await db
      .selectFrom('archived_items')
      .select(['id', 'sha256'])
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', now)
      .limit(500)
      .execute();
    if (!rows.length) return expired;
    const released: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const deleted = await trx.deleteFrom('archived_items').where('id', '=', row.id).executeTakeFirst();
        if (Number(deleted.numDeletedRows) !== 1) continue;
        await dropColdReference(trx, row.sha256);
        released.push(row.sha256);
        expired += 1;
      }
    });
    await releaseCold(ctx, released);
  }
}

/**
 * Removes cold contents no archived item refers to and nothing wrote for `graceMs` (left by a run
 * that died between copying and recording, or released within the grace period).
 */
export async function collectColdGarbage(db: Db, cold: BinaryStore, graceMs: number, now = Date.now()) {
  let removed = 0;
  for await (const file of cold.list()) {
    if (file.modifiedMs >= now - graceMs) continue;
    const row = await db
      .selectFrom('cold_binaries')
      .select('ref_count')
      .where('sha256', '=', file.sha256)
      .executeTakeFirst();
    if (row && Number(row.ref_count) > 0) continue;
    if (row)
      await db.deleteFrom('cold_binaries').where('sha256', '=', file.sha256).where('ref_count', '<=', 0).execute();
    if (await cold.remove(file.sha256, now - graceMs)) removed += 1;
  }
  return removed;
}
