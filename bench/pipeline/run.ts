/**
 * What every request pays before it does any work. Side by side, one process each, on loopback,
 * autocannon with 16 connections, 10 s per run, two alternating rounds (best kept): a bare
 * Fastify route, Arca's `/artifactory/api/system/ping`, and a 1 KiB anonymous read — Arca with
 * one worker and with two, nginx serving the same file.
 * Targets: ping ≥ 0.6 × bare Fastify; 1 KiB reads with two workers ≥ 0.25 × nginx.
 *
 * The machine's speed drifts within minutes (the same bare route answers 21,000 requests/s in one
 * run and 36,000 in the next), so each ratio is taken from two runs made back to back, once per
 * round, and the median of the rounds is reported with the figures of that round.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { AUTH, ROOT, build, createRepository, freePort, installDebianPackages, startNginx } from '../lib/bench.ts';
import { startServer, type RunningServer } from '../../packages/web/e2e/harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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
/** One round's pair: the peer's figure and Arca's, measured back to back. */
interface Pair {
  peer: number;
  arca: number;
}
const pairs = new Map<string, Pair[]>();
const measure = async (name: string, peerUrl: string, arcaUrl: string) => {
  const peer = await rps(peerUrl);
  const arcaFigure = await rps(arcaUrl);
  pairs.set(name, [...(pairs.get(name) ?? []), { peer, arca: arcaFigure }]);
};
/** The round whose ratio is the median of the rounds. */
const median = (name: string): Pair & { ratio: number } => {
  const rounds = pairs.get(name)!.map((p) => ({ ...p, ratio: p.arca / p.peer }));
  return rounds.sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
};
try {
  const bare = await bareFastify();
  const one = await arca('1', dir);
  const ping = `${one.url}/artifactory/api/system/ping`;
  const read = `${one.url}/artifactory/libs-local/small.bin`;
  try {
    for (const url of [bare.url, ping, read, nginxUrl]) await warm(url);
    for (let round = 0; round < ROUNDS; round++) {
      await measure('ping, 1 worker', bare.url, ping);
      await measure('1 KiB read, 1 worker', nginxUrl, read);
    }
  } finally {
    bare.stop();
    await one.stop();
  }
  const two = await arca('2', dir);
  try {
    const readTwo = `${two.url}/artifactory/libs-local/small.bin`;
    await warm(readTwo);
    for (let round = 0; round < ROUNDS; round++) await measure('1 KiB read, 2 workers', nginxUrl, readTwo);
  } finally {
    await two.stop();
  }
  console.log(`\npipeline: ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds`);
  const rows: [string, string, number][] = [
    ['ping, 1 worker', 'bare Fastify route', 0.6],
    ['1 KiB read, 1 worker', 'nginx, 1 KiB', 0],
    ['1 KiB read, 2 workers', 'nginx, 1 KiB', 0.25],
  ];
  for (const [name, peer, target] of rows) {
    const { arca: figure, peer: peerFigure, ratio } = median(name);
    console.log(
      `  Arca ${name.padEnd(24)} ${figure.toFixed(0).padStart(7)} req/s   ${peer.padEnd(20)} ${peerFigure.toFixed(0).padStart(7)} req/s   ${ratio.toFixed(3)}×${target ? ` (target ≥ ${target})` : ''}`,
    );
  }
} finally {
  nginx.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
