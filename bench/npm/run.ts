/**
 * npm installs against Arca and Verdaccio 6.8.0, both fresh on loopback and loaded with the same
 * 300 generated packages (two versions each, each depending on up to three earlier ones). In
 * alternation, `npm install` of a project depending on all of them with an empty npm cache, five
 * times per mode: anonymous reads, a token, basic credentials. Prints the median seconds, the
 * ratio Arca/Verdaccio and Arca's authenticated/anonymous ratio, then abbreviated packument
 * requests per second under autocannon for both.
 * A third, anonymous-only row is the floor no registry can beat: nginx serving Arca's own
 * abbreviated packuments and tarballs as static files, so the figure left is npm's own work.
 * Targets: install ratio ≤ 0.7 in each mode; packuments ≥ 1.5× Verdaccio; authenticated within
 * 1.2× of anonymous on Arca.
 * With `BENCH_BEFORE=<an earlier checkout, built>` it runs that build beside this one instead of
 * Verdaccio, both loaded alike and taking turns: the before/after of a change in one run.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { AUTH, ROOT, build, freePort, installDebianPackages, median, startNginx } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { clientHome } from '../../packages/web/e2e/clients/clients.ts';
import { publishBody } from '../../packages/server/src/test/npm.ts';

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 300);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const USER = 'bench';
const PASSWORD = 'Bench-password-1';

/** Package i depends on up to three earlier packages, picked by a fixed pseudo-random sequence. */
function dependenciesOf(i: number): Record<string, string> {
  let seed = (i + 1) * 2654435761;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const deps: Record<string, string> = {};
  if (i === 0) return deps;
  const count = Math.floor(next() * 4);
  for (let k = 0; k < count; k++) deps[`bench-pkg-${Math.floor(next() * i)}`] = '^1.0.0';
  return deps;
}

async function publishAll(registry: string, authorization: string): Promise<void> {
  const queue = Array.from({ length: PACKAGES }, (_, i) => i);
  const worker = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      for (const version of ['1.0.0', '1.1.0']) {
        const name = `bench-pkg-${i}`;
        const { body } = await publishBody(name, version, {
          manifest: {
            dependencies: dependenciesOf(i),
            description: `Package ${i}`,
            keywords: ['bench'],
            readme: `# ${name}\n`,
          },
        });
        const res = await fetch(`${registry}${name}`, {
          method: 'PUT',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`publish ${name}@${version} to ${registry}: ${res.status} ${await res.text()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

async function startVerdaccio(dir: string, port: number): Promise<ChildProcess> {
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    [
      `storage: ${path.join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(dir, 'htpasswd')}`,
      '    max_users: 100',
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'web:',
      '  enable: false',
      'max_body_size: 100mb',
      'log: { type: stdout, format: pretty, level: error }',
    ].join('\n'),
  );
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/verdaccio/bin/verdaccio'),
      '--config',
      path.join(dir, 'config.yaml'),
      '--listen',
      `127.0.0.1:${port}`,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/-/ping`)).ok) return child;
    } catch {
      // not yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Verdaccio did not start:\n${out}`);
}

/** The token a registry issues at `npm login` (the legacy CouchDB call both speak). */
async function login(registry: string): Promise<string> {
  const res = await fetch(`${registry}-/user/org.couchdb.user:${USER}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      _id: `org.couchdb.user:${USER}`,
      name: USER,
      password: PASSWORD,
      type: 'user',
      roles: [],
      date: new Date().toISOString(),
    }),
  });
  if (!res.ok) throw new Error(`login at ${registry}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

type Mode = 'anonymous' | 'token' | 'basic';

function installOnce(registry: string, mode: Mode, token: string): number {
  const { home, env } = clientHome();
  try {
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    const dependencies = Object.fromEntries(Array.from({ length: PACKAGES }, (_, i) => [`bench-pkg-${i}`, '^1.0.0']));
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'bench-project', version: '1.0.0', private: true, dependencies }),
    );
    const host = registry.replace(/^https?:/, '');
    const auth =
      mode === 'token'
        ? `${host}:_authToken=${token}\n`
        : mode === 'basic'
          ? `${host}:_auth=${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}\n`
          : '';
    fs.writeFileSync(path.join(home, '.npmrc'), `registry=${registry}\n${auth}`);
    const started = process.hrtime.bigint();
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: project,
      env,
      stdio: 'pipe',
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const installed = fs.readdirSync(path.join(project, 'node_modules')).filter((n) => n.startsWith('bench-pkg-'));
    if (installed.length !== PACKAGES)
      throw new Error(`${registry}: ${installed.length} of ${PACKAGES} packages installed`);
    return seconds;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** Arca's abbreviated packuments and their tarballs as plain files, tarball URLs pointing at `base`. */
async function staticCopy(registry: string, dir: string, base: string): Promise<void> {
  fs.mkdirSync(path.join(dir, 'tarballs'), { recursive: true });
  for (let i = 0; i < PACKAGES; i++) {
    const name = `bench-pkg-${i}`;
    const res = await fetch(`${registry}${name}`, { headers: { accept: 'application/vnd.npm.install-v1+json' } });
    const packument = (await res.json()) as { versions: Record<string, { dist: { tarball: string } }> };
    for (const version of Object.values(packument.versions)) {
      const file = path.basename(new URL(version.dist.tarball).pathname);
      fs.writeFileSync(
        path.join(dir, 'tarballs', file),
        Buffer.from(await (await fetch(version.dist.tarball)).arrayBuffer()),
      );
      version.dist.tarball = `${base}tarballs/${file}`;
    }
    fs.writeFileSync(path.join(dir, name), JSON.stringify(packument));
  }
}

async function packumentsPerSecond(url: string, headers: Record<string, string>) {
  const result = await autocannon({
    url,
    connections: 16,
    duration: SECONDS,
    headers: { accept: 'application/vnd.npm.install-v1+json', ...headers },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

type Registry = { label: string; registry: string; token: string; modes: Mode[] };

/** The bench repository, user and permission on a fresh Arca, anonymous reads on, the packages published. */
async function loadArca(url: string): Promise<{ registry: string; token: string; seconds: number }> {
  const registry = `${url}/artifactory/api/npm/npm-local/`;
  const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const call = async (method: string, call: string, body: unknown) => {
    const res = await fetch(`${url}${call}`, { method, headers: json, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${call}: ${res.status} ${await res.text()}`);
  };
  await call('PUT', '/artifactory/api/repositories/npm-local', { rclass: 'local', packageType: 'npm' });
  await call('PUT', `/artifactory/api/security/users/${USER}`, { email: 'bench@example.com', password: PASSWORD });
  await call('PUT', '/artifactory/api/v2/security/permissions/bench', {
    repo: { repositories: ['npm-local'], actions: { users: { [USER]: ['read', 'write'] } } },
  });
  const settings = await (await fetch(`${url}/ui/api/v1/ui/security/settings`, { headers: json })).json();
  await call('PUT', '/ui/api/v1/ui/security/settings', { ...settings, anonymousAccess: true });
  const token = await login(registry);
  const started = Date.now();
  await publishAll(registry, `Bearer ${token}`);
  return { registry, token, seconds: (Date.now() - started) / 1000 };
}

/** `RUNS` installs per registry and mode, the registries taking turns; seconds by `label mode`. */
async function installInTurns(registries: Registry[]): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = {};
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ['anonymous', 'token', 'basic'] as const) {
      for (const { label, registry, token, modes } of registries) {
        if (!modes.includes(mode)) continue;
        (times[`${label} ${mode}`] ??= []).push(installOnce(registry, mode, token));
        // a registry still busy after a slow run must not slow the next one down
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  }
  return times;
}

const ALL_MODES: Mode[] = ['anonymous', 'token', 'basic'];

/** Arca against Verdaccio, with nginx serving Arca's answers as files for the floor. */
async function againstVerdaccio(): Promise<void> {
  installDebianPackages('nginx');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-npm-'));
  const verdaccioPort = await freePort();
  const verdaccio = await startVerdaccio(work, verdaccioPort);
  let nginx: ChildProcess | undefined;
  const arca = await startServer({
    ARCA_WORKERS: String(Math.min(os.availableParallelism(), 8)),
    ARCA_LOG_STDOUT: 'false',
  });
  try {
    const verdaccioRegistry = `http://127.0.0.1:${verdaccioPort}/`;
    const loaded = await loadArca(arca.url);
    const arcaRegistry = loaded.registry;
    const tokens = { arca: loaded.token, verdaccio: await login(verdaccioRegistry) };
    const verdaccioStarted = Date.now();
    await publishAll(verdaccioRegistry, `Bearer ${tokens.verdaccio}`);
    const verdaccioLoad = (Date.now() - verdaccioStarted) / 1000;
    console.log(
      `\nnpm: ${PACKAGES} packages × 2 versions published in ${loaded.seconds.toFixed(1)} s to Arca, ${verdaccioLoad.toFixed(1)} s to Verdaccio`,
    );

    const staticPort = await freePort();
    const staticRegistry = `http://127.0.0.1:${staticPort}/`;
    await staticCopy(arcaRegistry, path.join(work, 'static'), staticRegistry);
    nginx = await startNginx(path.join(work, 'static'), staticPort, path.join(work, 'nginx'));

    const times = await installInTurns([
      { label: 'Arca', registry: arcaRegistry, token: tokens.arca, modes: ALL_MODES },
      { label: 'Verdaccio', registry: verdaccioRegistry, token: tokens.verdaccio, modes: ALL_MODES },
      { label: 'static files', registry: staticRegistry, token: '', modes: ['anonymous'] },
    ]);
    console.log(`npm install of ${PACKAGES} packages, empty cache, median of ${RUNS} (alternating):`);
    for (const mode of ALL_MODES) {
      const a = median(times[`Arca ${mode}`]!);
      const v = median(times[`Verdaccio ${mode}`]!);
      console.log(
        `  ${mode.padEnd(10)} Arca ${a.toFixed(2)} s   Verdaccio ${v.toFixed(2)} s   ratio ${(a / v).toFixed(2)} (target ≤ 0.7)`,
      );
    }
    const floor = median(times['static files anonymous']!);
    console.log(
      `  floor: nginx serving the same answers as files ${floor.toFixed(2)} s (${(floor / median(times['Verdaccio anonymous']!)).toFixed(2)} of Verdaccio anonymous; Arca is ${(median(times['Arca anonymous']!) / floor).toFixed(2)}× the floor)`,
    );
    const anonymous = median(times['Arca anonymous']!);
    console.log(
      `  Arca authenticated / anonymous: token ${(median(times['Arca token']!) / anonymous).toFixed(2)}, basic ${(median(times['Arca basic']!) / anonymous).toFixed(2)} (target ≤ 1.2)`,
    );

    const name = `bench-pkg-${Math.floor(PACKAGES / 2)}`;
    const rows: [string, { rps: number; p99: number }][] = [];
    for (let round = 0; round < 2; round++) {
      rows.push(['Verdaccio anonymous', await packumentsPerSecond(`${verdaccioRegistry}${name}`, {})]);
      rows.push(['Arca anonymous', await packumentsPerSecond(`${arcaRegistry}${name}`, {})]);
      rows.push([
        'Arca token',
        await packumentsPerSecond(`${arcaRegistry}${name}`, { authorization: `Bearer ${tokens.arca}` }),
      ]);
    }
    const best = (label: string) => Math.max(...rows.filter(([l]) => l === label).map(([, f]) => f.rps));
    console.log(`abbreviated packument of ${name}, autocannon 16 connections, ${SECONDS} s, best of 2:`);
    for (const label of ['Verdaccio anonymous', 'Arca anonymous', 'Arca token']) {
      const p99 = Math.min(...rows.filter(([l]) => l === label).map(([, f]) => f.p99));
      console.log(`  ${label.padEnd(20)} ${best(label).toFixed(0).padStart(6)} req/s  p99 ${p99} ms`);
    }
    console.log(
      `  Arca / Verdaccio: ${(best('Arca anonymous') / best('Verdaccio anonymous')).toFixed(2)}× (target ≥ 1.5)`,
    );
  } finally {
    verdaccio.kill('SIGTERM');
    nginx?.kill('SIGTERM');
    await arca.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * This checkout against an earlier one (`BENCH_BEFORE`, built with `npm run build`), both fresh
 * and loaded alike, taking turns in one run: whether a change made installs or packuments slower.
 */
async function againstBefore(before: string): Promise<void> {
  const env = { ARCA_WORKERS: String(Math.min(os.availableParallelism(), 8)), ARCA_LOG_STDOUT: 'false' };
  const servers = { after: await startServer(env), before: await startServer(env, { root: path.resolve(before) }) };
  try {
    const after = await loadArca(servers.after.url);
    const earlier = await loadArca(servers.before.url);
    console.log(
      `\nnpm: ${PACKAGES} packages × 2 versions published in ${earlier.seconds.toFixed(1)} s before, ${after.seconds.toFixed(1)} s after`,
    );
    const times = await installInTurns([
      { label: 'before', registry: earlier.registry, token: earlier.token, modes: ALL_MODES },
      { label: 'after', registry: after.registry, token: after.token, modes: ALL_MODES },
    ]);
    console.log(
      `npm install of ${PACKAGES} packages, empty cache, median of ${RUNS} (alternating; every run in seconds):`,
    );
    for (const mode of ALL_MODES) {
      const [b, a] = [times[`before ${mode}`]!, times[`after ${mode}`]!];
      const runs = (values: number[]) => values.map((v) => v.toFixed(1)).join(' ');
      console.log(
        `  ${mode.padEnd(10)} before ${median(b).toFixed(2)} s   after ${median(a).toFixed(2)} s   after/before ${(median(a) / median(b)).toFixed(2)}   (before: ${runs(b)}; after: ${runs(a)})`,
      );
    }
    const name = `bench-pkg-${Math.floor(PACKAGES / 2)}`;
    console.log(`abbreviated packument of ${name}, autocannon 16 connections, ${SECONDS} s, best of 2:`);
    for (const [mode, headers] of [
      ['anonymous', () => ({})],
      ['token', (token: string) => ({ authorization: `Bearer ${token}` })],
    ] as const) {
      const rps = { before: 0, after: 0 };
      for (let round = 0; round < 2; round++) {
        rps.before = Math.max(
          rps.before,
          (await packumentsPerSecond(`${earlier.registry}${name}`, headers(earlier.token))).rps,
        );
        rps.after = Math.max(
          rps.after,
          (await packumentsPerSecond(`${after.registry}${name}`, headers(after.token))).rps,
        );
      }
      console.log(
        `  ${mode.padEnd(10)} before ${rps.before.toFixed(0)} req/s   after ${rps.after.toFixed(0)} req/s   after/before ${(rps.after / rps.before).toFixed(2)}`,
      );
    }
  } finally {
    await servers.after.stop();
    await servers.before.stop();
  }
}

await build();
const before = process.env.BENCH_BEFORE;
if (before) await againstBefore(before);
else await againstVerdaccio();
