import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, formatRepositories, run, restCall } from './clients/clients';

/**
 * Debian repositories proven with apt in a configuration of its own (sources, state, cache,
 * keyring, credentials): packages built with dpkg-deb and deployed with their distribution and
 * component, `apt-get update` verifying the index signed with the key Arca publishes, a package
 * and its dependency from "the Debian mirror" (a second Arca behind a remote repository)
 * resolved and downloaded through a virtual repository; an index altered on disk is refused.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
fs.mkdirSync(path.join(home, 'arca-data'));
const DEV = { user: 'dev', password: 'Dev-password-1' };
const READER = { user: 'reader', password: 'Reader-password-1' };
const ADMIN = { user: 'admin', password: ADMIN_PASSWORD };
const basic = (who: { user: string; password: string }) =>
  `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`;

const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, ADMIN, method, url, body);

/** A binary package built with dpkg-deb, named as Debian names it. */
function buildDeb(name: string, version: string, depends = ''): string {
  const root = fs.mkdtempSync(path.join(home, `${name}-`));
  fs.mkdirSync(path.join(root, 'DEBIAN'));
  fs.mkdirSync(path.join(root, 'usr/share', name), { recursive: true });
  fs.writeFileSync(path.join(root, 'usr/share', name, 'VERSION'), `${version}\n`);
  fs.writeFileSync(
    path.join(root, 'DEBIAN/control'),
    `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: Acme <dev@example.com>\nSection: misc\nPriority: optional\n${depends ? `Depends: ${depends}\n` : ''}Description: ${name} for tests\n The ${name} package.\n`,
  );
  const file = path.join(home, `${name}_${version}_all.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '--build', root, file], { stdio: 'ignore' });
  return file;
}

/** Deploys a package as Artifactory takes it: its distribution, component and architecture as matrix properties. */
function deploy(
  server: RunningServer,
  repo: string,
  file: string,
  who = DEV,
  properties = ';deb.distribution=bookworm;deb.component=main',
) {
  const name = path.basename(file);
  const pool = `pool/main/${name[0]}/${name.split('_')[0]}/${name}`;
  return fetch(`${server.url}/artifactory/${repo}/${pool}${properties}`, {
    method: 'PUT',
    headers: { Authorization: basic(who) },
    body: new Uint8Array(fs.readFileSync(file)),
  });
}

/** apt with everything of its own under `dir`: a source for one repository, its keyring and the credentials. */
async function aptFor(dir: string, server: RunningServer, repo: string, who = DEV) {
  for (const sub of [
    'state/lists/partial',
    'cache/archives/partial',
    'parts',
    'trusted.gpg.d',
    'preferences.d',
    'sources.list.d',
  ]) {
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  }
  fs.writeFileSync(path.join(dir, 'status'), '');
  const key = await fetch(`${server.url}/artifactory/api/gpg/key/public/${repo}`);
  fs.writeFileSync(path.join(dir, 'arca.asc'), await key.text());
  const url = `${server.url}/artifactory/${repo}`;
  fs.writeFileSync(path.join(dir, 'sources.list'), `deb [signed-by=${dir}/arca.asc] ${url} bookworm main\n`);
  fs.writeFileSync(
    path.join(dir, 'auth.conf'),
    `machine ${url.replace(/^http:\/\//, 'http://')} login ${who.user} password ${who.password}\n`,
  );
  fs.chmodSync(path.join(dir, 'auth.conf'), 0o600);
  const options = [
    `Dir::Etc::SourceList=${dir}/sources.list`,
    `Dir::Etc::SourceParts=${dir}/sources.list.d`,
    `Dir::Etc::Parts=${dir}/parts`,
    `Dir::Etc::TrustedParts=${dir}/trusted.gpg.d`,
    `Dir::Etc::Trusted=${dir}/trusted.gpg`,
    `Dir::Etc::PreferencesParts=${dir}/preferences.d`,
    `Dir::Etc::netrc=${dir}/auth.conf`,
    `Dir::State=${dir}/state`,
    `Dir::State::status=${dir}/status`,
    `Dir::Cache=${dir}/cache`,
    'Debug::NoLocking=1',
    'APT::Architecture=amd64',
    'APT::Sandbox::User=root',
    'Acquire::Languages=none',
    'Acquire::Retries=0',
  ].flatMap((o) => ['-o', o]);
  return (...args: string[]) => run('apt-get', [...options, ...args], { cwd: dir, env });
}

beforeAll(async () => {
  upstream = await startServer();
  // a data directory of the test's own: the server is restarted on it
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }, { dataDir: path.join(home, 'arca-data') });
  await call(upstream, 'PUT', '/artifactory/api/repositories/debian-public', {
    rclass: 'local',
    packageType: 'debian',
  });
  await formatRepositories(
    arca,
    { user: 'admin', password: ADMIN_PASSWORD },
    {
      packageType: 'debian',
      upstream: `${upstream.url}/artifactory/debian-public`,
      upstreamAs: { user: 'admin', password: ADMIN_PASSWORD },
      users: [
        { ...DEV, actions: ['read', 'write', 'delete'] },
        { ...READER, actions: ['read'] },
      ],
    },
  );
  // "the Debian mirror": a dependency there
  expect((await deploy(upstream, 'debian-public', buildDeb('up-tool', '2.0.0'), ADMIN)).status).toBe(201);
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('apt against Arca', () => {
  it('updates with the signature verified and resolves and downloads a package and its upstream dependency through the virtual repository', async () => {
    expect((await deploy(arca, 'debian', buildDeb('hello-arca', '1.0.0', 'up-tool (>= 2.0)'))).status).toBe(201);
    const apt = await aptFor(fs.mkdtempSync(path.join(home, 'apt-')), arca, 'debian');
    const update = await apt('update', '--error-on=any');
    expect(update).not.toMatch(/NO_PUBKEY|not signed|W: /);
    const plan = await apt('install', '-s', 'hello-arca');
    expect(plan).toMatch(/Inst up-tool \(2\.0\.0 /);
    expect(plan).toMatch(/Inst hello-arca \(1\.0\.0 /);
    const downloads = fs.mkdtempSync(path.join(home, 'downloads-'));
    await apt('-o', `Dir::Cache::archives=${downloads}`, 'install', '--download-only', '-y', 'hello-arca');
    const fetched = fs
      .readdirSync(downloads)
      .filter((f) => f.endsWith('.deb'))
      .sort();
    expect(fetched).toEqual(['hello-arca_1.0.0_all.deb', 'up-tool_2.0.0_all.deb']);
    expect(
      execFileSync('dpkg-deb', ['-f', path.join(downloads, fetched[0]!), 'Depends'])
        .toString()
        .trim(),
    ).toBe('up-tool (>= 2.0)');
  });

  it('refuses a package whose control file disagrees with its name, one deployed without a distribution, and a version deployed again', async () => {
    const deb = buildDeb('named', '1.0.0');
    const renamed = path.join(home, 'other_1.0.0_all.deb');
    fs.copyFileSync(deb, renamed);
    const wrong = await deploy(arca, 'debian', renamed);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain(
      'holds named 1.0.0 for all: Debian names that file named_1.0.0_all.deb',
    );
    const bare = await deploy(arca, 'debian', deb, DEV, '');
    expect(bare.status).toBe(400);
    expect(await deploy(arca, 'debian', deb)).toHaveProperty('status', 201);
    const changed = buildDeb('named', '1.0.0', 'up-tool');
    const again = await deploy(arca, 'debian', changed);
    expect(again.status).toBe(409);
    const corrupt = path.join(home, 'broken_1.0.0_all.deb');
    fs.writeFileSync(corrupt, 'not an ar archive');
    expect((await deploy(arca, 'debian', corrupt)).status).toBe(400);
  });

  it('lets a reader update but not deploy, and tells an unknown caller nothing', async () => {
    const apt = await aptFor(fs.mkdtempSync(path.join(home, 'apt-reader-')), arca, 'debian', READER);
    await apt('update', '--error-on=any');
    expect((await deploy(arca, 'debian', buildDeb('mine', '1.0.0'), READER)).status).toBe(403);
    const anonymous = await fetch(`${arca.url}/artifactory/debian/dists/bookworm/InRelease`);
    expect(anonymous.status).toBe(401);
  });

  it('verifies with the repository’s own key once it has one, and fails the check when a Packages file is altered on disk', async () => {
    expect((await deploy(arca, 'debian-local', buildDeb('checked', '1.0.0'))).status).toBe(201);
    const dir = fs.mkdtempSync(path.join(home, 'apt-local-'));
    let apt = await aptFor(dir, arca, 'debian-local');
    await apt('update', '--error-on=any');
    // the repository gets a key of its own: the deployment's no longer verifies it, the new one does
    const generated = await call(arca, 'POST', '/artifactory/api/gpg/key/generate/debian-local');
    const fingerprint = ((await generated.json()) as { fingerprint: string }).fingerprint;
    await expect(apt('update', '--error-on=any')).rejects.toThrow(new RegExp(`NO_PUBKEY ${fingerprint.slice(-16)}`));
    apt = await aptFor(dir, arca, 'debian-local');
    await apt('update', '--error-on=any');
    // apt reads the compressed index when there is one: both are altered, each keeping its size
    const blobs: string[] = [];
    for (const file of ['Packages', 'Packages.gz']) {
      const storage = await call(
        arca,
        'GET',
        `/artifactory/api/storage/debian-local/dists/bookworm/main/binary-all/${file}`,
      );
      const sha = ((await storage.json()) as { checksums: { sha256: string } }).checksums.sha256;
      blobs.push(path.join(arca.dataDir, 'filestore', sha.slice(0, 2), sha.slice(2, 4), sha));
    }
    const port = new URL(arca.url).port;
    await arca.stop();
    fs.writeFileSync(blobs[0]!, fs.readFileSync(blobs[0]!, 'utf8').replace('Version: 1.0.0', 'Version: 9.9.9'));
    const gz = fs.readFileSync(blobs[1]!);
    gz[gz.length >> 1] = gz[gz.length >> 1]! ^ 0xff;
    fs.writeFileSync(blobs[1]!, gz);
    arca = await startServer(
      { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ARCA_PORT: port },
      { dataDir: path.join(home, 'arca-data') },
    );
    fs.rmSync(path.join(dir, 'state/lists'), { recursive: true, force: true });
    apt = await aptFor(dir, arca, 'debian-local');
    await expect(apt('update', '--error-on=any')).rejects.toThrow(/Hash Sum mismatch|unexpected size/);
  });
});
