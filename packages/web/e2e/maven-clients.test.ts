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

/**
 * Maven proven with the real client: Debian's `mvn` with the plugins of Debian's own Maven
 * repository deploys releases and snapshots with `deploy:deploy-file`, then a project resolves
 * its dependencies through a virtual repository that combines the local repository with a remote
 * one proxying a second Arca (playing Maven Central).
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
const DEV = { user: 'dev', password: 'Dev-password-1' };
const DEBIAN_REPO = 'file:///usr/share/maven-repo';

const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

/** settings.xml: Debian's repository stands in for Central (plugins), Arca's virtual repository for the rest. */
function writeSettings(password = DEV.password): string {
  const file = path.join(home, 'settings.xml');
  fs.writeFileSync(
    file,
    `<settings>
  <localRepository>${path.join(home, 'm2')}</localRepository>
  <servers><server><id>arca</id><username>${DEV.user}</username><password>${password}</password></server></servers>
  <profiles><profile><id>arca</id>
    <repositories>
      <repository><id>central</id><url>${DEBIAN_REPO}</url></repository>
      <repository><id>arca</id><url>${arca.url}/artifactory/maven</url>
        <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots></repository>
    </repositories>
    <pluginRepositories><pluginRepository><id>central</id><url>${DEBIAN_REPO}</url></pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>arca</activeProfile></activeProfiles>
</settings>`,
  );
  return file;
}

const mvn = (...args: string[]) =>
  run('mvn', ['-B', '-e', '-s', path.join(home, 'settings.xml'), ...args], { cwd: home, env });

function deployFile(server: RunningServer, repo: string, gav: string, content: string) {
  const [groupId, artifactId, version] = gav.split(':') as [string, string, string];
  const file = path.join(home, `${artifactId}-${version}.jar`);
  fs.writeFileSync(file, content);
  return mvn(
    'org.apache.maven.plugins:maven-deploy-plugin:3.0.0:deploy-file',
    `-Dfile=${file}`,
    `-DgroupId=${groupId}`,
    `-DartifactId=${artifactId}`,
    `-Dversion=${version}`,
    '-Dpackaging=jar',
    '-DrepositoryId=arca',
    `-Durl=${server.url}/artifactory/${repo}`,
  );
}

const auth = { authorization: `Basic ${Buffer.from(`${DEV.user}:${DEV.password}`).toString('base64')}` };
const get = async (server: RunningServer, url: string) => {
  const res = await fetch(`${server.url}${url}`, { headers: auth });
  return { status: res.status, text: await res.text() };
};

const list = async (server: RunningServer, repo: string, folder: string) => {
  const res = await call(server, 'GET', `/artifactory/api/storage/${repo}/${folder}?list&deep=1`);
  return ((await res.json()) as { files: { uri: string }[] }).files.map((f) => f.uri);
};

beforeAll(async () => {
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  for (const server of [upstream, arca]) {
    await call(server, 'PUT', `/artifactory/api/security/users/${DEV.user}`, {
      email: 'dev@example.com',
      password: DEV.password,
    });
  }
  await call(upstream, 'PUT', '/artifactory/api/repositories/central', { rclass: 'local', packageType: 'maven' });
  await call(upstream, 'PUT', '/artifactory/api/v2/security/permissions/dev', {
    repo: { repositories: ['central'], actions: { users: { dev: ['read', 'write'] } } },
  });
  await call(arca, 'PUT', '/artifactory/api/repositories/maven-local', { rclass: 'local', packageType: 'maven' });
  await call(arca, 'PUT', '/artifactory/api/repositories/maven-remote', {
    rclass: 'remote',
    packageType: 'maven',
    url: `${upstream.url}/artifactory/central`,
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  await call(arca, 'PUT', '/artifactory/api/repositories/maven', {
    rclass: 'virtual',
    packageType: 'maven',
    repositories: ['maven-local', 'maven-remote'],
    defaultDeploymentRepo: 'maven-local',
  });
  await call(arca, 'PUT', '/artifactory/api/v2/security/permissions/dev', {
    repo: { repositories: ['maven-local', 'maven-remote', 'maven'], actions: { users: { dev: ['read', 'write'] } } },
  });
  writeSettings();
  // "Central": a library published there
  await deployFile(upstream, 'central', 'org.upstream:lib:2.0', 'upstream library 2.0');
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('mvn against Arca', () => {
  it('deploys a release and two snapshots, and calculates maven-metadata.xml for each', async () => {
    await deployFile(arca, 'maven', 'org.acme:demo:1.0', 'release 1.0');
    await deployFile(arca, 'maven', 'org.acme:demo:1.1-SNAPSHOT', 'first snapshot');
    await deployFile(arca, 'maven', 'org.acme:demo:1.1-SNAPSHOT', 'second snapshot');

    const artifact = await get(arca, '/artifactory/maven-local/org/acme/demo/maven-metadata.xml');
    expect(artifact.status).toBe(200);
    expect(artifact.text).toMatch(/<latest>1\.1-SNAPSHOT<\/latest>/);
    expect(artifact.text).toMatch(/<release>1\.0<\/release>/);
    expect(artifact.text).toMatch(
      /<versions>\s*<version>1\.0<\/version>\s*<version>1\.1-SNAPSHOT<\/version>\s*<\/versions>/,
    );

    const files = await list(arca, 'maven-local', 'org/acme/demo/1.1-SNAPSHOT');
    const jars = files.filter((f) => f.endsWith('.jar')).sort();
    expect(jars).toHaveLength(2);
    expect(jars[0]).toMatch(/^\/demo-1\.1-\d{8}\.\d{6}-1\.jar$/);
    expect(jars[1]).toMatch(/^\/demo-1\.1-\d{8}\.\d{6}-2\.jar$/);
    // checksum files are answered by the server, not stored
    expect(files.filter((f) => /\.(sha1|md5)$/.test(f))).toEqual([]);

    const snapshot = await get(arca, '/artifactory/maven-local/org/acme/demo/1.1-SNAPSHOT/maven-metadata.xml');
    expect(snapshot.text).toMatch(/<buildNumber>2<\/buildNumber>/);
    const newest = jars[1]!.slice('/demo-'.length, -'.jar'.length);
    expect(snapshot.text).toContain(`<extension>jar</extension>\n        <value>${newest}</value>`);
    expect(snapshot.text).toContain(`<extension>pom</extension>\n        <value>${newest}</value>`);

    // the plain -SNAPSHOT name is the newest build; every file has its checksums
    expect((await get(arca, '/artifactory/maven/org/acme/demo/1.1-SNAPSHOT/demo-1.1-SNAPSHOT.jar')).text).toBe(
      'second snapshot',
    );
    const sha1 = await get(arca, '/artifactory/maven/org/acme/demo/1.0/demo-1.0.jar.sha1');
    expect(sha1.text).toBe(createHash('sha1').update('release 1.0').digest('hex'));
  });

  it('resolves a project through the virtual repository: the snapshot from the local, the library from the remote', async () => {
    const project = path.join(home, 'app');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.acme</groupId><artifactId>app</artifactId><version>1.0</version>
  <dependencies>
    <dependency><groupId>org.acme</groupId><artifactId>demo</artifactId><version>1.1-SNAPSHOT</version></dependency>
    <dependency><groupId>org.upstream</groupId><artifactId>lib</artifactId><version>2.0</version></dependency>
  </dependencies>
</project>`,
    );
    await run(
      'mvn',
      [
        '-B',
        '-e',
        '-s',
        path.join(home, 'settings.xml'),
        'org.apache.maven.plugins:maven-dependency-plugin:3.5.0:copy-dependencies',
      ],
      { cwd: project, env },
    );
    const copied = path.join(project, 'target/dependency');
    expect(fs.readdirSync(copied).sort()).toEqual(['demo-1.1-SNAPSHOT.jar', 'lib-2.0.jar']);
    expect(fs.readFileSync(path.join(copied, 'demo-1.1-SNAPSHOT.jar'), 'utf8')).toBe('second snapshot');
    expect(fs.readFileSync(path.join(copied, 'lib-2.0.jar'), 'utf8')).toBe('upstream library 2.0');
    // the remote cached what it fetched, metadata merged in the virtual repository names both sources
    expect(await list(arca, 'maven-remote', 'org/upstream/lib/2.0')).toContain('/lib-2.0.jar');
  });

  it('deploys with the encrypted password in settings.xml, as Artifactory users keep it', async () => {
    const asked = await fetch(`${arca.url}/artifactory/api/security/encryptedPassword`, { headers: auth });
    expect(asked.status).toBe(200);
    const encrypted = await asked.text();
    expect(encrypted).not.toContain(DEV.password);
    writeSettings(encrypted);
    try {
      await deployFile(arca, 'maven', 'org.acme:sealed:1.0', 'deployed with the encrypted password');
    } finally {
      writeSettings();
    }
    expect((await get(arca, '/artifactory/maven/org/acme/sealed/1.0/sealed-1.0.jar')).text).toBe(
      'deployed with the encrypted password',
    );
  });

  it('shows the deployed artifact on the Packages pages with its coordinates', async () => {
    const { browser, close } = await launchBrowser();
    try {
      const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
        viewport: { width: 1400, height: 900 },
      });
      const versions = await openCataloguedPackage(page, arca.url, 'org.acme:demo');
      expect(await versions.allTextContents()).toEqual(['1.1-SNAPSHOT', '1.0']);
      await versions.last().click();
      await page.getByRole('heading', { level: 1, name: 'org.acme:demo 1.0' }).waitFor();
      expect(await page.getByLabel('Maven dependency').textContent()).toContain('<groupId>org.acme</groupId>');
      await page.getByText('Group ID').waitFor();
      await screenshot(page, 'maven-version');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('refuses a checksum file that disagrees, and a POM that does not match its path, storing nothing', async () => {
    const put = (path: string, body: string) =>
      fetch(`${arca.url}/artifactory/maven-local/${path}`, { method: 'PUT', headers: auth, body });
    const mismatch = await put('org/acme/demo/1.0/demo-1.0.jar.sha1', '0'.repeat(40));
    expect(mismatch.status).toBe(409);
    expect(await mismatch.text()).toContain("the sha1 sent is '0000000000000000000000000000000000000000'");

    const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>demo</artifactId><version>1.0</version></project>`;
    const wrong = await put('org/acme/other/3.0/other-3.0.pom', pom);
    expect(wrong.status).toBe(409);
    expect(await wrong.text()).toContain("does not match the POM's expected path prefix 'org/acme/demo/1.0'");
    expect((await get(arca, '/artifactory/api/storage/maven-local/org/acme/other')).status).toBe(404);
  });
});
