import type { Db } from '../../db/database.js';
import type { BinaryStore } from '../../storage/binary-store.js';

/** A content unreferenced for this long is removed; uploads in flight are never that old. */
export const GC_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes contents no item refers to any more: rows with a zero reference count past the grace
 * period (re-checked in the deleting statement, so that a concurrent deploy that retained the
 * content keeps it), then their files — only files not written or touched since the cut-off, so
 * that a deploy of the same bytes that has just renamed its upload into place keeps its file and
 * records a new row. Last, files with no row at all (left by a crash between storing and recording).
 */
export async function collectGarbage(
  db: Db,
  store: BinaryStore,
  now = Date.now(),
  graceMs = GC_GRACE_MS,
): Promise<{ binaries: number; orphans: number }> {
  const cutoff = now - graceMs;
  const unused = await db
    .selectFrom('binaries')
    .select('sha256')
    .where('ref_count', '<=', 0)
    .where('updated_at', '<', cutoff)
    .execute();
  let binaries = 0;
  for (const { sha256 } of unused) {
    const deleted = await db
      .deleteFrom('binaries')
      .where('sha256', '=', sha256)
      .where('ref_count', '<=', 0)
      .where('updated_at', '<', cutoff)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0 && (await store.remove(sha256, cutoff))) binaries += 1;
  }
  let orphans = 0;
  for await (const file of store.list()) {
    if (file.modifiedMs >= cutoff) continue;
    const row = await db.selectFrom('binaries').select('sha256').where('sha256', '=', file.sha256).executeTakeFirst();
    if (!row && (await store.remove(file.sha256, cutoff))) orphans += 1;
  }
  return { binaries, orphans };
}
