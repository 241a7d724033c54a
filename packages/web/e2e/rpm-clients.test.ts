import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, formatRepositories, run, restCall } from './clients/clients';

/**
 * RPM repositories proven with Debian's dnf in a configuration of its own (`--installroot`, its own
 * repository file and cache), `gpgcheck` and `repo_gpgcheck` on: packages built with rpmbuild and
 * signed with rpmsign by a packager key made in the test, repodata written by Arca and its
 * `repomd.xml` signed with the key Arca publishes; a dependency from "the distribution" (a second
 * Arca behind a remote repository) resolved through a virtual repository.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
const gnupg = path.join(home, 'gnupg');
const DEV = { user: 'dev', password: 'Dev-password-1' };
const READER = { user: 'reader', password: 'Reader-password-1' };
const ADMIN = { user: 'admin', password: ADMIN_PASSWORD };
const basic = (who: { user: string; password: string }) =>
  `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`;
const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, ADMIN, method, url, body);
const toolEnv = { ...env, GNUPGHOME: gnupg };

/** A noarch package built with rpmbuild and signed with the packager's key. */
function buildRpm(name: string, version: string, requires = ''): string {
  const top = fs.mkdtempSync(path.join(home, `rpmbuild-${name}-`));
  const spec = path.join(top, `${name}.spec`);
  fs.writeFileSync(
    spec,
    [
      `Name: ${name}`,
      `Version: ${version}`,
      'Release: 1',
      `Summary: ${name} for tests`,
      'License: MIT',
      'BuildArch: noarch',
      requires ? `Requires: ${requires}` : '',
      '%description',
      `The ${name} package.`,
      '%install',
      `mkdir -p %{buildroot}/usr/share/${name} %{buildroot}/usr/bin`,
      `echo ${version} > %{buildroot}/usr/share/${name}/VERSION`,
      `printf '#!/bin/sh\\necho ${name} ${version}\\n' > %{buildroot}/usr/bin/${name}`,
      '%files',
      `/usr/share/${name}/VERSION`,
      `%attr(0755,root,root) /usr/bin/${name}`,
      '',
    ].join('\n'),
  );
  execFileSync('rpmbuild', ['--define', `_topdir ${top}`, '--quiet', '-bb', spec], { env: toolEnv, stdio: 'ignore' });
  const file = path.join(top, 'RPMS/noarch', `${name}-${version}-1.noarch.rpm`);
  execFileSync(
    'rpmsign',
    [
      '--define',
      '__gpg /usr/bin/gpg',
      '--define',
      '_gpg_name Arca Packager',
      '--define',
      `_gpg_path ${gnupg}`,
      '--addsign',
      file,
    ],
    {
      env: toolEnv,
      stdio: 'ignore',
    },
  );
  return file;
}

const deploy = (server: RunningServer, repo: string, file: string, who = DEV, name = path.basename(file)) =>
  fetch(`${server.url}/artifactory/${repo}/Packages/${name}`, {
    method: 'PUT',
    headers: { Authorization: basic(who) },
    body: new Uint8Array(fs.readFileSync(file)),
  });

/** dnf with everything of its own under `dir`, one repository enabled, both keys trusted. */
async function dnfFor(dir: string, repo: string, who = DEV) {
  for (const sub of ['root', 'repos.d', 'cache']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const key = await fetch(`${arca.url}/artifactory/api/gpg/key/public/${repo}`);
  fs.writeFileSync(path.join(dir, 'arca.asc'), await key.text());
  fs.writeFileSync(
    path.join(dir, 'repos.d', 'arca.repo'),
    [
      '[arca]',
      'name=Arca',
      `baseurl=${arca.url}/artifactory/${repo}`,
      `username=${who.user}`,
      `password=${who.password}`,
      'enabled=1',
      'gpgcheck=1',
      'repo_gpgcheck=1',
      'skip_if_unavailable=False',
      `gpgkey=file://${path.join(home, 'packager.asc')} file://${path.join(dir, 'arca.asc')}`,
      '',
    ].join('\n'),
  );
  const options = [
    `--installroot=${path.join(dir, 'root')}`,
    `--setopt=reposdir=${path.join(dir, 'repos.d')}`,
    `--setopt=cachedir=${path.join(dir, 'cache')}`,
    '--setopt=install_weak_deps=False',
    '--releasever=12',
    '--disablerepo=*',
    '--enablerepo=arca',
    '--assumeyes',
  ];
  return (...args: string[]) => run('dnf', [...options, ...args], { cwd: dir, env: toolEnv });
}

beforeAll(async () => {
  fs.mkdirSync(gnupg, { mode: 0o700 });
  execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'Arca Packager', 'rsa2048', 'sign', 'never'], {
    env: toolEnv,
    stdio: 'ignore',
  });
  fs.writeFileSync(
    path.join(home, 'packager.asc'),
    execFileSync('gpg', ['--armor', '--export', 'Arca Packager'], { env: toolEnv }),
  );
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call(upstream, 'PUT', '/artifactory/api/repositories/rpm-public', { rclass: 'local', packageType: 'rpm' });
  await formatRepositories(
    arca,
    { user: 'admin', password: ADMIN_PASSWORD },
    {
      packageType: 'rpm',
      upstream: `${upstream.url}/artifactory/rpm-public`,
      upstreamAs: { user: 'admin', password: ADMIN_PASSWORD },
      users: [
        { ...DEV, actions: ['read', 'write', 'delete'] },
        { ...READER, actions: ['read'] },
      ],
    },
  );
  expect((await deploy(upstream, 'rpm-public', buildRpm('up-tool', '2.0.0'), ADMIN)).status).toBe(201);
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('dnf against Arca', () => {
  it('resolves, verifies and downloads a signed package and its upstream dependency through the virtual repository', async () => {
    expect((await deploy(arca, 'rpm', buildRpm('hello-arca', '1.0.0', 'up-tool >= 2.0'))).status).toBe(201);
    const dnf = await dnfFor(fs.mkdtempSync(path.join(home, 'dnf-')), 'rpm');
    const requires = await dnf('repoquery', '--requires', 'hello-arca');
    expect(requires).toContain('up-tool >= 2.0');
    expect(await dnf('repoquery', '--whatprovides', '/usr/bin/up-tool')).toContain('up-tool-0:2.0.0-1.noarch');
    const downloads = fs.mkdtempSync(path.join(home, 'downloads-'));
    await dnf('install', '--downloadonly', `--downloaddir=${downloads}`, 'hello-arca');
    expect(
      fs
        .readdirSync(downloads)
        .filter((f) => f.endsWith('.rpm'))
        .sort(),
    ).toEqual(['hello-arca-1.0.0-1.noarch.rpm', 'up-tool-2.0.0-1.noarch.rpm']);
  });

  it('refuses a package named otherwise than its header, a corrupt one and a release deployed again', async () => {
    const file = buildRpm('named', '1.0.0');
    const wrong = await deploy(arca, 'rpm', file, DEV, 'other-1.0.0-1.noarch.rpm');
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain(
      'holds named-1.0.0-1.noarch: rpmbuild names that file named-1.0.0-1.noarch.rpm',
    );
    const corrupt = path.join(home, 'broken-1.0.0-1.noarch.rpm');
    fs.writeFileSync(corrupt, 'not an rpm');
    expect((await deploy(arca, 'rpm', corrupt)).status).toBe(400);
    expect((await deploy(arca, 'rpm', file)).status).toBe(201);
    const again = await deploy(arca, 'rpm', buildRpm('named', '1.0.0', 'up-tool'), DEV, 'named-1.0.0-1.noarch.rpm');
    expect(again.status).toBe(409);
  });

  it('lets a reader resolve but not deploy, turns away an unknown caller, and refuses repodata signed with a key it does not trust', async () => {
    expect((await deploy(arca, 'rpm-local', buildRpm('checked', '1.0.0'))).status).toBe(201);
    expect((await deploy(arca, 'rpm', buildRpm('mine', '1.0.0'), READER)).status).toBe(403);
    expect((await fetch(`${arca.url}/artifactory/rpm/repodata/repomd.xml`)).status).toBe(401);
    const dir = fs.mkdtempSync(path.join(home, 'dnf-reader-'));
    const dnf = await dnfFor(dir, 'rpm-local', READER);
    expect(await dnf('repoquery', 'checked')).toContain('checked-0:1.0.0-1.noarch');
    // the repository gets a key of its own: the trusted one no longer verifies its repomd.xml
    await call(arca, 'POST', '/artifactory/api/gpg/key/generate/rpm-local');
    await expect(dnf('--refresh', 'repoquery', 'checked')).rejects.toThrow(
      /repomd\.xml GPG signature verification error/,
    );
  });
});
