import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  createRepo,
  createUser,
  messages,
  put,
  repositoryFiles,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { compareMavenVersions, parseMavenPath } from './maven.path.js';

const pom = (g: string, a: string, v: string, extra = '') =>
  `<?xml version="1.0"?><project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version>${extra}</project>`;
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('Maven paths and versions', () => {
  it('reads coordinates, classifiers and unique snapshots off a path', () => {
    expect(parseMavenPath('org/acme/app/1.0/app-1.0-sources.jar')).toMatchObject({
      groupId: 'org.acme',
      artifactId: 'app',
      version: '1.0',
      classifier: 'sources',
      extension: 'jar',
      artifactFolder: 'org/acme/app',
    });
    expect(parseMavenPath('org/acme/app/2.0-SNAPSHOT/app-2.0-20261123.101010-7.tar.gz')).toMatchObject({
      fileVersion: '2.0-20261123.101010-7',
      snapshot: { timestamp: '20261123.101010', buildNumber: 7 },
      extension: 'tar.gz',
    });
    expect(parseMavenPath('org/acme/app/1.0/other-1.0.jar')).toBeUndefined();
    expect(parseMavenPath('app/1.0/app-1.0.jar')).toBeUndefined();
  });

  it('orders versions as Maven does', () => {
    const sorted = ['1.10', '1.2', '1.0-SNAPSHOT', '1.0', '1.0-rc1', '1.0-alpha-2', '1.0-beta', '1.0.1'].sort(
      compareMavenVersions,
    );
    expect(sorted).toEqual(['1.0-alpha-2', '1.0-beta', '1.0-rc1', '1.0-SNAPSHOT', '1.0', '1.0.1', '1.2', '1.10']);
  });
});

describe.each(ENGINES)('Maven repositories on %s', (engine) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN_BASIC });
  /** Changes the repository's configuration (Artifactory's POST). */
  const configure = async (config: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/repositories/libs',
      headers: ADMIN_BASIC,
      payload: { key: 'libs', rclass: 'local', packageType: 'maven', ...config },
    });
    expect(res.statusCode).toBe(200);
  };
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'maven' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 502 naming the repository when a remote cannot reach its upstream, not "not found"', async () => {
    await createRepo(t.app, 'central-down', {
      rclass: 'remote',
      packageType: 'maven',
      url: 'https://repo.upstream.invalid/maven2/',
    });
    await createRepo(t.app, 'all', { rclass: 'virtual', packageType: 'maven', repositories: ['libs', 'central-down'] });
    for (const path of [
      'central-down/org/apache/maven/plugins/maven-metadata.xml',
      'all/org/acme/tool/1.0/tool-1.0.pom',
    ]) {
      const res = await get(`/artifactory/${path}`);
      expect(res.statusCode, path).toBe(502);
      expect(res.json().errors[0].message, path).toBe(
        "The remote repository 'central-down' could not get an answer from its upstream https://repo.upstream.invalid: its host name could not be resolved",
      );
    }
  });

  it('calculates maven-metadata.xml on every deploy and delete, and replaces one a client sends', async () => {
    for (const v of ['1.10', '1.2', '2.0-SNAPSHOT']) {
      expect((await put(t.app, `/artifactory/libs/org/acme/app/${v}/app-${v}.jar`, `jar ${v}`)).statusCode).toBe(201);
    }
    const first = (await get('/artifactory/libs/org/acme/app/maven-metadata.xml')).body;
    expect(first).toMatch(
      /<latest>2\.0-SNAPSHOT<\/latest>\s*<release>1\.10<\/release>\s*<versions>\s*<version>1\.2<\/version>\s*<version>1\.10<\/version>\s*<version>2\.0-SNAPSHOT<\/version>/,
    );
    // what a client deploys as metadata is taken and dropped: the calculated file stays
    const sent = await put(t.app, '/artifactory/libs/org/acme/app/maven-metadata.xml', '<metadata>bogus</metadata>');
    expect(sent.statusCode).toBe(201);
    expect((await get('/artifactory/libs/org/acme/app/maven-metadata.xml')).body).toBe(first);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/libs/org/acme/app/1.10',
      headers: ADMIN_BASIC,
    });
    expect(removed.statusCode).toBe(204);
    expect((await get('/artifactory/libs/org/acme/app/maven-metadata.xml')).body).toMatch(
      /<release>1\.2<\/release>\s*<versions>\s*<version>1\.2<\/version>\s*<version>2\.0-SNAPSHOT<\/version>\s*<\/versions>/,
    );
    // a plain -SNAPSHOT file has metadata too, naming it as it is
    expect((await get('/artifactory/libs/org/acme/app/2.0-SNAPSHOT/maven-metadata.xml')).body).toContain(
      '<value>2.0-SNAPSHOT</value>',
    );
  });

  it('answers checksums of every file, and applies the checksum policy to checksum files', async () => {
    await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar', 'jar 1.0');
    const answered = await get('/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1');
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toBe(sha1('jar 1.0'));
    expect((await get('/artifactory/libs/org/acme/app/1.0/app-1.0.jar.md5')).body).toBe(
      createHash('md5').update('jar 1.0').digest('hex'),
    );
    const metadataSha = (await get('/artifactory/libs/org/acme/app/maven-metadata.xml.sha1')).body;
    expect(metadataSha).toBe(sha1((await get('/artifactory/libs/org/acme/app/maven-metadata.xml')).body));

    expect((await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1', sha1('jar 1.0'))).statusCode).toBe(
      201,
    );
    const refused = await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1', sha1('other'));
    expect(refused.statusCode).toBe(409);
    expect(messages(refused)[0]).toContain(`the sha1 sent is '${sha1('other')}', the file's is '${sha1('jar 1.0')}'`);
    expect((await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1', 'not a checksum')).statusCode).toBe(
      400,
    );
    // with server-generated checksums, what the client says is ignored
    await configure({ checksumPolicyType: 'server-generated-checksums' });
    expect((await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1', sha1('other'))).statusCode).toBe(
      201,
    );
    expect(await repositoryFiles(t.app)).toEqual(['org/acme/app/1.0/app-1.0.jar', 'org/acme/app/maven-metadata.xml']);
  });

  it('checks a POM against its path unless the repository suppresses it, and stores nothing it refuses', async () => {
    const wrong = await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.pom', pom('org.acme', 'other', '1.0'));
    expect(wrong.statusCode).toBe(409);
    expect(messages(wrong)[0]).toBe(
      "The target deployment path 'org/acme/app/1.0/app-1.0.pom' does not match the POM's expected path prefix 'org/acme/other/1.0'. Please verify your POM content for correctness and make sure the source path is a valid Maven repository root path.",
    );
    const broken = await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.pom', '<project><groupId>');
    expect(broken.statusCode).toBe(400);
    expect(messages(broken)[0]).toMatch(/^The POM 'org\/acme\/app\/1\.0\/app-1\.0\.pom' cannot be read/);
    expect(await repositoryFiles(t.app)).toEqual([]);

    // a parent's groupId and version are the POM's own when it does not set them
    const inherited = pom('', 'app', '').replace(
      '<groupId></groupId>',
      '<parent><groupId>org.acme</groupId><artifactId>parent</artifactId><version>1.0</version></parent>',
    );
    expect((await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.pom', inherited)).statusCode).toBe(201);

    await configure({ suppressPomConsistencyChecks: true });
    expect(
      (await put(t.app, '/artifactory/libs/org/acme/app/2.0/app-2.0.pom', pom('org.acme', 'other', '1.0'))).statusCode,
    ).toBe(201);
  });

  it('refuses to redeploy a release when the repository says so, never a snapshot', async () => {
    await configure({ redeployReleases: false });
    const release = '/artifactory/libs/org/acme/app/1.0/app-1.0.jar';
    expect((await put(t.app, release, 'one')).statusCode).toBe(201);
    const again = await put(t.app, release, 'two');
    expect(again.statusCode).toBe(409);
    expect(messages(again)[0]).toContain('does not allow releases to be redeployed');
    expect((await get(release)).body).toBe('one');
    const snapshot = '/artifactory/libs/org/acme/app/1.1-SNAPSHOT/app-1.1-SNAPSHOT.jar';
    expect((await put(t.app, snapshot, 'one')).statusCode).toBe(201);
    expect((await put(t.app, snapshot, 'two')).statusCode).toBe(201);
  });

  it('needs the deploy right before it reads a checksum or a POM, and serves -SNAPSHOT names as the newest build', async () => {
    const reader = await createUser(t.app, 'reader');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/reader',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs'], actions: { users: { reader: ['read'] } } } },
    });
    await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar', 'jar');
    const denied = await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar.sha1', sha1('jar'), {
      ...reader,
    });
    expect(denied.statusCode).toBe(403);

    for (const [stamp, build] of [
      ['20261123.101010', 1],
      ['20261123.111111', 2],
    ] as const) {
      await put(t.app, `/artifactory/libs/org/acme/app/2.0-SNAPSHOT/app-2.0-${stamp}-${build}.jar`, `build ${build}`);
      await put(
        t.app,
        `/artifactory/libs/org/acme/app/2.0-SNAPSHOT/app-2.0-${stamp}-${build}-sources.jar`,
        `src ${build}`,
      );
    }
    expect((await get('/artifactory/libs/org/acme/app/2.0-SNAPSHOT/app-2.0-SNAPSHOT.jar')).body).toBe('build 2');
    expect((await get('/artifactory/libs/org/acme/app/2.0-SNAPSHOT/app-2.0-SNAPSHOT-sources.jar')).body).toBe('src 2');
    expect((await get('/artifactory/libs/org/acme/app/2.0-SNAPSHOT/app-2.0-SNAPSHOT.jar.sha1')).body).toBe(
      sha1('build 2'),
    );
    const metadata = (await get('/artifactory/libs/org/acme/app/2.0-SNAPSHOT/maven-metadata.xml')).body;
    expect(metadata).toContain('<timestamp>20261123.111111</timestamp>');
    expect(metadata).toContain('<buildNumber>2</buildNumber>');
    expect(metadata).toMatch(
      /<classifier>sources<\/classifier>\s*<extension>jar<\/extension>\s*<value>2\.0-20261123\.111111-2<\/value>/,
    );
  });

  it('recalculates metadata after a move made by another route, in both repositories', async () => {
    await createRepo(t.app, 'other', { rclass: 'local', packageType: 'maven' });
    for (const v of ['1.0', '1.1']) await put(t.app, `/artifactory/libs/org/acme/app/${v}/app-${v}.jar`, v);
    const moved = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/move/libs/org/acme/app/1.1?to=/other/org/acme/app/1.1',
      headers: ADMIN_BASIC,
    });
    expect(moved.statusCode).toBe(200);
    await t.app.derivedMetadata.drain();
    expect((await get('/artifactory/libs/org/acme/app/maven-metadata.xml')).body).toMatch(
      /<versions>\s*<version>1\.0<\/version>\s*<\/versions>/,
    );
    expect((await get('/artifactory/other/org/acme/app/maven-metadata.xml')).body).toMatch(
      /<versions>\s*<version>1\.1<\/version>\s*<\/versions>/,
    );
  });

  it('merges the metadata of a virtual repository’s members', async () => {
    await createRepo(t.app, 'more', { rclass: 'local', packageType: 'maven' });
    await createRepo(t.app, 'all', { rclass: 'virtual', packageType: 'maven', repositories: ['libs', 'more'] });
    await put(t.app, '/artifactory/libs/org/acme/app/1.0/app-1.0.jar', 'a');
    await put(t.app, '/artifactory/more/org/acme/app/1.1/app-1.1.jar', 'b');
    const merged = await get('/artifactory/all/org/acme/app/maven-metadata.xml');
    expect(merged.statusCode).toBe(200);
    expect(merged.headers['content-type']).toContain('application/xml');
    expect(merged.body).toMatch(
      /<release>1\.1<\/release>\s*<versions>\s*<version>1\.0<\/version>\s*<version>1\.1<\/version>/,
    );
    expect((await get('/artifactory/all/org/acme/app/maven-metadata.xml.sha1')).body).toBe(sha1(merged.body));
  });
});
