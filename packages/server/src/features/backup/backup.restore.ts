import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pMap from 'p-map';
import type { Db } from '../../db/database.js';
import type { BinaryStore } from '../../storage/binary-store.js';

import {
  COLD_DIR,
  COPIES_IN_FLIGHT,
  EXPORT_DIR,
  MANIFEST,
  SHA256,
  binaryPath,
  decode,
  folderMaker,
  hasPostgresTool,
  runTool,
  sha256File,
  toolConnection,
  type BackupManifest,
  type BackupProgress,
} from './backup.service.js';

/* Restoring a backup that `backup.service.ts` made: its manifest checked, then the database and the binaries put back. */

/** A backup's manifest, or an error that says what is wrong with the folder. */
export async function readManifest(from: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.promises.readFile(path.join(from, MANIFEST), 'utf8');
  } catch {
    throw new Error(`${from} holds no backup: ${MANIFEST} is missing.`);
  }
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 1)
    throw new Error(`${from} holds a backup of an unknown format (${String(manifest.format)}).`);
  // the first backups did not say how their database was captured: each engine had one way then
  manifest.database.method ??= manifest.engine === 'postgres' ? 'export' : 'sqlite-backup';
  // every name the manifest gives is a file of the backup's own folders, never a way out of them
  const names = [
    manifest.binaryList,
    ...(manifest.coldList ? [manifest.coldList] : []),
    ...(manifest.database.file ? [manifest.database.file] : []),
    ...(manifest.keys ?? []),
    ...Object.keys(manifest.database.tables ?? {}),
  ];
  const outside = names.find(
    (name) => typeof name !== 'string' || !name.split('/').every((part) => PLAIN_NAME.test(part)),
  );
  if (outside !== undefined) {
    throw new Error(`${from} holds a manifest that names '${String(outside)}', which is no file of the backup.`);
  }
  return manifest;
}

/** One part of a path a manifest names: no '..', no absolute path, nothing hidden. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** A list of binaries (`<sha256> <size>` lines), each line checked. */
function binaryLines(text: string, what: string): { sha256: string; size: number }[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha256, size] = line.split(' ');
      if (!SHA256.test(sha256 ?? '') || !Number.isSafeInteger(Number(size)))
        throw new Error(
          `The backup is damaged: its ${what} holds a line that names no binary ('${line.slice(0, 80)}').`,
        );
      return { sha256: sha256!, size: Number(size) };
    });
}

/**
 * Restores a backup onto an empty data directory (and, for a PostgreSQL backup, an empty
 * database whose schema the migrations make): every file is checked against the manifest's
 * SHA-256s first, so a damaged backup restores nothing. Start Arca afterwards.
 */
export async function restore(
  options: {
    dataDir: string;
    databaseUrl?: string | undefined;
    from: string;
    migrate: (db: Db) => Promise<unknown>;
    open: () => Db;
    /** The binary store the restored deployment uses (the configured one). */
    store: BinaryStore;
    /** The cold store the restored deployment's archive uses. */
    cold?: BinaryStore | undefined;
  },
  progress: BackupProgress = () => undefined,
): Promise<BackupManifest> {
  const { dataDir, databaseUrl, from } = options;
  const manifest = await readManifest(from);
  if ((manifest.engine === 'postgres') !== Boolean(databaseUrl)) {
    throw new Error(
      manifest.engine === 'postgres'
        ? 'This is a PostgreSQL backup: set ARCA_DATABASE_URL to an empty database to restore it into.'
        : 'This is a SQLite backup: restore it without ARCA_DATABASE_URL.',
    );
  }
  const method = manifest.database.method;
  if (method === 'pg_dump' && !hasPostgresTool('pg_restore')) {
    throw new Error(
      "This backup was written by pg_dump: restoring it needs PostgreSQL's client tools (pg_restore) on this machine.",
    );
  }
  const { store } = options;
  const fileStore = path.join(dataDir, 'filestore');
  if (fs.existsSync(path.join(dataDir, 'arca.db'))) throw new Error(`${dataDir} is not empty: it holds a database.`);
  // an object store may hold the binaries already (a bucket kept while the database was lost): they are kept
  if (store.kind === 'file') {
    const storeEntries = fs.existsSync(fileStore)
      ? (await fs.promises.readdir(fileStore)).filter((n) => !n.startsWith('_'))
      : [];
    if (storeEntries.length) throw new Error(`${dataDir} is not empty: its store holds binaries.`);
  }

  // everything is checked before anything is written
  const list = binaryLines(await fs.promises.readFile(path.join(from, manifest.binaryList), 'utf8'), 'binary list');
  if (list.length !== manifest.binaries.count) throw new Error('The backup is incomplete: its binary list is short.');
  let checked = 0;
  await pMap(
    list,
    async (binary) => {
      if (checked++ % 100 === 0) progress('checking', checked, list.length);
      const file = binaryPath(path.join(from, 'filestore'), binary.sha256);
      if ((await sha256File(file).catch(() => 'missing')) !== binary.sha256) {
        throw new Error(`The backup is damaged: binary ${binary.sha256} is missing or changed.`);
      }
    },
    { concurrency: COPIES_IN_FLIGHT },
  );
  const coldList = manifest.coldList
    ? binaryLines(await fs.promises.readFile(path.join(from, manifest.coldList), 'utf8'), 'list of archived binaries')
    : [];
  if (manifest.cold && coldList.length !== manifest.cold.count)
    throw new Error('The backup is incomplete: its list of archived binaries is short.');
  if (coldList.length && !options.cold)
    throw new Error('The backup holds an archive: a cold store is needed to restore it.');
  await pMap(
    coldList,
    async (binary) => {
      const file = binaryPath(path.join(from, COLD_DIR), binary.sha256);
      if ((await sha256File(file).catch(() => 'missing')) !== binary.sha256) {
        throw new Error(`The backup is damaged: archived binary ${binary.sha256} is missing or changed.`);
      }
    },
    { concurrency: COPIES_IN_FLIGHT },
  );
  if (
    manifest.database.file &&
    (await sha256File(path.join(from, manifest.database.file))) !== manifest.database.sha256
  ) {
    throw new Error('The backup is damaged: its database snapshot is changed.');
  }

  await fs.promises.mkdir(dataDir, { recursive: true });
  if (databaseUrl) {
    const db = options.open();
    try {
      const rows = await sql<{
        n: string | number;
      }>`select count(*) as n from information_schema.tables where table_schema = 'public'`.execute(db);
      if (Number(rows.rows[0]?.n ?? 0) > 0) throw new Error('The database to restore into is not empty.');
      if (method === 'pg_dump') {
        progress('database', 0, 1);
        // one transaction: a dump that fails halfway leaves the database as empty as it was
        const { dbname, env } = toolConnection(databaseUrl);
        await runTool(
          'pg_restore',
          [
            '--single-transaction',
            '--exit-on-error',
            '--no-owner',
            '--no-privileges',
            `--dbname=${dbname}`,
            path.join(from, manifest.database.file!),
          ],
          env,
        );
        for (const [table, expected] of Object.entries(manifest.database.tables)) {
          const count = await sql<{ n: string | number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
          if (Number(count.rows[0]?.n ?? 0) !== expected)
            throw new Error(`The restored table ${table} holds a different number of rows than the backup's.`);
        }
        // a backup of an older Arca comes forward to this one's schema
        await options.migrate(db);
      } else {
        await restoreExport(db, from, manifest, options.migrate, progress);
      }
    } finally {
      await db.destroy();
    }
  } else {
    await fs.promises.copyFile(path.join(from, manifest.database.file!), path.join(dataDir, 'arca.db'));
  }
  let restored = 0;
  const makeFolder = folderMaker();
  await pMap(
    list,
    async (binary) => {
      if (restored++ % 100 === 0) progress('binaries', restored, list.length);
      const copy = binaryPath(path.join(from, 'filestore'), binary.sha256);
      if (store.kind === 'file') {
        // the same layout: a plain copy, synced once the database is in place
        const to = binaryPath(fileStore, binary.sha256);
        await makeFolder(path.dirname(to));
        await fs.promises.copyFile(copy, to);
      } else if (!(await store.exists(binary.sha256))) {
        const written = await store.write(fs.createReadStream(copy), binary.size);
        if (written.sha256 !== binary.sha256) {
          await written.discard();
          throw new Error(`The backup's binary ${binary.sha256} changed while it was restored.`);
        }
        await written.commit();
      }
    },
    { concurrency: COPIES_IN_FLIGHT },
  );
  const cold = options.cold;
  if (cold) {
    let placed = 0;
    await pMap(
      coldList,
      async (binary) => {
        if (placed++ % 100 === 0) progress('archived binaries', placed, coldList.length);
        if (await cold.exists(binary.sha256)) return;
        const written = await cold.write(
          fs.createReadStream(binaryPath(path.join(from, COLD_DIR), binary.sha256)),
          binary.size,
        );
        if (written.sha256 !== binary.sha256) {
          await written.discard();
          throw new Error(`The backup's archived binary ${binary.sha256} changed while it was restored.`);
        }
        await written.commit();
      },
      { concurrency: COPIES_IN_FLIGHT },
    );
  }
  if (manifest.keys.length) {
    await fs.promises.mkdir(path.join(dataDir, 'keys'), { recursive: true });
    for (const name of manifest.keys)
      await fs.promises.copyFile(path.join(from, 'keys', name), path.join(dataDir, 'keys', name));
  }
  return manifest;
}

/** Loads the tables of a logical export into a database the migrations have just made. */
async function restoreExport(
  db: Db,
  from: string,
  manifest: BackupManifest,
  migrate: (db: Db) => Promise<unknown>,
  progress: BackupProgress,
): Promise<void> {
  await migrate(db);
  await db.transaction().execute(async (trx) => {
    // the rows come in any order: the checks of references wait for the end of the transaction
    await sql`set local session_replication_role = replica`.execute(trx);
    // the schema's own record of its migrations stays as the migrations above left it
    const tables = Object.keys(manifest.database.tables).filter((t) => !t.startsWith('kysely_migration'));
    for (const [i, table] of tables.entries()) {
      progress('database', i, tables.length);
      await sql`delete from ${sql.table(table)}`.execute(trx);
      const file = path.join(from, EXPORT_DIR, `${table}.jsonl`);
      const lines = (await fs.promises.readFile(file, 'utf8')).split('\n').filter(Boolean);
      if (lines.length !== manifest.database.tables[table])
        throw new Error(`The backup is damaged: table ${table} is short.`);
      for (let at = 0; at < lines.length; at += 500) {
        const batch = lines
          .slice(at, at + 500)
          .map((line) =>
            Object.fromEntries(
              Object.entries(JSON.parse(line) as Record<string, unknown>).map(([k, v]) => [k, decode(v)]),
            ),
          );
        await trx
          .insertInto(table as never)
          .values(batch as never)
          .execute();
      }
    }
  });
}
