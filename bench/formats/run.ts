/**
 * Package clients fetching through Arca beside the same files served statically by nginx (the
 * floor no server beats), for the formats whose clients fetch many small files: Go (`go mod
 * download` of a module requiring 50 published modules), Cargo (`cargo fetch` of a crate
 * depending on 50 published crates) and RubyGems (`bundle install` of a Gemfile naming 50
 * published gems, through the compact index). Each client starts with an empty cache; the two servers
 * alternate, five runs each; anonymous reads on both. Prints the median seconds and Arca/floor.
 * Target: ≤ 1.2× the floor for each.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';
import {
  AUTH,
  build,
  cpuSeconds,
  freePort,
  installDebianPackages,
  median,
  startNginx,
  waitedChildrenCpuSeconds,
} from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { clientHome } from '../../packages/web/e2e/clients/clients.ts';

const COUNT = Number(process.env.BENCH_PACKAGES ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CARGO = [process.env.CARGO_HOME, path.join(os.homedir(), '.cargo')]
  .filter((d): d is string => !!d)
  .map((d) => path.join(d, 'bin/cargo'))
  .find((f) => fs.existsSync(f));
const RUSTUP_HOME = process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup');

function zip(entries: Record<string, string>): Promise<Buffer> {
  const file = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) file.addBuffer(Buffer.from(text), name, { mtime: new Date(0) });
  file.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.outputStream.on('data', (c: Buffer) => chunks.push(c));
    file.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    file.outputStream.on('error', reject);
  });
}

async function crate(name: string, version: string): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry(
    { name: `${name}-${version}/Cargo.toml` },
    `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\ndescription = "bench"\nlicense = "MIT"\n`,
  );
  pack.entry(
    { name: `${name}-${version}/src/lib.rs` },
    `pub fn id() -> &'static str { "${name}" }\n${'// padding\n'.repeat(200)}`,
  );
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

async function send(url: string, method: string, body: Buffer | string, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { authorization: AUTH, ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

/** A file Arca answers, written where nginx serves it. */
async function copy(url: string, file: string) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
}

function timed(run: () => void): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

await build();
installDebianPackages('nginx', 'golang-go', 'ruby', 'ruby-bundler');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-formats-'));
const arca = await startServer({
  ARCA_WORKERS: String(Math.min(os.availableParallelism(), 8)),
  ARCA_LOG_STDOUT: 'false',
});
let nginx: ChildProcess | undefined;
try {
  const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  for (const [key, packageType] of [
    ['go-bench', 'go'],
    ['cargo-bench', 'cargo'],
    ['gems-bench', 'gems'],
  ]) {
    await send(
      `${arca.url}/artifactory/api/repositories/${key}`,
      'PUT',
      JSON.stringify({ rclass: 'local', packageType }),
      json,
    );
  }
  const settings = await (
    await fetch(`${arca.url}/ui/api/v1/ui/security/settings`, { headers: { authorization: AUTH, ...json } })
  ).json();
  await send(
    `${arca.url}/ui/api/v1/ui/security/settings`,
    'PUT',
    JSON.stringify({ ...settings, anonymousAccess: true }),
    json,
  );
  await send(
    `${arca.url}/artifactory/api/v2/security/permissions/bench-anonymous`,
    'PUT',
    JSON.stringify({
      repo: { repositories: ['go-bench', 'cargo-bench', 'gems-bench'], actions: { users: { anonymous: ['read'] } } },
    }),
    json,
  );

  const staticRoot = path.join(work, 'static');
  const staticPort = await freePort();
  const staticUrl = `http://127.0.0.1:${staticPort}`;

  // Go: 50 modules, published as jf go-publish does; the floor holds what the proxy answers for them
  const goApi = `${arca.url}/artifactory/api/go/go-bench`;
  const requires: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const module = `bench.example/mod${i}`;
    const goMod = `module ${module}\n\ngo 1.19\n`;
    const files = {
      'go.mod': goMod,
      [`mod${i}.go`]: `package mod${i}\n\nconst Name = "${module}"\n${'// padding\n'.repeat(200)}`,
    };
    const body = await zip(Object.fromEntries(Object.entries(files).map(([n, t]) => [`${module}@v1.0.0/${n}`, t])));
    await send(`${goApi}/${module}/@v/v1.0.0.zip`, 'PUT', body);
    await send(`${goApi}/${module}/@v/v1.0.0.mod`, 'PUT', goMod);
    await send(
      `${goApi}/${module}/@v/v1.0.0.info`,
      'PUT',
      JSON.stringify({ Version: 'v1.0.0', Time: '2026-01-01T00:00:00Z' }),
    );
    for (const file of ['list', 'v1.0.0.info', 'v1.0.0.mod', 'v1.0.0.zip'])
      await copy(`${goApi}/${module}/@v/${file}`, path.join(staticRoot, 'go', module, '@v', file));
    requires.push(`\t${module} v1.0.0`);
  }
  const goProject = path.join(work, 'go-project');
  fs.mkdirSync(goProject);
  fs.writeFileSync(
    path.join(goProject, 'go.mod'),
    `module bench.example/app\n\ngo 1.19\n\nrequire (\n${requires.join('\n')}\n)\n`,
  );

  // Cargo: 50 crates published with cargo's request; the floor is a sparse index of plain files
  const cargoApi = `${arca.url}/artifactory/api/cargo/cargo-bench`;
  const dependencies: string[] = [];
  fs.mkdirSync(path.join(staticRoot, 'cargo'), { recursive: true });
  fs.writeFileSync(
    path.join(staticRoot, 'cargo', 'config.json'),
    JSON.stringify({ dl: `${staticUrl}/cargo/crates`, api: `${staticUrl}/cargo` }),
  );
  for (let i = 0; i < COUNT; i++) {
    const name = `bench-crate-${i}`;
    const body = await crate(name, '1.0.0');
    const metadata = Buffer.from(JSON.stringify({ name, vers: '1.0.0', deps: [], features: {}, description: 'bench' }));
    const lengths = [Buffer.alloc(4), Buffer.alloc(4)];
    lengths[0]!.writeUInt32LE(metadata.length);
    lengths[1]!.writeUInt32LE(body.length);
    await send(`${cargoApi}/api/v1/crates/new`, 'PUT', Buffer.concat([lengths[0]!, metadata, lengths[1]!, body]));
    const prefix = `${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
    await copy(`${cargoApi}/index/${prefix}`, path.join(staticRoot, 'cargo', prefix));
    await copy(
      `${cargoApi}/v1/crates/${name}/1.0.0/download`,
      path.join(staticRoot, 'cargo', 'crates', name, '1.0.0', 'download'),
    );
    dependencies.push(`${name} = { version = "1.0.0", registry = "bench" }`);
  }
  const cargoProject = path.join(work, 'cargo-project');
  fs.mkdirSync(path.join(cargoProject, 'src'), { recursive: true });
  fs.writeFileSync(
    path.join(cargoProject, 'Cargo.toml'),
    `[package]\nname = "bench-app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${dependencies.join('\n')}\n`,
  );
  fs.writeFileSync(path.join(cargoProject, 'src', 'lib.rs'), '');
  // RubyGems: 50 gems built by RubyGems itself and pushed; the floor holds the compact index and the gems
  const gemsApi = `${arca.url}/artifactory/api/gems/gems-bench`;
  const gemsDir = path.join(work, 'gems');
  fs.mkdirSync(gemsDir);
  execFileSync(
    'ruby',
    [
      '-e',
      `require "rubygems/package"; Dir.chdir(${JSON.stringify(gemsDir)}) { ${COUNT}.times { |i| s = Gem::Specification.new { |g| g.name = "bench_gem_#{i}"; g.version = "1.0.0"; g.summary = "bench"; g.authors = ["bench"]; g.files = []; g.license = "MIT" }; Gem::Package.build(s) } }`,
    ],
    { stdio: 'ignore' },
  );
  const gems: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const file = `bench_gem_${i}-1.0.0.gem`;
    await send(`${gemsApi}/api/v1/gems`, 'POST', fs.readFileSync(path.join(gemsDir, file)));
    gems.push(`gem "bench_gem_${i}", "1.0.0"`);
  }
  for (let i = 0; i < COUNT; i++) {
    await copy(`${gemsApi}/info/bench_gem_${i}`, path.join(staticRoot, 'gems', 'info', `bench_gem_${i}`));
    await copy(
      `${gemsApi}/gems/bench_gem_${i}-1.0.0.gem`,
      path.join(staticRoot, 'gems', 'gems', `bench_gem_${i}-1.0.0.gem`),
    );
    const quick = `quick/Marshal.4.8/bench_gem_${i}-1.0.0.gemspec.rz`;
    await copy(`${gemsApi}/${quick}`, path.join(staticRoot, 'gems', quick));
  }
  for (const file of ['versions', 'names', 'specs.4.8.gz', 'latest_specs.4.8.gz', 'prerelease_specs.4.8.gz'])
    await copy(`${gemsApi}/${file}`, path.join(staticRoot, 'gems', file));
  const gemsProject = path.join(work, 'gems-project');
  fs.mkdirSync(gemsProject);

  nginx = await startNginx(staticRoot, staticPort, path.join(work, 'nginx'));

  const goFetch = (proxy: string) => {
    const { home, env } = clientHome();
    try {
      return timed(() =>
        execFileSync('go', ['mod', 'download'], {
          cwd: goProject,
          stdio: 'pipe',
          env: {
            ...env,
            GOPROXY: proxy,
            GOSUMDB: 'off',
            GOFLAGS: '-mod=mod -modcacherw',
            GOMODCACHE: path.join(home, 'mod'),
            GOCACHE: path.join(home, 'cache'),
            GOPATH: path.join(home, 'go'),
          },
        }),
      );
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(path.join(goProject, 'go.sum'), { force: true });
    }
  };
  const cargoFetch = (index: string) => {
    const { home, env } = clientHome();
    try {
      fs.mkdirSync(path.join(home, 'cargo'));
      fs.writeFileSync(
        path.join(home, 'cargo', 'config.toml'),
        `[registries.bench]\nindex = "sparse+${index}"\n[net]\nretry = 0\n`,
      );
      return timed(() =>
        execFileSync(CARGO!, ['fetch'], {
          cwd: cargoProject,
          stdio: 'pipe',
          env: { ...env, CARGO_HOME: path.join(home, 'cargo'), RUSTUP_HOME },
        }),
      );
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(path.join(cargoProject, 'Cargo.lock'), { force: true });
    }
  };

  const bundleInstall = (source: string) => {
    const { home, env } = clientHome();
    try {
      fs.writeFileSync(path.join(gemsProject, 'Gemfile'), `source "${source}"\n${gems.join('\n')}\n`);
      return timed(() =>
        execFileSync('bundle', ['install', '--quiet'], {
          cwd: gemsProject,
          stdio: 'pipe',
          env: {
            ...env,
            BUNDLE_PATH: path.join(home, 'bundle'),
            BUNDLE_USER_HOME: path.join(home, 'bundle-home'),
            BUNDLE_GEMFILE: path.join(gemsProject, 'Gemfile'),
          },
        }),
      );
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(path.join(gemsProject, 'Gemfile.lock'), { force: true });
    }
  };

  const rows: [string, (url: string) => number, string, string][] = [
    ['Go (go mod download)', goFetch, goApi, `${staticUrl}/go`],
  ];
  if (CARGO) rows.push(['Cargo (cargo fetch)', cargoFetch, `${cargoApi}/index/`, `${staticUrl}/cargo/`]);
  else console.log('Cargo: no rustup cargo on this machine, skipped');
  rows.push(['RubyGems (bundle install)', bundleInstall, `${gemsApi}/`, `${staticUrl}/gems/`]);
  console.log(`${COUNT} packages per client, empty client cache, ${RUNS} runs each, median seconds:`);
  // where a run's time goes: each server's CPU and the client's, and the requests the client made
  const requestsLogged = () =>
    (fs.readdirSync(arca.dataDir, { recursive: true }) as string[])
      .filter((name) => path.basename(name) === 'jfrt-request.log')
      .reduce((sum, name) => sum + fs.readFileSync(path.join(arca.dataDir, name), 'utf8').split('\n').length - 1, 0);
  const measured = (run: () => number, pid: number) => {
    const server = cpuSeconds([pid]);
    const client = waitedChildrenCpuSeconds();
    const seconds = run();
    return { seconds, server: cpuSeconds([pid]) - server, client: waitedChildrenCpuSeconds() - client };
  };
  for (const [label, fetchAll, arcaUrl, floorUrl] of rows) {
    fetchAll(arcaUrl);
    fetchAll(floorUrl);
    const arcaRuns: ReturnType<typeof measured>[] = [];
    const floorRuns: ReturnType<typeof measured>[] = [];
    const logged = requestsLogged();
    for (let run = 0; run < RUNS; run++) {
      arcaRuns.push(measured(() => fetchAll(arcaUrl), arca.process.pid!));
      floorRuns.push(measured(() => fetchAll(floorUrl), nginx!.pid!));
    }
    // the request log is written within 100 ms of each answer
    let requests = 0;
    for (let tries = 0; tries < 50 && (requests = requestsLogged() - logged) % RUNS !== 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const a = median(arcaRuns.map((r) => r.seconds));
    const f = median(floorRuns.map((r) => r.seconds));
    console.log(
      `  ${label}: Arca ${a.toFixed(2)} s, nginx static files ${f.toFixed(2)} s — Arca/floor ${(a / f).toFixed(2)} (target ≤ 1.2)`,
    );
    const per = (runs: ReturnType<typeof measured>[], key: 'server' | 'client') =>
      runs.reduce((sum, r) => sum + r[key], 0) / RUNS;
    const perRequest = requests ? ((per(arcaRuns, 'server') / (requests / RUNS)) * 1000).toFixed(2) : '?';
    console.log(
      `    CPU per run: Arca ${per(arcaRuns, 'server').toFixed(3)} s over ${Math.round(requests / RUNS)} requests (${perRequest} ms each), nginx ${per(floorRuns, 'server').toFixed(3)} s; the client ${per(arcaRuns, 'client').toFixed(3)} s against Arca, ${per(floorRuns, 'client').toFixed(3)} s against nginx`,
    );
  }
} finally {
  nginx?.kill('SIGTERM');
  await arca.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
