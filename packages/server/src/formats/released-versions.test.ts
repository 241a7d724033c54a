import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_MESSAGES, GO_MESSAGES, HELM_MESSAGES, RPM_MESSAGES, formatMessage } from '@arca/contracts';
import { systemContent } from '../features/artifacts/index.js';
import {
  ADMIN_BASIC,
  ENGINES,
  createRepo,
  createUser,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../test/harness.js';
import { zipOf } from '../test/zip.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-released-'));
const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/** A binary package built with dpkg-deb; `flavour` changes its bytes, not its name, version or architecture. */
function buildDeb(name: string, version: string, flavour: string): Buffer {
  const root = fs.mkdtempSync(path.join(work, 'deb-'));
  fs.mkdirSync(path.join(root, 'DEBIAN'));
  fs.mkdirSync(path.join(root, 'usr/share/doc', name), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'DEBIAN/control'),
    `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: QA <qa@acme.test>\nDescription: ${flavour} build\n`,
  );
  fs.writeFileSync(path.join(root, 'usr/share/doc', name, 'flavour'), flavour);
  const file = path.join(work, `${name}-${flavour}.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '--build', root, file], { stdio: 'ignore' });
  return fs.readFileSync(file);
}

/** A noarch package built with rpmbuild; `flavour` changes its bytes only. */
function buildRpm(name: string, version: string, flavour: string): Buffer {
  const top = fs.mkdtempSync(path.join(work, 'rpm-'));
  for (const dir of ['SPECS', 'RPMS', 'BUILD', 'BUILDROOT', 'SOURCES', 'SRPMS']) fs.mkdirSync(path.join(top, dir));
  const spec = path.join(top, 'SPECS', `${name}.spec`);
  fs.writeFileSync(
    spec,
    [
      `Name: ${name}`,
      `Version: ${version}`,
      'Release: 1',
      `Summary: ${flavour} build`,
      'License: MIT',
      'BuildArch: noarch',
      '%description',
      `${flavour} build`,
      '%install',
      `mkdir -p %{buildroot}/usr/share/${name}`,
      `echo ${flavour} > %{buildroot}/usr/share/${name}/flavour`,
      '%files',
      `/usr/share/${name}/flavour`,
      '',
    ].join('\n'),
  );
  execFileSync('rpmbuild', ['--define', `_topdir ${top}`, '--quiet', '-bb', spec], { stdio: 'ignore' });
  return fs.readFileSync(path.join(top, 'RPMS', 'noarch', `${name}-${version}-1.noarch.rpm`));
}

async function chartOf(name: string, version: string, flavour: string): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: `${name}/Chart.yaml` }, `apiVersion: v2\nname: ${name}\nversion: ${version}\n`);
  pack.entry({ name: `${name}/values.yaml` }, `flavour: ${flavour}\n`);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/**
 * "A released version never changes" holds on every way a file enters a Debian, RPM or Helm
 * repository — a copy, a move, a property that places it in an index, a write that skips the
 * deploy checks (as replication's) — and for Go once a version's zip is published.
 */
describe.each(ENGINES)('released versions on %s', (engine) => {
  let t: TestApp;
  const call = (method: 'POST' | 'PUT' | 'GET', url: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({ method, url, headers });

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const type of ['debian', 'rpm', 'helm', 'go']) {
      await createRepo(t.app, `${type}-local`, { rclass: 'local', packageType: type });
      await createRepo(t.app, `${type}-staging`, { rclass: 'local', packageType: type });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Writes a file the way replication does: through the door, without the deploy checks of the repository's address. */
  const writeUnchecked = async (repoKey: string, filePath: string, body: Buffer) => {
    await systemContent(t.app).deploy({
      repoKey,
      path: filePath,
      properties: {},
      body: (await import('node:stream')).Readable.from([body]),
      contentLength: body.length,
      checksums: {},
      checksumDeploy: false,
    });
    await t.app.derivedMetadata.drain();
  };

  it('keeps a released Debian package in its signed index against copies, moves, property changes and unchecked writes', async () => {
    const released = buildDeb('hello', '1.0', 'released');
    const other = buildDeb('hello', '1.0', 'other');
    const at = 'pool/h/hello_1.0_all.deb';
    const dist = ';deb.distribution=stable;deb.component=main';
    expect((await put(t.app, `/artifactory/debian-local/${at}${dist}`, released)).statusCode).toBe(201);
    const index = async () =>
      (await call('GET', '/artifactory/debian-local/dists/stable/main/binary-all/Packages')).body;
    const inRelease = async () => (await call('GET', '/artifactory/debian-local/dists/stable/InRelease')).body;
    const listedBefore = await index();
    expect(listedBefore).toContain(`SHA256: ${sha256(released)}`);
    const signedBefore = await inRelease();
    const refusal = formatMessage(DEBIAN_MESSAGES.republish, {
      name: 'hello',
      version: '1.0',
      architecture: 'all',
      distribution: 'stable',
      component: 'main',
    });

    // the other build, deployed for another distribution, is fine where it is
    expect(
      (
        await put(
          t.app,
          `/artifactory/debian-local/other/hello_1.0_all.deb;deb.distribution=testing;deb.component=main`,
          other,
        )
      ).statusCode,
    ).toBe(201);
    // … but given the released one's distribution, it is refused
    const property = await call(
      'PUT',
      '/artifactory/api/storage/debian-local/other/hello_1.0_all.deb?properties=deb.distribution=stable',
    );
    expect(property.statusCode).toBe(409);
    expect(messages(property)[0]).toBe(refusal);
    // copied or moved in from a staging repository with the released one's distribution: refused
    expect((await put(t.app, `/artifactory/debian-staging/pool/h/hello_1.0_all.deb${dist}`, other)).statusCode).toBe(
      201,
    );
    for (const mode of ['copy', 'move']) {
      const res = await call(
        'POST',
        `/artifactory/api/${mode}/debian-staging/pool/h/hello_1.0_all.deb?to=/debian-local/staged/hello_1.0_all.deb`,
      );
      expect(res.statusCode, mode).toBe(409);
      expect(JSON.stringify(res.json()), mode).toContain(refusal);
    }
    expect((await call('GET', '/artifactory/debian-local/staged/hello_1.0_all.deb')).statusCode).toBe(404);
    // written without the deploy checks: stored, but the index keeps the released entry
    await writeUnchecked('debian-local', 'sneaky/hello_1.0_all.deb', other);
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/storage/debian-local/sneaky/hello_1.0_all.deb?properties=deb.component=main',
      headers: ADMIN_BASIC,
    });
    await writeUnchecked('debian-local', 'pool/h/unrelated.txt', Buffer.from('x'));
    expect(await index()).toBe(listedBefore);
    // the signed Release still vouches for that very index
    const signedAfter = await inRelease();
    expect(signedAfter).toMatch(/^-----BEGIN PGP SIGNED MESSAGE-----/);
    expect(signedAfter).toContain(sha256(Buffer.from(listedBefore)));
    expect(signedBefore).toContain(sha256(Buffer.from(listedBefore)));
  });

  it('lists a released RPM once, whatever is copied in or written unchecked', async () => {
    const released = buildRpm('named', '1.0.0', 'released');
    const other = buildRpm('named', '1.0.0', 'other');
    const file = 'named-1.0.0-1.noarch.rpm';
    expect((await put(t.app, `/artifactory/rpm-local/${file}`, released)).statusCode).toBe(201);
    expect((await put(t.app, `/artifactory/rpm-staging/${file}`, other)).statusCode).toBe(201);
    const copied = await call('POST', `/artifactory/api/copy/rpm-staging/${file}?to=/rpm-local/again/${file}`);
    expect(copied.statusCode).toBe(409);
    expect(JSON.stringify(copied.json())).toContain(
      formatMessage(RPM_MESSAGES.republish, { nevra: 'named-1.0.0-1.noarch' }),
    );
    await writeUnchecked('rpm-local', `sneaky/${file}`, other);
    const list = JSON.parse((await call('GET', '/artifactory/rpm-local/.arca/rpm-packages.json')).body) as {
      packages: { name: string; sha256: string }[];
    };
    expect(list.packages.filter((p) => p.name === 'named')).toEqual([
      expect.objectContaining({ sha256: sha256(released) }),
    ]);
  });

  it('lists a released chart version once, whatever is copied in or written unchecked', async () => {
    const released = await chartOf('web', '1.0.0', 'released');
    const other = await chartOf('web', '1.0.0', 'other');
    expect((await put(t.app, '/artifactory/helm-local/web-1.0.0.tgz', released)).statusCode).toBe(201);
    expect((await put(t.app, '/artifactory/helm-staging/web-1.0.0.tgz', other)).statusCode).toBe(201);
    const copied = await call(
      'POST',
      '/artifactory/api/copy/helm-staging/web-1.0.0.tgz?to=/helm-local/again/web-1.0.0.tgz',
    );
    expect(copied.statusCode).toBe(409);
    expect(JSON.stringify(copied.json())).toContain(
      formatMessage(HELM_MESSAGES.republish, { name: 'web', version: '1.0.0' }),
    );
    await writeUnchecked('helm-local', 'sneaky/web-1.0.0.tgz', other);
    const index = parseYaml((await call('GET', '/artifactory/helm-local/index.yaml')).body) as {
      entries: Record<string, { version: string; digest: string }[]>;
    };
    expect(index.entries.web).toEqual([expect.objectContaining({ version: '1.0.0', digest: sha256(released) })]);
  });

  it("fixes a Go version's .mod and .info once its zip is published; changing them needs the delete permission", async () => {
    const deployer = await createUser(t.app, 'go-deployer');
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/artifactory/api/v2/security/permissions/go-deployers',
          headers: ADMIN_BASIC,
          payload: {
            name: 'go-deployers',
            repo: { repositories: ['go-local'], actions: { users: { 'go-deployer': ['read', 'write'] } } },
          },
        })
      ).statusCode,
    ).toBe(201);
    const base = '/artifactory/api/go/go-local/example.com/old/@v';
    // a module from before go.mod files: Go assumes `module example.com/old`
    const zip = zipOf({ 'example.com/old@v1.0.0/old.go': 'package old' });
    expect((await put(t.app, `${base}/v1.0.0.zip`, zip, deployer)).statusCode).toBe(201);
    // the publication is over (the zip was published an hour ago): its .mod and .info are fixed now
    await t.app.db
      .updateTable('items')
      .set({ created_at: Date.now() - 3_600_000 })
      .where('repo_key', '=', 'go-local')
      .where('path', '=', 'example.com/old/@v/v1.0.0.zip')
      .execute();
    const assumed = (await call('GET', `${base}/v1.0.0.mod`)).body;
    const published = (await call('GET', `${base}/v1.0.0.info`)).json<{ Time: string }>();
    // a second module published now: its .info follows its zip within the publication, from a deployer
    const fresh = zipOf({ 'example.com/new@v1.0.0/new.go': 'package new' });
    const freshBase = '/artifactory/api/go/go-local/example.com/new/@v';
    expect((await put(t.app, `${freshBase}/v1.0.0.zip`, fresh, deployer)).statusCode).toBe(201);
    const freshInfo = JSON.stringify({ Version: 'v1.0.0', Time: '2026-01-02T03:04:05Z' });
    expect((await put(t.app, `${freshBase}/v1.0.0.info`, Buffer.from(freshInfo), deployer)).statusCode).toBe(201);

    const mod = await put(
      t.app,
      `${base}/v1.0.0.mod`,
      Buffer.from('module example.com/old\n\nrequire evil.example/x v1.0.0\n'),
      deployer,
    );
    expect(mod.statusCode).toBe(403);
    expect(mod.body).toContain(
      formatMessage(GO_MESSAGES.fixedByZip, { module: 'example.com/old', version: 'v1.0.0', ext: '.mod' }),
    );
    const info = await put(
      t.app,
      `${base}/v1.0.0.info`,
      Buffer.from(JSON.stringify({ Version: 'v1.0.0', Time: '2001-01-01T00:00:00Z' })),
      deployer,
    );
    expect(info.statusCode).toBe(403);
    expect(info.body).toContain(
      formatMessage(GO_MESSAGES.fixedByZip, { module: 'example.com/old', version: 'v1.0.0', ext: '.info' }),
    );
    expect((await call('GET', `${base}/v1.0.0.mod`)).body).toBe(assumed);
    expect((await call('GET', `${base}/v1.0.0.info`)).json()).toEqual(published);
    // what the zip says already is taken from anyone; a change from someone who may delete
    expect((await put(t.app, `${base}/v1.0.0.mod`, Buffer.from(assumed), deployer)).statusCode).toBe(201);
    expect(
      (
        await put(
          t.app,
          `${base}/v1.0.0.info`,
          Buffer.from(JSON.stringify({ Version: 'v1.0.0', Time: '2001-01-01T00:00:00Z' })),
        )
      ).statusCode,
    ).toBe(201);
  });
});
