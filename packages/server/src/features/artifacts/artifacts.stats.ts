import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import type { ItemRow } from '../../db/schema.js';

/** How often counted downloads are written. */
const FLUSH_MS = 1000;

interface Pending {
  count: number;
  at: number;
  by: string;
}

/** Downloads counted since the last flush, per item id, per database (one per server instance). */
const pendingByDb = new WeakMap<Db, Map<string, Pending>>();

/**
 * Counts one download of a file in memory: a read adds no write. `flushDownloads` (every second,
 * and when the server stops) adds the counts to the items in one transaction.
 */
export function countDownload(db: Db, item: ItemRow, by: string, at = Date.now()): void {
  let pending = pendingByDb.get(db);
  if (!pending) pendingByDb.set(db, (pending = new Map()));
  const entry = pending.get(item.id);
  if (entry) {
    entry.count += 1;
    entry.at = at;
    entry.by = by;
  } else pending.set(item.id, { count: 1, at, by });
}

/** Writes the counted downloads (items deleted meanwhile are skipped by their id). */
export async function flushDownloads(db: Db): Promise<number> {
  const pending = pendingByDb.get(db);
  if (!pending?.size) return 0;
  pendingByDb.set(db, new Map());
  try {
    await db.transaction().execute(async (trx) => {
      for (const [id, { count, at, by }] of pending) {
        await trx
          .updateTable('items')
          .set((eb) => ({
            download_count: eb('download_count', '+', count),
            last_downloaded: at,
            last_downloaded_by: by,
          }))
          .where('id', '=', id)
          .execute();
      }
    });
  } catch (error) {
    // kept for the next flush rather than lost
    const next = pendingByDb.get(db)!;
    for (const [id, entry] of pending) {
      const newer = next.get(id);
      next.set(id, newer ? { ...newer, count: newer.count + entry.count } : entry);
    }
    throw error;
  }
  return pending.size;
}

/** Flushes every second while the server runs, and once more when it stops. */
export function startDownloadStats(app: FastifyInstance): void {
  // a loop of every process (each gathers its own counts), in the kernel's one list
  app.work.every('download-counts', FLUSH_MS, async () => {
    await flushDownloads(app.db);
  });
  app.addHook('onClose', async () => {
    await app.work.endLoop('download-counts');
    await flushDownloads(app.db);
  });
}
