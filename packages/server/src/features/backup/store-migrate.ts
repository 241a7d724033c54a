import pMap from 'p-map';
import { isOnline, nodeRows } from '../../core/nodes.js';
import { getSetting, putSetting } from '../../core/settings.store.js';
import type { Db } from '../../db/database.js';
import type { BinaryStore } from '../../storage/binary-store.js';

/** Binaries copied at once. */
const COPIES_IN_FLIGHT = 8;

export interface StoreMigration {
  /** Binaries copied by this run. */
  copied: number;
  /** Binaries the target held already (an earlier, interrupted run). */
  present: number;
  /** Binaries gone from the database while they were copied (collected as garbage). */
  gone: number;
  bytes: number;
  /** Passes over the database's binaries: a last one takes what was deployed during the others. */
  passes: number;
}

/**
 * The store the database's binaries are in, as recorded when a deployment first starts and when
 * `arca store migrate` moves them: Arca refuses to start on another one, which would hold none.
 */
export async function checkStoreKind(db: Db, store: BinaryStore): Promise<void> {
  const recorded = await getSetting(db, 'store.kind');
  if (!recorded) {
    await putSetting(db, 'store.kind', { type: store.kind, since: Date.now() });
    return;
  }
  if (recorded.type !== store.kind) {
    throw new Error(
      `The binaries of this deployment are in the ${recorded.type === 's3' ? 'object' : 'file'} store (since ${new Date(recorded.since).toISOString()}): start Arca with ARCA_STORE=${recorded.type}, or move them with 'arca store migrate --to ${store.kind}' first.`,
    );
  }
}

/**
 * Copies every binary the database lists from one store to another while Arca keeps serving,
 * each checked against its SHA-256 as it is written; what the target holds already is kept, so an
 * interrupted run resumes. Passes repeat until one finds nothing new. With `switchOver` — every
 * node stopped, so that nothing is deployed to the old store any more — a last pass takes what
 * was deployed meanwhile and the target is recorded as the deployment's store: start Arca with it.
 */
export async function migrateStore(
  options: { db: Db; from: BinaryStore; to: BinaryStore; switchOver?: boolean },
  progress: (step: string, done: number, total: number) => void = () => undefined,
): Promise<StoreMigration> {
  const { db, from, to } = options;
  if (from.kind === to.kind) throw new Error(`The binaries are in the ${to.kind} store already.`);
  const recorded = await getSetting(db, 'store.kind');
  if (recorded && recorded.type !== from.kind) {
    throw new Error(`The binaries of this deployment are in the ${recorded.type} store, not the ${from.kind} one.`);
  }
  if (options.switchOver) {
    const running = (await nodeRows(db)).filter((node) => isOnline(node));
    if (running.length) {
      throw new Error(
        `Stop every node before switching stores (running: ${running.map((node) => node.node_id).join(', ')}); the copy itself may run while they serve.`,
      );
    }
  }
  const result: StoreMigration = { copied: 0, present: 0, gone: 0, bytes: 0, passes: 0 };
  const done = new Set<string>();
  for (;;) {
    const rows = await db.selectFrom('binaries').select(['sha256', 'size']).orderBy('sha256').execute();
    const todo = rows.filter((row) => !done.has(row.sha256));
    if (!todo.length) break;
    result.passes += 1;
    let handled = 0;
    await pMap(
      todo,
      async ({ sha256, size }) => {
        if (handled++ % 100 === 0) progress(`pass ${result.passes}`, handled, todo.length);
        done.add(sha256);
        if (await to.exists(sha256)) {
          result.present += 1;
          return;
        }
        let written;
        try {
          written = await to.write(from.read(sha256), Number(size));
        } catch (error) {
          const listed = await db
            .selectFrom('binaries')
            .select('sha256')
            .where('sha256', '=', sha256)
            .executeTakeFirst();
          if ((error as { code?: string }).code === 'ENOENT' && !listed) {
            result.gone += 1;
            return;
          }
          throw error;
        }
        if (written.sha256 !== sha256) {
          await written.discard();
          throw new Error(
            `The binary ${sha256} reads back as ${written.sha256}: it is damaged in the ${from.kind} store.`,
          );
        }
        await written.commit();
        result.copied += 1;
        result.bytes += written.size;
      },
      { concurrency: COPIES_IN_FLIGHT },
    );
  }
  progress('done', done.size, done.size);
  if (options.switchOver) await putSetting(db, 'store.kind', { type: to.kind, since: Date.now() });
  return result;
}
