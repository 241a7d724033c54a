import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import pMap from 'p-map';
import pg from 'pg';
import { BUILD } from '../../core/build-info.js';
import { ThreadCalls } from '../../core/threads.js';
import { COPYING_THREAD, damagedMessage, missingMessage, type CopyRun } from './backup.copier.js';
import type { BinaryStore } from '../../storage/binary-store.js';

/** The file a backup describes itself in. */
export const MANIFEST = 'manifest.json';
/**
 * Where a backup keeps the database: SQLite's file; PostgreSQL's dump in pg_dump's custom format
 * when the client tools are on this machine, else its tables as JSON lines.
 */
const SQLITE_SNAPSHOT = 'database/arca.db';
const PG_DUMP_FILE = 'database/arca.pgdump';
export const EXPORT_DIR = 'database/tables';
export const SHA256 = /^[0-9a-f]{64}$/;
/** Binaries copied at once: a disk (or a network file system) is faster with a few reads in flight. */
export const COPIES_IN_FLIGHT = 8;

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

/** Contents up to this size are copied as one buffer, hashed in one go, not streamed. */
const IN_MEMORY_COPY_BYTES = 64 * 1024;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fs.promises.open(file, 'r');
  try {
    // a small file in one read, a large one streamed
    if ((await handle.stat()).size <= IN_MEMORY_COPY_BYTES) hash.update(await handle.readFile());
    else await pipeline(handle.createReadStream({ autoClose: false }), hash);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** Makes folders as files are written into them, each folder once (`mkdir -p`). */
export function folderMaker(): (folder: string) => Promise<unknown> {
  const made = new Map<string, Promise<unknown>>();
  return (folder) => {
    let making = made.get(folder);
    if (!making) {
      making = fs.promises.mkdir(folder, { recursive: true });
      made.set(folder, making);
    }
    return making;
  };
}

/**
 * Copies a content into a file (its folder made already), hashing it on the way; answers the
 * SHA-256 of what was copied.
 */
async function copyHashed(from: Readable, to: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const partial = `${to}.part`;
  if (size <= IN_MEMORY_COPY_BYTES) {
    const chunks: Buffer[] = [];
    for await (const chunk of from) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    await fs.promises.writeFile(partial, body);
    hash.update(body);
  } else {
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
  }
  await fs.promises.rename(partial, to);
  return hash.digest('hex');
}

/** The files under `dir` (paths relative to it); none when it does not exist. */
async function filesUnder(dir: string): Promise<Set<string>> {
  const entries = await fs.promises.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return new Set(entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))));
}

export const binaryPath = (root: string, sha256: string) =>
  path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);

/** A PostgreSQL value as JSON: Buffers as base64, everything else as it is. */
const encode = (value: unknown) =>
  Buffer.isBuffer(value) ? { $base64: value.toString('base64') } : value instanceof Date ? value.toISOString() : value;
export const decode = (value: unknown) =>
  value && typeof value === 'object' && '$base64' in value ? Buffer.from(String(value.$base64), 'base64') : value;

/** Whether one of PostgreSQL's client tools is on this machine's PATH. */
export function hasPostgresTool(name: 'pg_dump' | 'pg_restore'): boolean {
  return spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A connection string for the client tools: the password travels in their environment, not in `ps`. */
export function toolConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client tool; rejects with what it wrote to stderr. */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
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
export const COLD_DIR = 'coldstore';
const COLD_LIST = 'cold-binaries.txt';

/** Small contents a copying thread takes per call: few enough that progress is told often. */
const COPY_RUN = 250;
const copier = new ThreadCalls<CopyRun, number>(import.meta.url, 'backup.copier', COPYING_THREAD);

/**
 * Copies binaries from a store into `dir` (the store's layout), each checked against its SHA-256
 * while copied; what `dir` holds already (same name, same size) is kept, so a second backup to the
 * same folder is incremental. From a store on this file system, the small ones are copied on a
 * thread of their own (see backup.copier.ts) while the large ones stream.
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
  const advanced = (count: number) => {
    const before = done;
    done += count;
    if (Math.floor(done / 100) !== Math.floor(before / 100)) progress(step, done, binaries.length);
  };
  const bytes = binaries.reduce((sum, b) => sum + b.size, 0);
  const bad = binaries.find((b) => !SHA256.test(b.sha256));
  if (bad) throw new Error(`The database lists a binary with a bad name: ${bad.sha256}`);
  // what the folder holds already, listed once (a first backup has nothing to look at)
  const present = await filesUnder(dir);
  const missing: typeof binaries = [];
  await pMap(
    binaries,
    async (binary) => {
      const to = binaryPath(dir, binary.sha256);
      if (present.has(path.relative(dir, to)) && (await fs.promises.stat(to)).size === binary.size) {
        reused++;
        advanced(1);
      } else missing.push(binary);
    },
    { concurrency: COPIES_IN_FLIGHT },
  );
  const fileOf = store.pathOf?.bind(store);
  const small = fileOf ? missing.filter((b) => b.size <= IN_MEMORY_COPY_BYTES) : [];
  const streamed = fileOf ? missing.filter((b) => b.size > IN_MEMORY_COPY_BYTES) : missing;
  // the first failure ends both ways of copying
  let failed = false;
  const stopOnFailure = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      failed = true;
      throw error;
    });
  const makeFolder = folderMaker();
  await Promise.all([
    stopOnFailure(
      (async () => {
        for (let i = 0; i < small.length && !failed; i += COPY_RUN) {
          const run = small.slice(i, i + COPY_RUN);
          await copier.call({
            files: run.map((b) => ({ from: fileOf!(b.sha256), to: binaryPath(dir, b.sha256), sha256: b.sha256 })),
          });
          copied += run.length;
          advanced(run.length);
        }
      })(),
    ),
    stopOnFailure(
      pMap(
        streamed,
        async (binary) => {
          if (failed) return;
          const to = binaryPath(dir, binary.sha256);
          await makeFolder(path.dirname(to));
          const digest = await copyHashed(store.read(binary.sha256), to, binary.size).catch((error: unknown) => {
            if ((error as { code?: string }).code === 'ENOENT') throw new Error(missingMessage(binary.sha256));
            throw error;
          });
          if (digest !== binary.sha256) {
            await fs.promises.rm(to, { force: true });
            throw new Error(damagedMessage(binary.sha256, digest));
          }
          copied++;
          advanced(1);
        },
        { concurrency: COPIES_IN_FLIGHT },
      ),
    ),
  ]);
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
