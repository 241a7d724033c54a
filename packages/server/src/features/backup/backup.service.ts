import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pMap from 'p-map';
import pg from 'pg';
import type { Db } from '../../db/database.js';
import { BUILD } from '../../core/build-info.js';
import type { BinaryStore } from '../../storage/binary-store.js';

/** The file a backup describes itself in. */
export const MANIFEST = 'manifest.json';
/**
 * Where a backup keeps the database: SQLite's file; PostgreSQL's dump in pg_dump's custom format
 * when the client tools are on this machine, else its tables as JSON lines.
 */
const SQLITE_SNAPSHOT = 'database/arca.db';
const PG_DUMP_FILE = 'database/arca.pgdump';
const EXPORT_DIR = 'database/tables';
const SHA256 = /^[0-9a-f]{64}$/;
/** Binaries copied at once: a disk (or a network file system) is faster with a few reads in flight. */
const COPIES_IN_FLIGHT = 8;

export interface BackupManifest {
  format: 1;
  created: string;
  arca: { version: string; revision: string };
  engine: 'sqlite' | 'postgres';
  database: {
    /** How the database was captured; a restore uses the same way back. */
    method: 'sqlite-backup' | 'pg_dump' | 'export';
    file?: string;
    sha256?: string;
    /** Why pg_dump was not used although asked for, when it was not. */
    note?: string;
    tables: Record<string, number>;
  };
  binaries: { count: number; bytes: number; copied: number; reused: number };
  /** Each binary's SHA-256 is its name; the list is the snapshot's. */
  binaryList: string;
  /** The archive's binaries in the cold store, when the archive holds any. */
  cold?: { count: number; bytes: number; copied: number; reused: number };
  coldList?: string;
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

/** Copies a content into a file, hashing it on the way; answers the SHA-256 of what was copied. */
async function copyHashed(from: Readable, to: string): Promise<string> {
  const hash = createHash('sha256');
  const partial = `${to}.part`;
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  await pipeline(
    from,
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

/** Whether one of PostgreSQL's client tools is on this machine's PATH. */
export function hasPostgresTool(name: 'pg_dump' | 'pg_restore'): boolean {
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A connection string for the client tools: the password travels in their environment, not in `ps`. */
function toolConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client tool; rejects with what it wrote to stderr. */
function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** The tables of a PostgreSQL database's public schema. */
async function postgresTables(client: pg.ClientBase): Promise<string[]> {
  const result = await client.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return result.rows.map((r) => r.table_name);
}

/** Where a backup keeps the cold store's binaries, and their list. */
const COLD_DIR = 'coldstore';
const COLD_LIST = 'cold-binaries.txt';

/**
 * Copies binaries from a store into `dir` (the store's layout), each checked against its SHA-256
 * while copied; what `dir` holds already (same name, same size) is kept, so a second backup to the
 * same folder is incremental.
 */
async function copyBinaries(
  store: BinaryStore,
  binaries: { sha256: string; size: number }[],
  dir: string,
  step: string,
  progress: BackupProgress,
): Promise<{ bytes: number; copied: number; reused: number }> {
  let copied = 0;
  let reused = 0;
  let done = 0;
  const bytes = binaries.reduce((sum, b) => sum + b.size, 0);
  const bad = binaries.find((b) => !SHA256.test(b.sha256));
  if (bad) throw new Error(`The database lists a binary with a bad name: ${bad.sha256}`);
  await pMap(
    binaries,
    async (binary) => {
      if (done++ % 100 === 0) progress(step, done, binaries.length);
      const to = binaryPath(dir, binary.sha256);
      const existing = await fs.promises.stat(to).catch(() => undefined);
      if (existing?.size === binary.size) {
        reused++;
        return;
      }
      const digest = await copyHashed(store.read(binary.sha256), to).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'ENOENT')
          throw new Error(`The binary ${binary.sha256} the database lists is missing from the store.`);
        throw error;
      });
      if (digest !== binary.sha256) {
        await fs.promises.rm(to, { force: true });
        throw new Error(`The stored binary ${binary.sha256} is damaged: its content hashes to ${digest}.`);
      }
      copied++;
    },
    { concurrency: COPIES_IN_FLIGHT },
  );
  progress(step, binaries.length, binaries.length);
  return { bytes, copied, reused };
}

/**
 * Writes a consistent backup of a running deployment to `target`: the database as of one moment
 * (SQLite's online backup; PostgreSQL's tables read in one repeatable-read transaction), then the
 * binaries that snapshot references — only those `target` does not hold yet, so a second backup
 * to the same folder is incremental — each checked against its SHA-256 while copied, the
 * deployment's keys, and a manifest with the counts. Arca keeps serving meanwhile.
 */
export async function backup(
  options: {
    dataDir: string;
    databaseUrl?: string | undefined;
    target: string;
    /** The binary store the database's binaries are read from. */
    store: BinaryStore;
    /** The cold store archived artifacts' binaries are read from (none: they are not backed up). */
    cold?: BinaryStore | undefined;
    /** PostgreSQL through pg_dump when it is on the PATH (the default), or `false` for the logical export. */
    pgDump?: boolean;
  },
  progress: BackupProgress = () => undefined,
): Promise<BackupManifest> {
  const started = Date.now();
  const { dataDir, databaseUrl, target } = options;
  await fs.promises.mkdir(path.join(target, 'database'), { recursive: true });
  const tables: Record<string, number> = {};
  let binaries: { sha256: string; size: number }[];
  let coldBinaries: { sha256: string; size: number }[] = [];
  let databaseFile: { file: string; sha256: string } | undefined;

  let method: BackupManifest['database']['method'] = databaseUrl ? 'export' : 'sqlite-backup';
  let note: string | undefined;

  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // one snapshot for the dump (or the export), the counts and the binary list
      await client.query('begin isolation level repeatable read read only');
      const names = await postgresTables(client);
      const exportDir = path.join(target, EXPORT_DIR);
      const dumpFile = path.join(target, PG_DUMP_FILE);
      await fs.promises.rm(exportDir, { recursive: true, force: true });
      await fs.promises.rm(dumpFile, { force: true });
      if (options.pgDump !== false && hasPostgresTool('pg_dump')) {
        progress('database', 0, 1);
        const snapshot = await client.query<{ id: string }>('select pg_export_snapshot() as id');
        const { dbname, env } = toolConnection(databaseUrl);
        try {
          await runTool(
            'pg_dump',
            [
              '--format=custom',
              '--no-owner',
              '--no-privileges',
              `--snapshot=${snapshot.rows[0]!.id}`,
              `--file=${dumpFile}.part`,
              `--dbname=${dbname}`,
            ],
            env,
          );
          await fs.promises.rename(`${dumpFile}.part`, dumpFile);
          method = 'pg_dump';
          for (const table of names) {
            const count = await client.query<{ n: string }>(`select count(*) as n from "${table}"`);
            tables[table] = Number(count.rows[0]!.n);
          }
          databaseFile = { file: PG_DUMP_FILE, sha256: await sha256File(dumpFile) };
        } catch (error) {
          // a pg_dump older than the server, say: the logical export below still makes a good backup
          await fs.promises.rm(`${dumpFile}.part`, { force: true });
          note = `pg_dump was not usable, so the tables were exported instead: ${(error as Error).message}`;
        }
      }
      if (method === 'export') {
        await fs.promises.mkdir(exportDir, { recursive: true });
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
      }
      const listed = await client.query<{ sha256: string; size: string | number }>(
        'select sha256, size from binaries where ref_count > 0 order by sha256',
      );
      binaries = listed.rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
      const cold = await client.query<{ sha256: string; size: string | number }>(
        'select sha256, size from cold_binaries where ref_count > 0 order by sha256',
      );
      coldBinaries = cold.rows.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
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
      coldBinaries = (
        snapshot.prepare('select sha256, size from cold_binaries where ref_count > 0 order by sha256').all() as {
          sha256: string;
          size: number;
        }[]
      ).map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
    } finally {
      snapshot.close();
    }
    databaseFile = { file: SQLITE_SNAPSHOT, sha256: await sha256File(file) };
  }

  // the binaries of the snapshot, and the archive's in the cold store
  const hot = await copyBinaries(options.store, binaries, path.join(target, 'filestore'), 'binaries', progress);
  await fs.promises.writeFile(
    path.join(target, 'binaries.txt'),
    binaries.map((b) => `${b.sha256} ${b.size}\n`).join(''),
  );
  const cold =
    options.cold && coldBinaries.length
      ? await copyBinaries(options.cold, coldBinaries, path.join(target, COLD_DIR), 'archived binaries', progress)
      : undefined;
  if (cold)
    await fs.promises.writeFile(
      path.join(target, COLD_LIST),
      coldBinaries.map((b) => `${b.sha256} ${b.size}\n`).join(''),
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
    database: { method, ...(databaseFile ?? {}), ...(note ? { note } : {}), tables },
    binaries: { count: binaries.length, ...hot },
    binaryList: 'binaries.txt',
    ...(cold ? { cold: { count: coldBinaries.length, ...cold }, coldList: COLD_LIST } : {}),
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
  await pMap(
    list,
    async (binary) => {
      if (restored++ % 100 === 0) progress('binaries', restored, list.length);
      const copy = binaryPath(path.join(from, 'filestore'), binary.sha256);
      if (store.kind === 'file') {
        // the same layout: a plain copy, synced once the database is in place
        const to = binaryPath(fileStore, binary.sha256);
        await fs.promises.mkdir(path.dirname(to), { recursive: true });
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
