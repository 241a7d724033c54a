/**
 * The hot read path: small artifacts (1 KiB and 64 KiB) served by nginx and by Arca on loopback,
 * measured with autocannon (16 connections, 10 s per run, two alternating rounds, best kept).
 * Arca is measured anonymously, with a basic password and with a bearer token, with one worker
 * (`ARCA_WORKERS=1`) and with the default. Prints requests/s, p99 latency and the ratio to nginx.
 * Targets: ≥ 5,000 requests/s for 1 KiB with one worker (≥ 0.25× nginx), ≥ 1.4× that with two
 * workers, authenticated within 0.9× of anonymous, p99 ≤ 20 ms.
 */
import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, build, createRepository, freePort, installDebianPackages, startNginx } from '../lib/bench.ts';
import { startServer, type RunningServer } from '../../packages/web/e2e/harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 16;
const SIZES = { '1 KiB': 1024, '64 KiB': 64 * 1024 } as const;
type Size = keyof typeof SIZES;

interface Figure {
  rps: number;
  p99: number;
}

function fileName(size: Size): string {
  return size === '1 KiB' ? 'small.bin' : 'medium.bin';
}

async function load(url: string, headers: Record<string, string>): Promise<Figure> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** An Arca with the two files, anonymous access on, and a reader's basic and bearer credentials. */
async function arca(workers: string): Promise<{ server: RunningServer; modes: [string, Record<string, string>][] }> {
  const server = await startServer({ ARCA_WORKERS: workers, ARCA_LOG_STDOUT: 'false' });
  const base = server.url;
  const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  await createRepository(base, 'libs-local');
  for (const size of Object.keys(SIZES) as Size[]) {
    const res = await fetch(`${base}/artifactory/libs-local/${fileName(size)}`, {
      method: 'PUT',
      headers: { authorization: AUTH },
      body: fs.readFileSync(path.join(dir, fileName(size))),
    });
    if (res.status !== 201) throw new Error(`deploy ${size}: ${res.status}`);
  }
  await call(`${base}/artifactory/api/security/users/reader`, 'PUT', json, {
    email: 'reader@example.com',
    password: 'Reader-password-1',
  });
  await call(`${base}/artifactory/api/v2/security/permissions/reader`, 'PUT', json, {
    repo: { repositories: ['libs-local'], actions: { users: { reader: ['read'] } } },
  });
  const settings = await (await call(`${base}/ui/api/v1/ui/security/settings`, 'GET', json)).json();
  await call(`${base}/ui/api/v1/ui/security/settings`, 'PUT', json, { ...settings, anonymousAccess: true });
  const basic = `Basic ${Buffer.from('reader:Reader-password-1').toString('base64')}`;
  const token = (
    (await (
      await call(
        `${base}/access/api/v1/tokens`,
        'POST',
        { authorization: basic, 'content-type': 'application/json' },
        {
          description: 'bench',
        },
      )
    ).json()) as { access_token: string }
  ).access_token;
  return {
    server,
    modes: [
      ['anonymous', {}],
      ['basic password', { authorization: basic }],
      ['bearer token', { authorization: `Bearer ${token}` }],
    ],
  };
}

installDebianPackages('nginx');
await build();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-reads-'));
for (const [size, bytes] of Object.entries(SIZES)) {
  fs.writeFileSync(path.join(dir, fileName(size as Size)), Buffer.alloc(bytes, 7));
}
const nginxPort = await freePort();
const nginx = await startNginx(dir, nginxPort, path.join(dir, '_nginx'));
const defaultWorkers = String(Math.min(os.availableParallelism(), 8));
const rows: { name: string; figure: Figure; nginx: Figure }[] = [];
try {
  const nginxBest = new Map<Size, Figure>();
  const measureNginx = async (size: Size) => {
    const figure = await load(`http://127.0.0.1:${nginxPort}/${fileName(size)}`, {});
    const best = nginxBest.get(size);
    if (!best || figure.rps > best.rps) nginxBest.set(size, figure);
  };
  for (const workers of ['1', defaultWorkers]) {
    const { server, modes } = await arca(workers);
    try {
      const runs: [string, Size, Record<string, string>][] = [
        ...modes.map(([mode, headers]): [string, Size, Record<string, string>] => [mode, '1 KiB', headers]),
        ['anonymous', '64 KiB', {}],
      ];
      // warm up once, then two rounds alternating with nginx; the better run of each counts
      for (const [, size, headers] of runs) {
        await autocannon({
          url: `${server.url}/artifactory/libs-local/${fileName(size)}`,
          connections: 4,
          amount: 500,
          headers,
        });
      }
      const best = new Map<string, Figure>();
      for (let round = 0; round < 2; round++) {
        for (const size of Object.keys(SIZES) as Size[]) await measureNginx(size);
        for (const [mode, size, headers] of runs) {
          const key = `${mode} ${size}`;
          const figure = await load(`${server.url}/artifactory/libs-local/${fileName(size)}`, headers);
          if (!best.has(key) || figure.rps > best.get(key)!.rps) best.set(key, figure);
        }
      }
      for (const [mode, size] of runs) {
        rows.push({
          name: `Arca ${workers} worker${workers === '1' ? '' : 's'}, ${mode}, ${size}`,
          figure: best.get(`${mode} ${size}`)!,
          nginx: nginxBest.get(size)!,
        });
      }
    } finally {
      await server.stop();
    }
  }
  const pad = (text: string, n: number) => text.padEnd(n);
  console.log(`\nreads: ${CONNECTIONS} connections, ${SECONDS} s per run, best of 2 rounds`);
  for (const [size, figure] of nginxBest) {
    console.log(`  ${pad(`nginx, ${size}`, 44)} ${figure.rps.toFixed(0).padStart(7)} req/s  p99 ${figure.p99} ms`);
  }
  for (const row of rows) {
    console.log(
      `  ${pad(row.name, 44)} ${row.figure.rps.toFixed(0).padStart(7)} req/s  p99 ${row.figure.p99} ms  ${(row.figure.rps / row.nginx.rps).toFixed(3)}× nginx`,
    );
  }
  const one = rows.find((r) => r.name.startsWith('Arca 1 worker, anonymous, 1 KiB'))!;
  const many = rows.find((r) => !r.name.startsWith('Arca 1 worker') && r.name.includes('anonymous, 1 KiB'))!;
  const basic = rows.find((r) => r.name.startsWith('Arca 1 worker, basic password, 1 KiB'))!;
  const bearer = rows.find((r) => r.name.startsWith('Arca 1 worker, bearer token, 1 KiB'))!;
  console.log(
    `  ${defaultWorkers} workers / 1 worker (anonymous, 1 KiB): ${(many.figure.rps / one.figure.rps).toFixed(2)}× (target ≥ 1.4)`,
  );
  console.log(
    `  authenticated / anonymous (1 worker, 1 KiB): basic ${(basic.figure.rps / one.figure.rps).toFixed(2)}, bearer ${(bearer.figure.rps / one.figure.rps).toFixed(2)} (target ≥ 0.9)`,
  );
} finally {
  nginx.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
