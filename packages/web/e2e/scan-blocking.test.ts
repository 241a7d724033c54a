import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, restCall, run } from './clients/clients';
import { writeOciLayout } from './clients/oci-layout';
import { publishBody } from '../../server/src/test/npm';
import { zipEntries } from '../../server/src/test/zip';

/**
 * Download blocking proven with the real clients: a watch applies a policy that blocks High
 * vulnerabilities to the npm, PyPI and Maven repositories; advisories in the OSV format (written
 * here) name one version of a package of each; npm install, pip install and mvn then fail with
 * the message naming the advisory, the fixed versions install, and an ignore rule lets the
 * vulnerable ones through. An image is matched by the Debian packages its layers install: skopeo
 * cannot pull the tag whose OpenSSL a Debian advisory names, and pulls the one whose layer upgraded it.
 */
let arca: RunningServer;
const { home, env } = clientHome();
const DEV = { user: 'dev', password: 'Dev-password-1' };
const venv = path.join(home, 'venv');
const layout = path.join(home, 'layout');
const host = () => arca.url.replace('http://', '');
const skopeo = (...args: string[]) => run('skopeo', args, { cwd: home, env });
/** skopeo copy of a tag of the image out of Arca, as dev. */
const pull = (tag: string) =>
  skopeo(
    'copy',
    '--src-tls-verify=false',
    '--src-creds',
    `${DEV.user}:${DEV.password}`,
    `docker://${host()}/docker-local/web/app:${tag}`,
    `oci:${path.join(home, `pulled-${tag}`)}:${tag}`,
  );

const admin = (method: string, url: string, body?: unknown) =>
  restCall(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
const withDev = (url: string) => url.replace('http://', `http://${DEV.user}:${DEV.password}@`);

const advisory = (id: string, cve: string, ecosystem: string, name: string, fixed: string) => ({
  schema_version: '1.6.0',
  id,
  modified: '2026-05-01T00:00:00Z',
  published: '2026-05-01T00:00:00Z',
  aliases: [cve],
  summary: `Remote code execution in ${name}`,
  details: 'Crafted input runs code.',
  affected: [
    {
      package: { ecosystem, name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }],
    },
  ],
  database_specific: { severity: 'CRITICAL' },
});
const ADVISORIES = [
  advisory('GHSA-npm0-0001-0001', 'CVE-2026-4001', 'npm', 'left-parse', '1.0.1'),
  advisory('PYSEC-2026-4002', 'CVE-2026-4002', 'PyPI', 'yaml-lite', '1.0.1'),
  advisory('GHSA-mvn0-0001-0001', 'CVE-2026-4003', 'Maven', 'org.acme:xml-lib', '1.0.1'),
  // Debian's advisories name the source package and the release
  advisory('DSA-5999-1', 'CVE-2026-4004', 'Debian:12', 'openssl', '3.0.13-1~deb12u1'),
  // Alpine's name the origin package; in apk's order r9 comes before r10
  advisory('ALPINE-CVE-2026-4005', 'CVE-2026-4005', 'Alpine:v3.20', 'busybox', '1.36.1-r10'),
  // Rocky Linux's name the source package and the major release; the epoch counts
  advisory('RLSA-2026:4006', 'CVE-2026-4006', 'Rocky Linux:9', 'openssl', '1:3.0.7-25.el9'),
];

/** dpkg's status file of an image with these packages installed: [package, source, version]. */
const dpkgStatus = (packages: [string, string, string][]) =>
  packages
    .map(
      ([name, source, version]) =>
        `Package: ${name}\nStatus: install ok installed\nPriority: optional\nArchitecture: amd64\n${source === name ? '' : `Source: ${source}\n`}Version: ${version}\nDescription: ${name}\n`,
    )
    .join('\n');
/** apk's installed database of an image with these packages: [package, origin, version]. */
const apkInstalled = (packages: [string, string, string][]) =>
  packages
    .map(
      ([name, origin, version]) =>
        `C:Q1${'A'.repeat(27)}=\nP:${name}\nV:${version}\nA:x86_64\no:${origin}\nL:GPL-2.0-only\n`,
    )
    .join('\n');
/**
 * rpm's database (`rpmdb.sqlite`) of a system with OpenSSL's libraries installed from the source
 * package `openssl`: made by rpmbuild and rpm themselves.
 */
function rpmdbWithOpenssl(): Buffer {
  const top = fs.mkdtempSync(path.join(home, 'rpmbuild-'));
  const spec = path.join(top, 'openssl.spec');
  fs.writeFileSync(
    spec,
    [
      'Name: openssl',
      'Epoch: 1',
      'Version: 3.0.7',
      'Release: 24.el9',
      'Summary: OpenSSL for tests',
      'License: Apache-2.0',
      'BuildArch: noarch',
      '%description',
      'OpenSSL for tests.',
      '%package libs',
      'Summary: Its libraries',
      '%description libs',
      'Its libraries.',
      '%files libs',
      '',
    ].join('\n'),
  );
  execFileSync('rpmbuild', ['--define', `_topdir ${top}`, '--quiet', '-bb', spec], { env, stdio: 'ignore' });
  const db = path.join(top, 'db');
  execFileSync('rpm', ['--dbpath', db, '--initdb'], { env, stdio: 'ignore' });
  execFileSync(
    'rpm',
    [
      '--dbpath',
      db,
      '-i',
      '--justdb',
      '--nodeps',
      '--noscripts',
      path.join(top, 'RPMS/noarch/openssl-libs-3.0.7-24.el9.noarch.rpm'),
    ],
    { env, stdio: 'ignore' },
  );
  return fs.readFileSync(path.join(db, 'rpmdb.sqlite'));
}
const ROCKY = 'NAME="Rocky Linux"\nVERSION="9.3 (Blue Onyx)"\nID="rocky"\nVERSION_ID="9.3"\n';
const ALPINE = 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.20.3\nPRETTY_NAME="Alpine Linux v3.20"\n';
const BOOKWORM = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n';
const blockedBy = (name: string, id: string) =>
  new RegExp(
    `Download of ${name.replace(/[.]/g, '\\.')}@1\\.0\\.0 blocked by policy 'no-critical' of watch 'shipping': ${id}`,
  );

/** The CycloneDX document of an image tag's SBOM, as the export answers it. */
async function cycloneDxOf(manifest: string) {
  const exported = await admin('POST', '/xray/api/v1/component/exportDetails', { path: manifest, cyclonedx: true });
  const [document] = Object.values(await zipEntries(Buffer.from(await exported.arrayBuffer())));
  return JSON.parse(document!) as {
    metadata: { component: { type: string; name: string } };
    components: { purl: string }[];
    vulnerabilities: { id: string; affects: { ref: string }[] }[];
  };
}

/** npm install of one package into a fresh project, from the local npm repository. */
async function npmInstall(spec: string): Promise<string> {
  const project = fs.mkdtempSync(path.join(home, 'npm-'));
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true }),
  );
  const registry = `${arca.url}/artifactory/api/npm/npm-local/`;
  const auth = Buffer.from(`${DEV.user}:${DEV.password}`).toString('base64');
  fs.writeFileSync(
    path.join(project, '.npmrc'),
    `registry=${registry}\n${registry.replace(/^http:/, '')}:_auth=${auth}\n`,
  );
  return run('npm', ['install', '--no-audit', '--no-fund', spec], { cwd: project, env });
}

const pip = (...args: string[]) =>
  run(
    path.join(venv, 'bin/pip'),
    [
      ...args,
      '--index-url',
      withDev(`${arca.url}/artifactory/api/pypi/pypi-local/simple`),
      '--no-cache-dir',
      '--disable-pip-version-check',
    ],
    { cwd: home, env },
  );

/** mvn resolving one dependency into target/dependency through the local Maven repository. */
async function mvnResolve(version: string): Promise<string> {
  const project = fs.mkdtempSync(path.join(home, 'mvn-'));
  fs.writeFileSync(
    path.join(project, 'pom.xml'),
    `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId><artifactId>app</artifactId><version>1.0</version>
  <dependencies><dependency><groupId>org.acme</groupId><artifactId>xml-lib</artifactId><version>${version}</version></dependency></dependencies>
</project>`,
  );
  return run(
    'mvn',
    [
      '-B',
      '-s',
      path.join(home, 'settings.xml'),
      'org.apache.maven.plugins:maven-dependency-plugin:3.5.0:copy-dependencies',
    ],
    { cwd: project, env },
  );
}

beforeAll(async () => {
  arca = await startServer();
  for (const [key, packageType] of [
    ['npm-local', 'npm'],
    ['pypi-local', 'pypi'],
    ['maven-local', 'maven'],
    ['docker-local', 'docker'],
  ])
    await admin('PUT', `/artifactory/api/repositories/${key}`, { rclass: 'local', packageType });
  await admin('PUT', `/artifactory/api/security/users/${DEV.user}`, {
    email: 'dev@example.com',
    password: DEV.password,
  });
  await admin('PUT', '/artifactory/api/v2/security/permissions/dev', {
    repo: {
      repositories: ['npm-local', 'pypi-local', 'maven-local', 'docker-local'],
      actions: { users: { dev: ['read', 'write'] } },
    },
  });

  // each package in a vulnerable and a fixed version
  for (const version of ['1.0.0', '1.0.1']) {
    const { body } = await publishBody('left-parse', version);
    await admin('PUT', '/artifactory/api/npm/npm-local/left-parse', body);
    const dists = fs.mkdtempSync(path.join(home, 'dist-'));
    const files = execFileSync(
      'python3',
      [path.join(import.meta.dirname, 'clients/python-dists.py'), dists, 'yaml-lite', version],
      { env },
    )
      .toString()
      .trim()
      .split('\n');
    await run(
      'twine',
      [
        'upload',
        '--non-interactive',
        '--disable-progress-bar',
        '--repository-url',
        `${arca.url}/artifactory/api/pypi/pypi-local`,
        '-u',
        DEV.user,
        '-p',
        DEV.password,
        ...files.map((file) => path.join(dists, file)),
      ],
      { cwd: home, env },
    );
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
    const base = `${arca.url}/artifactory/maven-local/org/acme/xml-lib/${version}/xml-lib-${version}`;
    const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>xml-lib</artifactId><version>${version}</version></project>`;
    for (const [url, content] of [
      [`${base}.pom`, pom],
      [`${base}.jar`, `xml-lib ${version}`],
    ]) {
      const res = await fetch(url!, { method: 'PUT', headers: { authorization: auth }, body: content });
      expect(res.status).toBe(201);
    }
  }
  fs.writeFileSync(
    path.join(home, 'settings.xml'),
    `<settings><localRepository>${path.join(home, 'm2')}</localRepository>
  <profiles><profile><id>arca</id>
    <repositories>
      <repository><id>central</id><url>file:///usr/share/maven-repo</url></repository>
      <repository><id>arca</id><url>${withDev(`${arca.url}/artifactory/maven-local`)}</url></repository>
    </repositories>
    <pluginRepositories><pluginRepository><id>central</id><url>file:///usr/share/maven-repo</url></pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>arca</activeProfile></activeProfiles>
</settings>`,
  );
  await run('python3', ['-m', 'venv', venv], { cwd: home, env });
  // an image on Debian 12 with a vulnerable OpenSSL; its next tag's layer upgrades it
  const base = {
    'etc/os-release': BOOKWORM,
    'var/lib/dpkg/status': dpkgStatus([
      ['base-files', 'base-files', '12.4+deb12u5'],
      ['libssl3', 'openssl', '3.0.11-1~deb12u2'],
    ]),
  };
  const upgrade = {
    'var/lib/dpkg/status': dpkgStatus([
      ['base-files', 'base-files', '12.4+deb12u5'],
      ['libssl3', 'openssl', '3.0.13-1~deb12u1'],
    ]),
  };
  // its application's own npm packages, in a later tag: matched as npm packages
  const app = {
    'srv/app.js': 'serve()\n',
    'srv/node_modules/left-parse/package.json': JSON.stringify({ name: 'left-parse', version: '1.0.0' }),
  };
  // the same application on Alpine 3.20, whose busybox an Alpine advisory names
  const alpine = {
    'etc/os-release': ALPINE,
    'lib/apk/db/installed': apkInstalled([
      ['musl', 'musl', '1.2.5-r0'],
      ['ssl_client', 'busybox', '1.36.1-r9'],
      ['busybox', 'busybox', '1.36.1-r9'],
    ]),
  };
  // and on Rocky Linux 9, whose OpenSSL a Rocky advisory names
  const rocky = { 'etc/os-release': ROCKY, 'var/lib/rpm/rpmdb.sqlite': rpmdbWithOpenssl() };
  for (const [tag, layers] of [
    ['1.0', [base, { 'srv/app.js': 'serve()\n' }]],
    ['1.1', [base, { 'srv/app.js': 'serve()\n' }, upgrade]],
    ['2.0', [base, upgrade, app]],
    ['3.0', [alpine, { 'srv/app.js': 'serve()\n' }]],
    ['4.0', [rocky, { 'srv/app.js': 'serve()\n' }]],
  ] as const) {
    await writeOciLayout(layout, tag, [{ platform: { architecture: 'amd64', os: 'linux' }, layers: [...layers] }]);
    await skopeo(
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      `${DEV.user}:${DEV.password}`,
      `oci:${layout}:${tag}`,
      `docker://${host()}/docker-local/web/app:${tag}`,
    );
  }

  await admin('POST', '/xray/api/v1/advisories/import?name=advisories.json', ADVISORIES);
  await admin('POST', '/xray/api/v2/policies', {
    name: 'no-critical',
    type: 'security',
    rules: [
      { name: 'critical', criteria: { min_severity: 'Critical' }, actions: { block_download: { active: true } } },
    ],
  });
  await admin('POST', '/xray/api/v2/watches', {
    general_data: { name: 'shipping', description: 'What the teams install' },
    project_resources: {
      resources: ['npm-local', 'pypi-local', 'maven-local', 'docker-local'].map((name) => ({
        type: 'repository',
        name,
      })),
    },
    assigned_policies: [{ name: 'no-critical', type: 'security' }],
  });
  // every vulnerable version scanned: its summary lists the advisory
  for (const file of [
    'npm-local/left-parse/-/left-parse-1.0.0.tgz',
    'pypi-local/yaml-lite/1.0.0/yaml_lite-1.0.0-py3-none-any.whl',
    'maven-local/org/acme/xml-lib/1.0.0/xml-lib-1.0.0.pom',
    'docker-local/web/app/1.0/manifest.json',
    'docker-local/web/app/2.0/manifest.json',
    'docker-local/web/app/3.0/manifest.json',
    'docker-local/web/app/4.0/manifest.json',
  ]) {
    for (let tries = 0; ; tries++) {
      const res = await admin('POST', '/xray/api/v1/summary/artifact', { paths: [file] });
      const summary = (await res.json()) as { artifacts: { issues: unknown[] }[] };
      if (summary.artifacts[0]?.issues.length === 1) break;
      if (tries === 600) throw new Error(`${file} was not scanned: ${JSON.stringify(summary)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

afterAll(async () => {
  await arca?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('a policy that blocks downloads, seen from the package clients', () => {
  it('npm, pip and mvn fail on the vulnerable versions with the advisory named, and install the fixed ones', async () => {
    const npm = npmInstall('left-parse@1.0.0');
    await expect(npm).rejects.toThrow(blockedBy('left-parse', 'GHSA-npm0-0001-0001 \\(CVE-2026-4001\\)'));
    await expect(npm).rejects.toThrow(/Fixed in 1\.0\.1/);
    await expect(pip('install', 'yaml-lite==1.0.0')).rejects.toThrow(blockedBy('yaml-lite', 'PYSEC-2026-4002'));
    await expect(mvnResolve('1.0.0')).rejects.toThrow(blockedBy('org.acme:xml-lib', 'GHSA-mvn0-0001-0001'));

    await npmInstall('left-parse@1.0.1');
    await pip('install', 'yaml-lite==1.0.1');
    expect(await mvnResolve('1.0.1')).toContain('BUILD SUCCESS');
  });

  it('skopeo cannot pull an image whose Debian packages an advisory names, and pulls the tag that upgraded them', async () => {
    await expect(pull('1.0')).rejects.toThrow(
      /Download of web\/app@1\.0 blocked by policy 'no-critical' of watch 'shipping': DSA-5999-1 \(CVE-2026-4004\) in libssl3 3\.0\.11-1~deb12u2/,
    );
    await pull('1.1');
    expect(fs.existsSync(path.join(home, 'pulled-1.1', 'index.json'))).toBe(true);
    // the application's npm packages in its layers are matched too
    await expect(pull('2.0')).rejects.toThrow(
      /Download of web\/app@2\.0 blocked by policy 'no-critical' of watch 'shipping': GHSA-\S+ \(CVE-2026-4001\) in npm:\/\/left-parse 1\.0\.0/,
    );
    // an Alpine image's packages are matched in apk's order, by their origin
    await expect(pull('3.0')).rejects.toThrow(
      /Download of web\/app@3\.0 blocked by policy 'no-critical' of watch 'shipping': ALPINE-CVE-2026-4005 \(CVE-2026-4005\) in ssl_client 1\.36\.1-r9/,
    );
    // and a Rocky Linux image's, read off rpm's SQLite database, in rpm's order with the epoch
    await expect(pull('4.0')).rejects.toThrow(
      /Download of web\/app@4\.0 blocked by policy 'no-critical' of watch 'shipping': RLSA-2026:4006 \(CVE-2026-4006\) in openssl-libs 1:3\.0\.7-24\.el9/,
    );
    // the image's SBOM lists what it installs, and the advisory against the package it is in
    const bom = await cycloneDxOf('docker-local/web/app/1.0/manifest.json');
    expect(bom.metadata.component).toMatchObject({ type: 'container', name: 'web/app' });
    expect(bom.components.map((c) => c.purl)).toEqual([
      'pkg:deb/debian/base-files@12.4+deb12u5?distro=debian-12',
      'pkg:deb/debian/libssl3@3.0.11-1~deb12u2?distro=debian-12',
    ]);
    expect(bom.vulnerabilities.map((v) => `${v.id} ${v.affects[0]!.ref}`)).toEqual([
      'DSA-5999-1 pkg:deb/debian/libssl3@3.0.11-1~deb12u2?distro=debian-12',
    ]);
    // each distribution's packages by their own package URLs
    expect((await cycloneDxOf('docker-local/web/app/3.0/manifest.json')).components.map((c) => c.purl)).toEqual([
      'pkg:apk/alpine/musl@1.2.5-r0?distro=alpine-3.20.3',
      'pkg:apk/alpine/ssl_client@1.36.1-r9?distro=alpine-3.20.3',
      'pkg:apk/alpine/busybox@1.36.1-r9?distro=alpine-3.20.3',
    ]);
    expect((await cycloneDxOf('docker-local/web/app/4.0/manifest.json')).components.map((c) => c.purl)).toEqual([
      'pkg:rpm/rocky/openssl-libs@3.0.7-24.el9?distro=rocky-9.3&epoch=1',
    ]);
  });

  it('installs and pulls the vulnerable versions once an ignore rule sets their advisories aside, with a reason and an expiry', async () => {
    const added = await admin('POST', '/xray/api/v1/ignore_rules', {
      notes: 'Reviewed: the vulnerable code paths are not reached; upgrade planned',
      expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      ignore_filters: { vulnerabilities: ['CVE-2026-4001', 'CVE-2026-4002', 'CVE-2026-4003', 'DSA-5999-1'] },
    });
    const id = /id: (\S+)$/.exec(((await added.json()) as { info: string }).info)![1]!;
    try {
      await npmInstall('left-parse@1.0.0');
      await pip('install', 'yaml-lite==1.0.0');
      expect(await mvnResolve('1.0.0')).toContain('BUILD SUCCESS');
      await pull('1.0');
    } finally {
      await admin('DELETE', `/xray/api/v1/ignore_rules/${id}`);
    }
  });
});
