/**
 * Search at scale: 1 000 000 artifacts across 50 repositories (two properties each, every file its
 * own binary with SHA-256, SHA-1 and MD5) written straight into a fresh database, then p50/p95 of
 * the console's quick search (prefix and infix), checksum and property searches and an AQL query
 * with a property criterion, over HTTP against the running server, on SQLite and on PostgreSQL.
 * Targets: p95 ≤ 50 ms for quick and checksum, ≤ 150 ms for property and AQL.
 *
 * BENCH_ARTIFACTS changes the count; BENCH_ENGINES=sqlite (or postgres) runs one engine; BENCH_KEEP=1
 * keeps the data directory.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { AUTH, ROOT, build, createRepository, median, percentile } from '../lib/bench.ts';

const ARTIFACTS = Number(process.env.BENCH_ARTIFACTS ?? 1_000_000);
const REPOS = 50;
const RUNS = 40;
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const WORDS = ['core', 'client', 'server', 'api', 'util', 'common', 'web', 'data', 'auth', 'cache'];
const LOG = { ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' };

const repoKey = (r: number) => `bench-${String(r).padStart(2, '0')}`;
/** Artifact i: its repository, folder, file name, checksums and properties. */
function artifact(i: number) {
  const word = WORDS[i % WORDS.length]!;
  const module = `${word}-module${String(Math.floor(i / 20) % 5000).padStart(4, '0')}`;
  const version = `1.${i % 20}.${Math.floor(i / 100_000)}`;
  const name = `${module}-${version}.jar`;
  const parent = `com/acme/${word}/${module}/${version}`;
  const hash = (algorithm: string) => createHash(algorithm).update(`artifact-${i}`).digest('hex');
  return {
    repo: repoKey(i % REPOS),
    parent,
    name,
    sha256: hash('sha256'),
    sha1: hash('sha1'),
    md5: hash('md5'),
    properties: { 'build.number': String(i % 5000), team: `team-${i % 40}` },
  };
}

const t0 = Date.UTC(2026, 0, 1);

function fillSqlite(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const item = db.prepare(
    `INSERT INTO items (id, repo_key, path, parent, name, folder, sha256, size, mime_type, created_at, created_by, modified_at, modified_by)
     VALUES (?, ?, ?, ?, ?, 0, ?, 1024, 'application/java-archive', ?, 'ci', ?, 'ci')`,
  );
  const binary = db.prepare(
    'INSERT INTO binaries (sha256, sha1, md5, size, ref_count, created_at, updated_at) VALUES (?, ?, ?, 1024, 1, ?, ?)',
  );
  const property = db.prepare('INSERT INTO item_properties (item_id, key, value) VALUES (?, ?, ?)');
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const a = artifact(i);
      const id = `bench-${i}`;
      const at = t0 + i * 1000;
      binary.run(a.sha256, a.sha1, a.md5, at, at);
      item.run(id, a.repo, `${a.parent}/${a.name}`, a.parent, a.name, a.sha256, at, at);
      for (const [key, value] of Object.entries(a.properties)) property.run(id, key, value);
    }
  });
  for (let i = 0; i < ARTIFACTS; i += 50_000) batch(i, Math.min(ARTIFACTS, i + 50_000));
  db.exec('ANALYZE');
  db.close();
}

async function fillPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const chunk = 2_000;
  await client.query('BEGIN');
  for (let from = 0; from < ARTIFACTS; from += chunk) {
    const rows = Array.from({ length: Math.min(chunk, ARTIFACTS - from) }, (_, k) => from + k).map((i) => ({
      i,
      ...artifact(i),
    }));
    const insert = async (table: string, columns: string[], values: unknown[][]) => {
      const params: unknown[] = [];
      const tuples = values.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
      await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    };
    await insert(
      'binaries',
      ['sha256', 'sha1', 'md5', 'size', 'ref_count', 'created_at', 'updated_at'],
      rows.map((a) => [a.sha256, a.sha1, a.md5, 1024, 1, t0 + a.i * 1000, t0 + a.i * 1000]),
    );
    const columns = ['id', 'repo_key', 'path', 'parent', 'name', 'folder', 'sha256', 'size', 'mime_type'];
    await insert(
      'items',
      [...columns, 'created_at', 'created_by', 'modified_at', 'modified_by'],
      rows.map((a) => [
        `bench-${a.i}`,
        a.repo,
        `${a.parent}/${a.name}`,
        a.parent,
        a.name,
        0,
        a.sha256,
        1024,
        'application/java-archive',
        t0 + a.i * 1000,
        'ci',
        t0 + a.i * 1000,
        'ci',
      ]),
    );
    await insert(
      'item_properties',
      ['item_id', 'key', 'value'],
      rows.flatMap((a) => Object.entries(a.properties).map(([k, v]) => [`bench-${a.i}`, k, v])),
    );
  }
  await client.query('COMMIT');
  // the state autovacuum reaches after a bulk load: statistics and the visibility map
  await client.query('VACUUM ANALYZE');
  await client.end();
}

interface Query {
  label: string;
  target: number;
  /** The request of run k (values vary so no answer is served from a cache). */
  request(k: number): { path: string; body: string };
  /** How many results run k must find at least (a search that finds nothing proves nothing). */
  atLeast: number;
}

const QUERIES: Query[] = [
  {
    label: 'quick, prefix (client-module01*)',
    target: 50,
    atLeast: 1,
    request: (k) => ({
      path: '/ui/api/v1/ui/artifactsearch/quick',
      body: JSON.stringify({
        query: `${WORDS[k % WORDS.length]}-module${String(k * 37)
          .padStart(4, '0')
          .slice(0, 3)}`,
      }),
    }),
  },
  {
    label: 'quick, infix (*module1234-1.4*)',
    target: 50,
    atLeast: 1,
    request: (k) => ({
      path: '/ui/api/v1/ui/artifactsearch/quick',
      body: JSON.stringify({ query: `*module${String((k * 97) % 5000).padStart(4, '0')}-1.${k % 20}` }),
    }),
  },
  {
    label: 'checksum (SHA-1)',
    target: 50,
    atLeast: 1,
    request: (k) => ({
      path: '/ui/api/v1/ui/artifactsearch/checksum',
      body: JSON.stringify({ checksum: artifact((k * 24_989) % ARTIFACTS).sha1 }),
    }),
  },
  {
    label: 'property (build.number=N, 200 hits)',
    target: 150,
    atLeast: 1,
    request: (k) => ({
      path: '/ui/api/v1/ui/artifactsearch/property',
      body: JSON.stringify({ propertyKeyValues: [{ key: 'build.number', values: [String((k * 131) % 5000)] }] }),
    }),
  },
  {
    label: 'AQL (repo + @team, limit 100)',
    target: 150,
    atLeast: 1,
    request: (k) => ({
      path: '/artifactory/api/search/aql',
      body: `items.find({"repo":"${repoKey(k % REPOS)}","@team":"team-${(k % REPOS) % 40}"}).include("*","property").limit(100)`,
    }),
  },
];

async function measure(url: string, query: Query): Promise<{ p50: number; p95: number; found: number }> {
  const times: number[] = [];
  let found = Number.MAX_SAFE_INTEGER;
  for (let k = -3; k < RUNS; k++) {
    const { path: p, body } = query.request(Math.abs(k));
    const started = performance.now();
    const res = await fetch(`${url}${p}`, {
      method: 'POST',
      headers: {
        authorization: AUTH,
        'x-requested-with': 'XMLHttpRequest',
        'content-type': p.endsWith('/aql') ? 'text/plain' : 'application/json',
      },
      body,
    });
    const answer = (await res.json()) as { results?: unknown[] };
    const elapsed = performance.now() - started;
    if (!res.ok) throw new Error(`${query.label}: ${res.status} ${JSON.stringify(answer)}`);
    if (k < 0) continue;
    times.push(elapsed);
    found = Math.min(found, answer.results?.length ?? 0);
  }
  if (found < query.atLeast) throw new Error(`${query.label}: a run found ${found} results`);
  return { p50: median(times), p95: percentile(times, 95), found };
}

async function postgresUrl(): Promise<string> {
  let base = process.env.ARCA_TEST_DATABASE_URL;
  if (!base) {
    const out = execFileSync('bash', [path.join(ROOT, 'scripts/start-test-postgres.sh')]).toString();
    base = /ARCA_TEST_DATABASE_URL=(\S+)/.exec(out)![1]!;
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS arca_bench_search');
  await admin.query('CREATE DATABASE arca_bench_search');
  await admin.end();
  const url = new URL(base);
  url.pathname = '/arca_bench_search';
  return url.toString();
}

await build(true);
const table: string[] = [];
for (const engine of ENGINES) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `arca-bench-search-${engine}-`));
  const env = { ...LOG, ...(engine === 'postgres' ? { ARCA_DATABASE_URL: await postgresUrl() } : {}) };
  let server = await startServer(env, { dataDir });
  for (let r = 0; r < REPOS; r++) await createRepository(server.url, repoKey(r));
  await server.stop();

  const started = performance.now();
  if (engine === 'postgres') await fillPostgres(env.ARCA_DATABASE_URL!);
  else fillSqlite(path.join(dataDir, 'arca.db'));
  console.log(
    `${engine}: ${ARTIFACTS.toLocaleString('en')} artifacts written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  server = await startServer(env, { dataDir });
  try {
    for (const query of QUERIES) {
      const { p50, p95, found } = await measure(server.url, query);
      const verdict = p95 <= query.target ? 'ok' : `over ${query.target} ms`;
      const line = `${engine.padEnd(9)} ${query.label.padEnd(38)} p50 ${p50.toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  (≥${found} found; target ${query.target} ms: ${verdict})`;
      console.log(line);
      table.push(line);
    }
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP) console.log(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(`\nsearch over ${ARTIFACTS.toLocaleString('en')} artifacts in ${REPOS} repositories, ${RUNS} runs each:`);
for (const line of table) console.log(line);
