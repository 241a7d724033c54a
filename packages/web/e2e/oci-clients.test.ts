import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  openCataloguedPackage,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';
import { clientHome, restCall, run } from './clients/clients';
import { writeOciLayout } from './clients/oci-layout';
import { freePort } from '../../server/src/test/free-port.js';

/**
 * The container registry proven with skopeo (Debian's): a multi-architecture image index and a
 * Docker v2 image copied into Arca and back out, byte-identical by digest, through the token flow
 * with a password and with an access token; a remote repository proxying Debian's
 * `docker-registry` (the CNCF distribution registry); the image on the Packages pages.
 */
let arca: RunningServer;
let registry: ChildProcess;
let registryPort: number;
const { home, env } = clientHome();
const layout = path.join(home, 'layout');
let built: { index: string; manifests: string[] };

const call = (method: string, url: string, body?: unknown) =>
  restCall(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
const host = () => arca.url.replace('http://', '');
const skopeo = (...args: string[]) => run('skopeo', args, { cwd: home, env });
/** `skopeo copy` of every architecture, digests kept, from or to plain-HTTP registries. */
const copyAll = (...args: string[]) =>
  skopeo(
    'copy',
    '--multi-arch',
    'all',
    '--preserve-digests',
    '--src-tls-verify=false',
    '--dest-tls-verify=false',
    ...args,
  );
const sha256 = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

async function startRegistry(): Promise<ChildProcess> {
  registryPort = await freePort();
  const dir = path.join(home, 'registry');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'config.yml'),
    `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${dir}/data\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:${registryPort}\n`,
  );
  const child = spawn('/usr/bin/docker-registry', ['serve', path.join(dir, 'config.yml')], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${registryPort}/v2/`)).ok) return child;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('docker-registry did not start');
}

/** The digest of the top manifest of an OCI layout skopeo wrote. */
const layoutDigest = (dir: string) =>
  (JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as { manifests: { digest: string }[] })
    .manifests[0]!.digest;

beforeAll(async () => {
  registry = await startRegistry();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call('PUT', '/artifactory/api/repositories/docker-local', { rclass: 'local', packageType: 'docker' });
  await call('PUT', '/artifactory/api/repositories/docker-remote', {
    rclass: 'remote',
    packageType: 'docker',
    url: `http://127.0.0.1:${registryPort}/`,
  });
  await call('PUT', '/artifactory/api/repositories/docker', {
    rclass: 'virtual',
    packageType: 'docker',
    repositories: ['docker-local', 'docker-remote'],
    defaultDeploymentRepo: 'docker-local',
  });
  built = await writeOciLayout(layout, '1.0', [
    {
      platform: { architecture: 'amd64', os: 'linux' },
      layers: [{ 'etc/hello': 'hello from amd64\n' }, { 'usr/share/doc/readme': 'x'.repeat(200_000) }],
    },
    { platform: { architecture: 'arm64', os: 'linux' }, layers: [{ 'etc/hello': 'hello from arm64\n' }] },
  ]);
});

afterAll(async () => {
  registry?.kill('SIGTERM');
  await arca?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('skopeo against Arca', () => {
  it('copies a multi-architecture index in and out, byte-identical by digest, after logging in with a password', async () => {
    // `login` runs the token flow as docker login does: /v2/ → 401 Bearer → the token endpoint
    const authfile = path.join(home, 'auth.json');
    const wrong = skopeo('login', '--tls-verify=false', '--authfile', authfile, '-u', 'admin', '-p', 'wrong', host());
    await expect(wrong).rejects.toThrow(/401|unauthorized|invalid username\/password/i);
    expect(
      await skopeo('login', '--tls-verify=false', '--authfile', authfile, '-u', 'admin', '-p', ADMIN_PASSWORD, host()),
    ).toContain('Login Succeeded');
    await copyAll('--dest-authfile', authfile, `oci:${layout}:1.0`, `docker://${host()}/docker/team/app:1.0`);
    // it landed in the virtual repository's deployment repository, stored once per blob
    const raw = await skopeo(
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      `admin:${ADMIN_PASSWORD}`,
      `docker://${host()}/docker-local/team/app:1.0`,
    );
    expect(sha256(raw)).toBe(built.index);

    const out = path.join(home, 'out-index');
    await copyAll('--src-creds', `admin:${ADMIN_PASSWORD}`, `docker://${host()}/docker/team/app:1.0`, `oci:${out}:1.0`);
    expect(layoutDigest(out)).toBe(built.index);
    for (const manifest of built.manifests) {
      expect(fs.existsSync(path.join(out, 'blobs/sha256', manifest.slice(7)))).toBe(true);
    }
  });

  it('pushes a Docker v2 image and pulls it back with an access token, same digest', async () => {
    const token = (
      (await (await call('POST', '/access/api/v1/tokens', { description: 'ci' })).json()) as {
        access_token: string;
      }
    ).access_token;
    await skopeo(
      'copy',
      '--format',
      'v2s2',
      '--dest-tls-verify=false',
      '--dest-creds',
      `admin:${token}`,
      `oci:${layout}:1.0`,
      `docker://${host()}/docker-local/team/tool:2.0`,
    );
    const raw = await skopeo(
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      `admin:${token}`,
      `docker://${host()}/docker-local/team/tool:2.0`,
    );
    expect(JSON.parse(raw).mediaType).toBe('application/vnd.docker.distribution.manifest.v2+json');
    const out = path.join(home, 'out-docker');
    await skopeo(
      'copy',
      '--preserve-digests',
      '--src-tls-verify=false',
      '--src-creds',
      `admin:${token}`,
      `docker://${host()}/docker-local/team/tool:2.0`,
      `dir:${out}`,
    );
    expect(sha256(fs.readFileSync(path.join(out, 'manifest.json')))).toBe(sha256(raw));
    const tags = JSON.parse(
      await skopeo(
        'list-tags',
        '--tls-verify=false',
        '--creds',
        `admin:${token}`,
        `docker://${host()}/docker-local/team/tool`,
      ),
    ) as { Tags: string[] };
    expect(tags.Tags).toEqual(['2.0']);
  });

  it('pulls through a remote repository that proxies the distribution registry, and caches what it fetched', async () => {
    await copyAll(`oci:${layout}:1.0`, `docker://127.0.0.1:${registryPort}/upstream/base:1.0`);
    const out = path.join(home, 'out-remote');
    await copyAll(
      '--src-creds',
      `admin:${ADMIN_PASSWORD}`,
      `docker://${host()}/docker-remote/upstream/base:1.0`,
      `oci:${out}:1.0`,
    );
    expect(layoutDigest(out)).toBe(built.index);
    const cached = (await (
      await call('GET', '/artifactory/api/storage/docker-remote/upstream/base?list&deep=1')
    ).json()) as { files: { uri: string }[] };
    expect(cached.files.map((f) => f.uri)).toContain('/1.0/manifest.json');
    expect(cached.files.filter((f) => f.uri.startsWith('/.blobs/')).length).toBeGreaterThanOrEqual(4);

    // the tags the upstream has, also one never pulled through Arca
    await copyAll(`oci:${layout}:1.0`, `docker://127.0.0.1:${registryPort}/upstream/base:2.0`);
    const listed = await skopeo(
      'list-tags',
      '--tls-verify=false',
      '--creds',
      `admin:${ADMIN_PASSWORD}`,
      `docker://${host()}/docker-remote/upstream/base`,
    );
    expect((JSON.parse(listed.slice(listed.indexOf('{'))) as { Tags: string[] }).Tags).toEqual(['1.0', '2.0']);
  });

  it('shows the pushed image on the Packages pages with its tags and layers', async () => {
    const { browser, close } = await launchBrowser();
    try {
      const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
        viewport: { width: 1400, height: 900 },
      });
      const versions = await openCataloguedPackage(page, arca.url, 'team/app');
      expect(await versions.allTextContents()).toEqual(['1.0']);
      // the package page pulls by registry host and repository too, and says which tag is newest
      await expect
        .poll(() => page.getByLabel('Install command').first().textContent())
        .toContain(`docker pull ${host()}/docker-local/team/app:1.0`);
      await page.getByText('Newest tag: 1.0').waitFor();
      await versions.first().click();
      await page.getByRole('heading', { level: 1, name: 'team/app 1.0' }).waitFor();
      expect(await page.getByLabel('Install command').textContent()).toContain(
        `docker pull ${host()}/docker-local/team/app:1.0`,
      );
      await page.getByText('Layers (2)').waitFor();
      await page.getByText('linux/amd64').first().waitFor();
      await page.getByText('linux/arm64').first().waitFor();
      await screenshot(page, 'docker-version');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
