import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { unavailable } from '../../core/errors.js';
import type { Work } from '../../core/work.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { madeCache } from './artifacts.made-cache.js';
import { releaseBinaries, retainBinary } from './artifacts.store.js';

/** A file made from stored files: its bytes and how it is served. */
export interface MadeFile {
  body: Buffer;
  contentType: string;
}

/** Made files kept this long after they were made; a key still asked for is made again after. */
export const MADE_FILES_KEPT_MS = 7 * 86_400_000;
/** The durable-work kernel's kind for the making of a key's files; its key is the made key. */
export const MADE_FILE = 'made-file';

export interface MadeStoreOptions {
  db: Db;
  binaries: BinaryStore;
  /** The kernel of this process: the making of a key is its task, one process at a time. */
  work: Work;
  /** How long a request waits for another process's making before it is answered 503. */
  waitMs?: number;
  /** How often a waiting request looks for the files. */
  pollMs?: number;
  /** The message and Retry-After of that 503. */
  busy: { message: string; retryAfterSeconds: number };
}

/** A making this process runs: what makes the files, and what came of it. */
interface Making {
  build: () => Promise<Map<string, MadeFile>>;
  files?: Map<string, MadeFile>;
  error?: unknown;
}

/**
 * Files made from stored files, made once for all the workers and nodes: under a key naming what
 * they were made from (so never stale), one process makes them as a task of the durable-work
 * kernel while the others wait for them; their contents go to the binary store (shared by the
 * nodes) and each process keeps the newest in memory. A request that has waited `waitMs` for
 * another process is answered 503 with Retry-After; the making goes on. One per kernel.
 */
export function madeStore(options: MadeStoreOptions) {
  const { db, binaries, work, waitMs = 8_000, pollMs = 100, busy } = options;
  const memo = madeCache<Map<string, MadeFile>>(50);
  const makings = new Map<string, Making>();

  const stored = async (key: string): Promise<Map<string, MadeFile> | undefined> => {
    const rows = await db.selectFrom('made_files').selectAll().where('made_key', '=', key).execute();
    if (!rows.length) return undefined;
    const files = new Map<string, MadeFile>();
    for (const row of rows)
      files.set(row.name, { body: await buffer(binaries.read(row.sha256)), contentType: row.content_type });
    return files;
  };

  const keep = async (key: string, files: Map<string, MadeFile>): Promise<void> => {
    const now = Date.now();
    const written: { name: string; sha256: string; sha1: string; md5: string; size: number; type: string }[] = [];
    for (const [name, file] of files) {
      const digest = {
        sha256: createHash('sha256').update(file.body).digest('hex'),
        sha1: createHash('sha1').update(file.body).digest('hex'),
        md5: createHash('md5').update(file.body).digest('hex'),
      };
      const pending = await binaries.writeKnown(file.body, digest);
      await pending.commit();
      written.push({ name, ...digest, size: file.body.length, type: file.contentType });
    }
    await db.transaction().execute(async (tx) => {
      for (const file of written) await retainBinary(tx, file, now);
      await tx
        .insertInto('made_files')
        .values(
          written.map((f) => ({ made_key: key, name: f.name, sha256: f.sha256, content_type: f.type, made_at: now })),
        )
        .execute();
    });
  };

  work.define<null, never, null>(MADE_FILE, {
    run: async (task) => {
      const making = makings.get(task.key);
      // taken over from a process that stopped: what made the files went with it; the next request makes them
      if (!making) throw new Error('the process making these files stopped before it kept them');
      try {
        // the files may have been kept between the look for them and the claim
        const kept = await stored(task.key);
        if (kept) making.files = kept;
        else {
          const files = await making.build();
          await keep(task.key, files);
          making.files = files;
        }
      } catch (error) {
        making.error = error;
        throw error;
      }
      return null;
    },
  });

  const make = async (key: string, build: () => Promise<Map<string, MadeFile>>): Promise<Map<string, MadeFile>> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await stored(key);
      if (found) return found;
      const making: Making = { build };
      makings.set(key, making);
      try {
        // one unfinished making per key: the first to submit it makes the files, here
        const { here, done } = await work.submit(MADE_FILE, null, { key, runHere: true });
        if (here) {
          await done;
          if (making.files) return making.files;
          throw making.error ?? new Error('the files could not be made');
        }
      } finally {
        makings.delete(key);
      }
      // another process makes them: wait for its files, as long as a client waits
      if (Date.now() >= deadline) throw unavailable(busy.message, busy.retryAfterSeconds);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  return {
    /** The files of `key`: kept in memory, else stored by any process, else made here. */
    get: (key: string, build: () => Promise<Map<string, MadeFile>>) => memo(key, () => make(key, build)),
  };
}

export type MadeStore = ReturnType<typeof madeStore>;

const stores = new WeakMap<Work, MadeStore>();

/** The made store of this process of the deployment, as the formats use it (one per kernel). */
export function madeStoreOf(app: FastifyInstance): MadeStore {
  let store = stores.get(app.work);
  if (!store) {
    store = madeStore({
      db: app.db,
      binaries: app.binaries,
      work: app.work,
      busy: { message: ARTIFACT_MESSAGES.merging, retryAfterSeconds: 10 },
    });
    stores.set(app.work, store);
  }
  return store;
}

/** Removes made files past their time and gives their contents back (a key still asked for is made again). */
export async function pruneMadeFiles(db: Db, now = Date.now()): Promise<number> {
  const old = await db
    .selectFrom('made_files')
    .select(['made_key', 'name', 'sha256'])
    .where('made_at', '<', now - MADE_FILES_KEPT_MS)
    .execute();
  for (const row of old) {
    await db.transaction().execute(async (tx) => {
      const deleted = await tx
        .deleteFrom('made_files')
        .where('made_key', '=', row.made_key)
        .where('name', '=', row.name)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) > 0) await releaseBinaries(tx, [row.sha256], now);
    });
  }
  return old.length;
}
