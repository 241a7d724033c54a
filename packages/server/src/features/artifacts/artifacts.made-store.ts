import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { unavailable } from '../../core/errors.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { madeCache } from './artifacts.made-cache.js';
import { releaseBinaries, retainBinary } from './artifacts.store.js';

/** A file made from stored files: its bytes and how it is served. */
export interface MadeFile {
  body: Buffer;
  contentType: string;
}

/** How long one process may make a key before another takes the making over. */
export const MADE_CLAIM_MS = 5 * 60_000;
/** Made files kept this long after they were made; a key still asked for is made again after. */
export const MADE_FILES_KEPT_MS = 7 * 86_400_000;

export interface MadeStoreOptions {
  db: Db;
  binaries: BinaryStore;
  /** This process, as the claims name it. */
  holder: string;
  /** How long a request waits for another process's making before it is answered 503. */
  waitMs?: number;
  /** How often a waiting request looks for the files. */
  pollMs?: number;
  /** The message and Retry-After of that 503. */
  busy: { message: string; retryAfterSeconds: number };
}

/**
 * Files made from stored files, made once for all the workers and nodes: under a key naming what
 * they were made from (so never stale), one process makes them under a claim while the others
 * wait for them; their contents go to the binary store (shared by the nodes) and each process
 * keeps the newest in memory. A request that has waited `waitMs` for another process is answered
 * 503 with Retry-After; the making goes on.
 */
export function madeStore(options: MadeStoreOptions) {
  const { db, binaries, holder, waitMs = 8_000, pollMs = 100, busy } = options;
  const memo = madeCache<Map<string, MadeFile>>(50);

  const stored = async (key: string): Promise<Map<string, MadeFile> | undefined> => {
    const rows = await db.selectFrom('made_files').selectAll().where('made_key', '=', key).execute();
    if (!rows.length) return undefined;
    const files = new Map<string, MadeFile>();
    for (const row of rows)
      files.set(row.name, { body: await buffer(binaries.read(row.sha256)), contentType: row.content_type });
    return files;
  };

  const claim = async (key: string): Promise<boolean> => {
    const now = Date.now();
    await db
      .insertInto('made_claims')
      .values({ made_key: key, holder, lease_until: now + MADE_CLAIM_MS })
      .onConflict((oc) =>
        oc
          .column('made_key')
          .doUpdateSet({ holder, lease_until: now + MADE_CLAIM_MS })
          .where('made_claims.lease_until', '<', now),
      )
      .execute();
    const row = await db.selectFrom('made_claims').select('holder').where('made_key', '=', key).executeTakeFirst();
    return row?.holder === holder;
  };

  const release = async (key: string): Promise<void> => {
    await db.deleteFrom('made_claims').where('made_key', '=', key).where('holder', '=', holder).execute();
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
      await tx.deleteFrom('made_claims').where('made_key', '=', key).execute();
    });
  };

  const make = async (key: string, build: () => Promise<Map<string, MadeFile>>): Promise<Map<string, MadeFile>> => {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await stored(key);
      if (found) return found;
      if (await claim(key)) {
        try {
          // the claim may have been free because the files were kept between the look and the claim
          const keptMeanwhile = await stored(key);
          if (keptMeanwhile) {
            await release(key);
            return keptMeanwhile;
          }
          const files = await build();
          await keep(key, files);
          return files;
        } catch (error) {
          await release(key).catch(() => undefined);
          throw error;
        }
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

/** The made store of this process of the deployment, as the formats use it. */
export function madeStoreOf(app: FastifyInstance): MadeStore {
  return madeStore({
    db: app.db,
    binaries: app.binaries,
    holder: `${app.nodeId}/${process.pid}`,
    busy: { message: ARTIFACT_MESSAGES.merging, retryAfterSeconds: 10 },
  });
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
  await db.deleteFrom('made_claims').where('lease_until', '<', now).execute();
  return old.length;
}
