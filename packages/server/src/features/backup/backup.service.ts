import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../../db/database.js';
import { BUILD } from '../../core/build-info.js';

/** The file a backup describes itself in. */
export const MANIFEST = 'manifest.json';
/** Where a backup keeps the database: SQLite's file, or PostgreSQL's tables as JSON lines. */
const SQLITE_SNAPSHOT = 'database/arca.db';
const EXPORT_DIR = 'database/tables';
const SHA256 = /^[0-9a-f]{64}$/;

export interface BackupManifest {
  format: 1;
  created: string;
  arca: { version: string; revision: string };
  engine: 'sqlite' | 'postgres';
  database: { file?: string; sha256?: string; tables: Record<string, number> };
  binaries: { count: number; bytes: number; copied: number; reused: number };
  /** Each binary's SHA-256 is its name; the list is the snapshot's. */
  binaryList: string;
  keys: string[];
  seconds: number;
}

export interface BackupProgress {
  (step: string, done: number, total: number): void;
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Copies a file, hashing it on the way; answers the SHA-256 of what was copied. */
async function copyHashed(from: string, to: string): Promise<string> {
  const hash = createHash('sha256');
  const partial = `${to}.part`;
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  await pipeline(
    fs.createReadStream(from),
    async function* (source) {
      for await (const chunk of source) {
        hash.update(chunk as Buffer);
        yield chunk;
      }
    },
    fs.createWriteStream(partial),
  );
  await fs.promises.rename(partial, to);
  return hash.digest('hex');
}

const binaryPath = (root: string, sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);

/** A PostgreSQL value as JSON: Buffers as base64, everything else as it is. */
const encode = (value: unknown) =>
  Buffer.isBuffer(value) ? { $base64: value.toString('base64') } : value instanceof Date ? value.toISOString() : value;
const decode = (value: unknown) =>
  value && typeof value === 'object' && '$base64' in value ? Buffer.from(String(value.$base64), 'base64') : value;

/** The tables of a PostgreSQL database's public schema. */
async function postgresTables(client: pg.ClientBase): Promise<string[]> {
  const result = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return result.rows.map((r) => r.table_name);
}

/**
 * Writes a consistent backup of a running deployment to `target`: the database as of one moment
 * (SQLite's online backup; PostgreSQL's tables read in one repeatable-read transaction), then the
 * binaries that snapshot references — only those `target` does not hold yet, so a second backup
 * to the same folder is incremental — each checked against its SHA-256 while copied, the
 * deployment's keys, and a manifest with the counts. Arca keeps serving meanwhile.
 */
export async function backup(
  options: { dataDir: string; databaseUrl?: string | undefined; target: string },
  progress: BackupProgress = () => undefined,
): Promise<BackupManifest> {
  const started = Date.now();
  const { dataDir, databaseUrl, target } = options;
  await fs.promises.mkdir(path.join(target, 'database'), { recursive: true });
  const tables: Record<string, number> = {};
  let binaries: { sha256: string; size: number }[];
  let databaseFile: { file: string; sha256: string } | undefined;

  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('begin isolation level repeatable read read only');
      const exportDir = path.join(target, EXPORT_DIR);
      await fs.promises.rm(exportDir, { recursive: true, force: true });
      await fs.promises.mkdir(exportDir, { recursive: true });
      const names = await postgresTables(client);
      for (const [i, table] of names.entries()) {
        progress('database', i, names.length);
        const out = fs.createWriteStream(path.join(exportDir, `${table}.jsonl`));
        let rows = 0;
        // read in pages of a fixed order: the snapshot holds still across them
        for (let offset = 0; ; offset += 5000) {
          const page = await client.query(`select * from "${table}" order by 1 limit 5000 offset ${offset}`);
          for (const row of page.rows as Record<string, unknown>[]) {
            out.write(`${JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, encode(v)])))}\n`);
          }
          rows += page.rows.length;
          if (page.rows.length < 5000) break;
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        tables[table] = rows;
      }
      const listed = await client.query<{ sha256: string; size: string | number }>(
        'select sha256, size from binaries where ref_count > 0 order by sha256',
      );
      binaries = listed.rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
      await client.query('commit');
    } finally {
      await client.end();
    }
  } else {
    const source = new SQLite(path.join(dataDir, 'arca.db'), { readonly: true, fileMustExist: true });
    const file = path.join(target, SQLITE_SNAPSHOT);
    try {
      await fs.promises.rm(file, { force: true });
      await source.backup(`${file}.part`, {
        progress: ({ totalPages, remainingPages }) => {
          progress('database', totalPages - remainingPages, totalPages);
          return 1000;
        },
      });
    } finally {
      source.close();
    }
    await fs.promises.rename(`${file}.part`, file);
    const snapshot = new SQLite(file, { readonly: true });
    try {
      const names = snapshot
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'items_name_search_%' order by name",
        )
        .pluck()
        .all() as string[];
      for (const table of names)
        tables[table] = Number(snapshot.prepare(`select count(*) from "${table}"`).pluck().get());
      binaries = (
        snapshot.prepare('select sha256, size from binaries where ref_count > 0 order by sha256').all() as {
          sha256: string;
          size: number;
        }[]
      ).map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
    } finally {
      snapshot.close();
    }
    databaseFile = { file: SQLITE_SNAPSHOT, sha256: await sha256File(file) };
  }

  // the binaries of the snapshot: what the target holds already (same name, same size) is kept
  const store = path.join(dataDir, 'filestore');
  const copiedTo = path.join(target, 'filestore');
  let copied = 0;
  let reused = 0;
  let bytes = 0;
  for (const [i, binary] of binaries.entries()) {
    if (i % 100 === 0) progress('binaries', i, binaries.length);
    if (!SHA256.test(binary.sha256)) throw new Error(`The database lists a binary with a bad name: ${binary.sha256}`);
    bytes += binary.size;
    const to = binaryPath(copiedTo, binary.sha256);
    const existing = await fs.promises.stat(to).catch(() => undefined);
    if (existing?.size === binary.size) {
      reused++;
      continue;
    }
    const from = binaryPath(store, binary.sha256);
    if (!fs.existsSync(from))
      throw new Error(`The binary ${binary.sha256} the database lists is missing from the store.`);
    const digest = await copyHashed(from, to);
    if (digest !== binary.sha256) {
      await fs.promises.rm(to, { force: true });
      throw new Error(`The stored binary ${binary.sha256} is damaged: its content hashes to ${digest}.`);
    }
    copied++;
  }
  progress('binaries', binaries.length, binaries.length);
  await fs.promises.writeFile(
    path.join(target, 'binaries.txt'),
    binaries.map((b) => `${b.sha256} ${b.size}\n`).join(''),
  );

  // the deployment's keys (the licence issuer key pair)
  const keys: string[] = [];
  const keysDir = path.join(dataDir, 'keys');
  if (fs.existsSync(keysDir)) {
    await fs.promises.mkdir(path.join(target, 'keys'), { recursive: true });
    for (const name of await fs.promises.readdir(keysDir)) {
      await fs.promises.copyFile(path.join(keysDir, name), path.join(target, 'keys', name));
      keys.push(name);
    }
  }

  const manifest: BackupManifest = {
    format: 1,
    created: new Date(started).toISOString(),
    arca: { version: BUILD.version, revision: BUILD.revision },
    engine: databaseUrl ? 'postgres' : 'sqlite',
    database: { ...(databaseFile ?? {}), tables },
    binaries: { count: binaries.length, bytes, copied, reused },
    binaryList: 'binaries.txt',
    keys,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  await fs.promises.writeFile(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

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
  return manifest;
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
  const store = path.join(dataDir, 'filestore');
  if (fs.existsSync(path.join(dataDir, 'arca.db'))) throw new Error(`${dataDir} is not empty: it holds a database.`);
  const storeEntries = fs.existsSync(store) ? (await fs.promises.readdir(store)).filter((n) => n !== '_tmp') : [];
  if (storeEntries.length) throw new Error(`${dataDir} is not empty: its store holds binaries.`);

  // everything is checked before anything is written
  const list = (await fs.promises.readFile(path.join(from, manifest.binaryList), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha256, size] = line.split(' ');
      return { sha256: sha256!, size: Number(size) };
    });
  if (list.length !== manifest.binaries.count) throw new Error('The backup is incomplete: its binary list is short.');
  for (const [i, binary] of list.entries()) {
    if (i % 100 === 0) progress('checking', i, list.length);
    const file = binaryPath(path.join(from, 'filestore'), binary.sha256);
    if ((await sha256File(file).catch(() => 'missing')) !== binary.sha256) {
      throw new Error(`The backup is damaged: binary ${binary.sha256} is missing or changed.`);
    }
  }
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
      await options.migrate(db);
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
    } finally {
      await db.destroy();
    }
  } else {
    await fs.promises.copyFile(path.join(from, manifest.database.file!), path.join(dataDir, 'arca.db'));
  }
  for (const [i, binary] of list.entries()) {
    if (i % 100 === 0) progress('binaries', i, list.length);
    const to = binaryPath(store, binary.sha256);
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.copyFile(binaryPath(path.join(from, 'filestore'), binary.sha256), to);
  }
  if (manifest.keys.length) {
    await fs.promises.mkdir(path.join(dataDir, 'keys'), { recursive: true });
    for (const name of manifest.keys)
      await fs.promises.copyFile(path.join(from, 'keys', name), path.join(dataDir, 'keys', name));
  }
  return manifest;
}
