/**
 * What every request pays before it does any work. Side by side, one process each, on loopback,
 * autocannon with 16 connections, 10 s per run, two alternating rounds (best kept): a bare
 * Fastify route, Arca's `/artifactory/api/system/ping`, and a 1 KiB anonymous read — Arca with
 * one worker and with two, nginx serving the same file.
 * Targets: ping ≥ 0.6 × bare Fastify; 1 KiB reads with two workers ≥ 0.25 × nginx.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { AUTH, ROOT, build, createRepository, freePort, installDebianPackages, startNginx } from '../lib/bench.ts';
import { startServer, type RunningServer } from '../../packages/web/e2e/harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;

async function rps(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function warm(url: string): Promise<void> {
  await autocannon({ url, connections: 4, amount: 2000 });
}

/** The bare Fastify process, ready to answer. */
async function bareFastify(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, 'bare.ts'), [String(port)], {
    execArgv: ['--import', 'tsx'],
    cwd: ROOT,
    stdio: 'inherit',
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare Fastify exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/ping`, stop: () => child.kill('SIGTERM') };
}

async function arca(workers: string, dir: string): Promise<RunningServer> {
  const server = await startServer({ ARCA_WORKERS: workers, ARCA_LOG_STDOUT: 'false' });
  await createRepository(server.url, 'libs-local');
  const res = await fetch(`${server.url}/artifactory/libs-local/small.bin`, {
    method: 'PUT',
    headers: { authorization: AUTH },
    body: fs.readFileSync(path.join(dir, 'small.bin')),
  });
  if (res.status !== 201) throw new Error(`deploy: ${res.status}`);
  const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const settings = await (await fetch(`${server.url}/ui/api/v1/ui/security/settings`, { headers: json })).json();
  const saved = await fetch(`${server.url}/ui/api/v1/ui/security/settings`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ ...settings, anonymousAccess: true }),
  });
  if (!saved.ok) throw new Error(`anonymous access: ${saved.status}`);
  return server;
}

installDebianPackages('nginx');
await build();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-pipeline-'));
fs.writeFileSync(path.join(dir, 'small.bin'), Buffer.alloc(1024, 7));
const nginxPort = await freePort();
const nginx = await startNginx(dir, nginxPort, path.join(dir, '_nginx'));
const nginxUrl = `http://127.0.0.1:${nginxPort}/small.bin`;
const best = new Map<string, number>();
const keep = (name: string, figure: number) => best.set(name, Math.max(best.get(name) ?? 0, figure));
try {
  const bare = await bareFastify();
  const one = await arca('1', dir);
  const ping = `${one.url}/artifactory/api/system/ping`;
  const read = `${one.url}/artifactory/libs-local/small.bin`;
  try {
    for (const url of [bare.url, ping, read, nginxUrl]) await warm(url);
    for (let round = 0; round < 2; round++) {
      keep('bare Fastify route', await rps(bare.url));
      keep('Arca ping, 1 worker', await rps(ping));
      keep('nginx, 1 KiB', await rps(nginxUrl));
      keep('Arca 1 KiB anonymous read, 1 worker', await rps(read));
    }
  } finally {
    bare.stop();
    await one.stop();
  }
  const two = await arca('2', dir);
  try {
    const readTwo = `${two.url}/artifactory/libs-local/small.bin`;
    await warm(readTwo);
    for (let round = 0; round < 2; round++) {
      keep('nginx, 1 KiB', await rps(nginxUrl));
      keep('Arca 1 KiB anonymous read, 2 workers', await rps(readTwo));
    }
  } finally {
    await two.stop();
  }
  const figure = (name: string) => best.get(name)!;
  console.log(`\npipeline: ${CONNECTIONS} connections, ${SECONDS} s per run, best of 2 rounds`);
  for (const [name, value] of best) console.log(`  ${name.padEnd(40)} ${value.toFixed(0).padStart(7)} req/s`);
  const pingRatio = figure('Arca ping, 1 worker') / figure('bare Fastify route');
  const readRatio = figure('Arca 1 KiB anonymous read, 2 workers') / figure('nginx, 1 KiB');
  console.log(`  ping / bare Fastify: ${pingRatio.toFixed(2)}× (target ≥ 0.6)`);
  console.log(
    `  1 KiB read / nginx: ${(figure('Arca 1 KiB anonymous read, 1 worker') / figure('nginx, 1 KiB')).toFixed(3)}× with 1 worker, ${readRatio.toFixed(3)}× with 2 workers (target ≥ 0.25)`,
  );
} finally {
  nginx.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
