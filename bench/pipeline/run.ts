/**
 * What every request pays before it does any work. Side by side, one process each, on loopback,
 * autocannon with 16 connections: a bare Fastify route; the same route answering Arca's headers
 * (security headers, request id: what an answer with them costs by itself); Arca's
 * `/artifactory/api/system/ping`; a 1 KiB anonymous read — Arca with one worker and with two,
 * nginx serving the same file. Then where a ping's CPU time goes: each server profiled under the
 * same load, the samples given to the parts of the pipeline (stages.ts), µs per request.
 * Targets: ping ≥ 0.7 × bare Fastify; 1 KiB reads with two workers ≥ 0.25 × nginx.
 *
 * The machine's speed drifts within minutes (the same bare route answers 21,000 requests/s in one
 * run and 36,000 in the next), so each ratio is taken from two runs made back to back, once per
 * round, and the median of the rounds is reported with the figures of that round.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import {
  AUTH,
  bareFastify as bareFastifyProcess,
  build,
  createRepository,
  freePort,
  installDebianPackages,
  startNginx,
} from '../lib/bench.ts';
import { startServer, type RunningServer } from '../../packages/web/e2e/harness.ts';
import { stagesOf } from './stages.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const PROFILER = path.join(import.meta.dirname, 'profiler.mjs');

/**
 * A CPU profile of `server` while it answers `url` under the benchmark's load: microseconds of
 * CPU per request by part of the pipeline (see stages.ts).
 */
async function profiled(server: ChildProcess, url: string, file: string): Promise<Map<string, number>> {
  fs.rmSync(file, { force: true });
  server.kill('SIGUSR2');
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  server.kill('SIGUSR2');
  while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 50));
  return stagesOf(file, result.requests.total);
}

async function rps(url: string, headers: Record<string, string> = {}): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function warm(url: string): Promise<void> {
  await autocannon({ url, connections: 4, amount: 2000 });
}

/** The bare Fastify process, ready to answer (under the profiler when a profile is asked for). */
const bareFastify = (options: { profile?: string; headers?: Record<string, string> } = {}) =>
  bareFastifyProcess({ ...options, ...(options.profile ? { preload: pathToFileURL(PROFILER).href } : {}) });

async function arca(workers: string, dir: string, profile?: string): Promise<RunningServer> {
  const server = await startServer({
    ARCA_WORKERS: workers,
    ARCA_LOG_STDOUT: 'false',
    ...(profile ? { NODE_OPTIONS: `--import ${pathToFileURL(PROFILER).href}`, BENCH_PROFILE_FILE: profile } : {}),
  });
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
/** The headers Arca's ping answers, but those every HTTP answer has. */
async function answerHeaders(ping: string): Promise<Record<string, string>> {
  const res = await fetch(ping);
  await res.arrayBuffer();
  const own = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type']);
  return Object.fromEntries([...res.headers].filter(([name]) => !own.has(name)));
}
try {
  const one = await arca('1', dir);
  const ping = `${one.url}/artifactory/api/system/ping`;
  const read = `${one.url}/artifactory/libs-local/small.bin`;
  const headers = await answerHeaders(ping);
  const bare = await bareFastify();
  const withHeaders = await bareFastify({ headers });
  try {
    for (const url of [bare.url, withHeaders.url, ping, read, nginxUrl]) await warm(url);
    for (let round = 0; round < ROUNDS; round++) {
      await measure('ping', bare.url, ping);
      await measure('ping beside headers', withHeaders.url, ping);
      await measure('read, 1 worker', nginxUrl, read);
    }
  } finally {
    bare.stop();
    withHeaders.stop();
    await one.stop();
  }
  const two = await arca('2', dir);
  try {
    const readTwo = `${two.url}/artifactory/libs-local/small.bin`;
    await warm(readTwo);
    for (let round = 0; round < ROUNDS; round++) await measure('read, 2 workers', nginxUrl, readTwo);
  } finally {
    await two.stop();
  }
  console.log(`\npipeline: ${CONNECTIONS} connections, ${SECONDS} s per run, median of ${ROUNDS} rounds`);
  const rows: [key: string, label: string, peer: string, target: number][] = [
    ['ping', 'ping, 1 worker', 'bare Fastify route', 0.7],
    ['ping beside headers', 'ping, 1 worker', "bare, Arca's headers", 0],
    ['read, 1 worker', '1 KiB read, 1 worker', 'nginx, 1 KiB', 0],
    ['read, 2 workers', '1 KiB read, 2 workers', 'nginx, 1 KiB', 0.25],
  ];
  for (const [key, label, peer, target] of rows) {
    const { arca: figure, peer: peerFigure, ratio } = median(key);
    console.log(
      `  Arca ${label.padEnd(24)} ${figure.toFixed(0).padStart(7)} req/s   ${peer.padEnd(20)} ${peerFigure.toFixed(0).padStart(7)} req/s   ${ratio.toFixed(3)}×${target ? ` (target ≥ ${target})` : ''}`,
    );
  }

  // where a request's time goes: each server profiled under the same load, in turn, twice; the
  // run a server spent least in is kept (the other was the one the machine disturbed more)
  const total = (stages: Map<string, number>) => [...stages.values()].reduce((a, b) => a + b, 0);
  const oneProfiled = await arca('1', dir, path.join(dir, 'arca.cpuprofile'));
  const servers: { name: string; url: string; process: ChildProcess; file: string; stop: () => unknown }[] = [];
  const profiles: [string, Map<string, number>][] = [];
  try {
    const ping = `${oneProfiled.url}/artifactory/api/system/ping`;
    servers.push({
      name: 'Arca ping',
      url: ping,
      process: oneProfiled.process,
      stop: oneProfiled.stop,
      file: path.join(dir, 'arca.cpuprofile'),
    });
    const headers = await answerHeaders(ping);
    for (const [name, options] of [
      ["bare + Arca's headers", { headers }],
      ['bare Fastify', {}],
    ] as const) {
      const file = path.join(dir, `${servers.length}.cpuprofile`);
      servers.push({ name, file, ...(await bareFastify({ ...options, profile: file })) });
    }
    for (const server of servers) await warm(server.url);
    const best = new Map<string, Map<string, number>>();
    for (let round = 0; round < 2; round++) {
      for (const server of servers) {
        const stages = await profiled(server.process, server.url, server.file);
        const kept = best.get(server.name);
        if (!kept || total(stages) < total(kept)) best.set(server.name, stages);
      }
    }
    for (const server of servers) profiles.push([server.name, best.get(server.name)!]);
  } finally {
    for (const server of servers.slice(1)) server.stop();
    await oneProfiled.stop();
  }
  console.log(`\nwhere a ping's CPU time goes (sampling profile, µs per request; the profiler slows all alike):`);
  console.log(`  ${'part'.padEnd(34)}${profiles.map(([name]) => name.padStart(24)).join('')}`);
  const arcaStages = profiles[0]![1];
  const names = [...new Set(profiles.flatMap(([, stages]) => [...stages.keys()]))].sort(
    (a, b) => (arcaStages.get(b) ?? 0) - (arcaStages.get(a) ?? 0),
  );
  for (const name of names) {
    const figures = profiles.map(([, stages]) => stages.get(name) ?? 0);
    if (figures.every((f) => f < 0.05)) continue;
    console.log(`  ${name.padEnd(34)}${figures.map((f) => f.toFixed(1).padStart(24)).join('')}`);
  }
  console.log(`  ${'total'.padEnd(34)}${profiles.map(([, stages]) => total(stages).toFixed(1).padStart(24)).join('')}`);
} finally {
  nginx.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
