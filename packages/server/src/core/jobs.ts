import { purgeTokens } from '../features/auth/flows.service.js';
import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { emptyTrash } from '../features/artifacts/artifacts.service.js';
import type { BinaryStore } from '../storage/binary-store.js';

/** A content unreferenced for this long is removed; uploads in flight are never that old. */
export const GC_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes contents no item refers to any more: rows with a zero reference count (the row first,
 * so that a concurrent upload re-creates it), then files with no row at all (left by a crash
 * between storing a file and recording it). Both only past the grace period.
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
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) {
      await store.remove(sha256);
      binaries += 1;
    }
  }
  let orphans = 0;
  for await (const file of store.list()) {
    if (file.mtimeMs >= cutoff) continue;
    const row = await db.selectFrom('binaries').select('sha256').where('sha256', '=', file.sha256).executeTakeFirst();
    if (!row) {
      await store.remove(file.sha256);
      orphans += 1;
    }
  }
  return { binaries, orphans };
}

/** The periodic jobs of this node, hourly: trash retention, spent sign-in tokens and sessions, binary garbage collection. */
export function startJobs(options: {
  db: Db;
  store: BinaryStore;
  log: Logger;
  trashRetentionDays: number;
}): () => void {
  const { db, store, log, trashRetentionDays } = options;
  const job = new Cron('17 * * * *', { protect: true, unref: true }, async () => {
    try {
      if (trashRetentionDays > 0) {
        const removed = await emptyTrash(
          { db, store, baseUrl: '' },
          'system',
          Date.now() - trashRetentionDays * 86_400_000,
        );
        if (removed) log.info({ removed }, 'trash retention removed expired items');
      }
      await purgeTokens(db);
      await db.deleteFrom('sessions').where('expires_at', '<=', Date.now()).execute();
      const collected = await collectGarbage(db, store);
      if (collected.binaries || collected.orphans) log.info(collected, 'binary garbage collection');
    } catch (error) {
      log.error({ err: error }, 'maintenance job failed');
    }
  });
  return () => job.stop();
}
