import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  createRepo,
  createUser,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { publishBody } from '../../test/npm.js';
import { zipOf } from '../../test/zip.js';

type Found = {
  results: Record<string, unknown>[];
  searchResultsMessage: string;
  limitSearchResults: boolean;
  errors?: { repoKey: string; message: string }[];
};
const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const pom = (g: string, a: string, v: string) =>
  `<project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><description>${a} library</description></project>`;

describe.each(ENGINES)('console and layout searches on %s', (engine) => {
  let t: TestApp;
  let upstream: TestApp;
  let reader: Record<string, string>;
  const search = (type: string, body: unknown, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({
      method: 'POST',
      url: `/ui/api/v1/ui/artifactsearch/${type}`,
      headers: { ...headers, ...XHR },
      payload: body as object,
    });
  const found = async (type: string, body: unknown, headers?: Record<string, string>) => {
    const res = await search(type, body, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Found;
  };
  const message = (res: { json: () => unknown }) =>
    (res.json() as { errors: { message: string }[] }).errors[0]!.message;
  const get = (url: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({ url, headers: { ...headers, ...XHR } });

  beforeAll(async () => {
    // an upstream Arca on a real port: an npm registry and a Maven repository to search through
    upstream = await startTestApp(engine);
    await createRepo(upstream.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(upstream.app, 'maven-local', { rclass: 'local', packageType: 'maven' });
    const { body } = await publishBody('left-pad-plus', '2.1.0', { manifest: { description: 'pads on the left' } });
    await upstream.app.inject({
      method: 'PUT',
      url: '/artifactory/api/npm/npm-local/left-pad-plus',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    for (const v of ['1.0', '1.2'])
      await put(
        upstream.app,
        `/artifactory/maven-local/org/slf4j/slf4j-api/${v}/slf4j-api-${v}.pom`,
        pom('org.slf4j', 'slf4j-api', v),
      );
    await upstream.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.app.server.address() as AddressInfo).port;

    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'maven' });
    await createRepo(t.app, 'secret', { rclass: 'local', packageType: 'maven' });
    await createRepo(t.app, 'npm-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: `http://127.0.0.1:${port}/artifactory/api/npm/npm-local/`,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    await createRepo(t.app, 'maven-remote', {
      rclass: 'remote',
      packageType: 'maven',
      url: `http://127.0.0.1:${port}/artifactory/maven-local/`,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    // nothing listens on port 9: this upstream fails, the others still answer
    await createRepo(t.app, 'npm-down', { rclass: 'remote', packageType: 'npm', url: 'http://127.0.0.1:9/npm/' });
    await createRepo(t.app, 'all', { rclass: 'virtual', packageType: 'maven', repositories: ['libs', 'secret'] });

    const jar = zipOf({
      'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n',
      'org/acme/util/StringUtils.class': 'cafebabe',
      'org/acme/util/StringUtils$Builder.class': 'cafebabe',
      'org/acme/Outer.class': 'cafebabe',
      'module-info.class': 'cafebabe',
    });
    for (const v of ['1.0', '1.10', '1.9', '2.0-SNAPSHOT']) {
      await put(t.app, `/artifactory/libs/org/acme/tools/${v}/tools-${v}.pom`, pom('org.acme', 'tools', v));
    }
    await put(t.app, '/artifactory/libs/org/acme/tools/1.10/tools-1.10.jar', jar);
    await put(
      t.app,
      '/artifactory/libs/org/acme/tools/2.0-SNAPSHOT/tools-2.0-20261101.101010-1.pom',
      pom('org.acme', 'tools', '2.0-SNAPSHOT'),
    );
    await put(
      t.app,
      '/artifactory/libs/org/acme/tools/2.0-SNAPSHOT/tools-2.0-20261102.101010-2.pom',
      pom('org.acme', 'tools', '2.0-SNAPSHOT'),
    );
    await put(t.app, '/artifactory/secret/org/hidden/vault/1.0/vault-1.0.jar;team=red', jar);
    await put(t.app, '/artifactory/secret/org/hidden/vault/1.0/vault-1.0.pom', pom('org.hidden', 'vault', '1.0'));
    await put(t.app, '/artifactory/libs/org/acme/tools/1.0/notes.txt;team=blue;stage=qa', 'notes');
    await t.services.classIndexer.drain();
    await t.services.catalogueIndexer.drain();

    reader = await createUser(t.app, 'reader');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/reader',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs', 'npm-remote'], actions: { users: { reader: ['read'] } } } },
    });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('finds Java classes of deployed archives, by name or qualified name, inner classes optional', async () => {
    const byName = await found('class', { name: 'StringUtils*', selectedRepositories: [] });
    expect(byName.results.map((r) => [r.name, r.repoKey, r.archivePath]).sort()).toEqual([
      ['StringUtils$Builder', 'libs', 'org/acme/tools/1.10/tools-1.10.jar'],
      ['StringUtils$Builder', 'secret', 'org/hidden/vault/1.0/vault-1.0.jar'],
      ['StringUtils', 'libs', 'org/acme/tools/1.10/tools-1.10.jar'],
      ['StringUtils', 'secret', 'org/hidden/vault/1.0/vault-1.0.jar'],
    ]);
    expect(byName.results.find((r) => r.name === 'StringUtils$Builder')!.innerClass).toBe(true);
    expect(byName.searchResultsMessage).toBe('4 item(s)');
    const outer = await found('class', {
      name: 'StringUtils*',
      excludeInnerClasses: true,
      selectedRepositories: ['libs'],
    });
    expect(outer.results.map((r) => r.classPath)).toEqual(['org/acme/util/StringUtils.class']);
    const qualified = await found('class', { name: 'org.acme.*', selectedRepositories: ['libs'] });
    expect(qualified.results.map((r) => r.name).sort()).toEqual(['Outer', 'StringUtils', 'StringUtils$Builder']);
    // searchClassOnly: the name is a class name only, a dotted one finds nothing
    expect((await found('class', { name: 'org.acme.*', searchClassOnly: true })).results).toEqual([]);
    const inPackage = await found('class', { name: '*', path: 'org.acme.util', selectedRepositories: ['libs'] });
    expect(inPackage.results.map((r) => r.name).sort()).toEqual(['StringUtils', 'StringUtils$Builder']);
    // module-info is no class to find; a reader never finds what he cannot read
    expect((await found('class', { name: 'module-info' })).results).toEqual([]);
    const asReader = await found('class', { name: 'StringUtils' }, reader);
    expect(asReader.results.map((r) => r.repoKey)).toEqual(['libs']);
    expect(message(await search('class', { name: '**' }))).toBe('Type a class name to search for.');
  });

  it('indexes the archives below a copied folder, once each', async () => {
    await createRepo(t.app, 'libs-copy', { rclass: 'local', packageType: 'maven' });
    const copied = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/copy/libs/org/acme/tools?to=/libs-copy/org/acme/tools',
      headers: ADMIN_BASIC,
    });
    expect(copied.statusCode, copied.body).toBe(200);
    await t.services.classIndexer.drain();
    const inCopy = await found('class', { name: 'StringUtils', selectedRepositories: ['libs-copy'] });
    expect(inCopy.results.map((r) => r.archivePath)).toEqual(['org/acme/tools/1.10/tools-1.10.jar']);
    // the other searches of this file see the repositories they made, not this one
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/repositories/libs-copy',
      headers: ADMIN_BASIC,
    });
    expect(removed.statusCode).toBe(200);
  });

  it('drops the classes of a deleted archive', async () => {
    await put(t.app, '/artifactory/libs/tmp/gone.war', zipOf({ 'WEB-INF/classes/org/x/GoneServlet.class': 'x' }));
    await t.services.classIndexer.drain();
    expect((await found('class', { name: 'GoneServlet' })).results).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs/tmp/gone.war', headers: ADMIN_BASIC });
    expect((await found('class', { name: 'GoneServlet' })).results).toHaveLength(0);
  });

  it('finds packages by their type’s fields, with extra fields and the 3-character rule', async () => {
    const types = (await get('/ui/api/v1/ui/artifactsearch/pkg/availablePackages')).json() as { id: string }[];
    expect(types.map((x) => x.id)).toEqual(['all', 'npm', 'pypi', 'maven', 'docker']);
    const fields = (await get('/ui/api/v1/ui/artifactsearch/pkg/maven')).json() as {
      id: string;
      uiSearchKey: string;
    }[];
    expect(fields.map((f) => f.id)).toEqual(['groupID', 'artifactID', 'version', 'packaging']);
    expect((await get('/ui/api/v1/ui/artifactsearch/pkg/cobol')).statusCode).toBe(404);

    const maven = await found('pkg', [
      { id: 'pkgType', values: ['maven'] },
      { id: 'groupID', values: ['org.ac'] },
      { id: 'version', values: ['1.1*', '2.*'] },
    ]);
    expect(maven.results.map((r) => [r.name, r.version, r.extraField_groupId, r.extraField_artifactId])).toEqual([
      ['org.acme:tools', '2.0-SNAPSHOT', 'org.acme', 'tools'],
      ['org.acme:tools', '1.10', 'org.acme', 'tools'],
    ]);
    expect(maven.results[0]).not.toHaveProperty('downloadLink');
    // type 'All' searches every type; names are compared lowercased
    const all = await found('pkg', {
      search: [
        { id: 'pkgType', values: ['All'] },
        { id: 'packageName', values: ['ORG.HIDDEN'] },
      ],
    });
    expect(all.results.map((r) => r.name)).toEqual(['org.hidden:vault']);
    expect(
      (
        await found(
          'pkg',
          [
            { id: 'pkgType', values: ['All'] },
            { id: 'packageName', values: ['org.hidden'] },
          ],
          reader,
        )
      ).results,
    ).toEqual([]);
    const short = await search('pkg', [
      { id: 'pkgType', values: ['maven'] },
      { id: 'groupID', values: ['o*?'] },
    ]);
    expect([short.statusCode, message(short)]).toEqual([400, 'Type at least 3 characters to search for packages.']);
    expect(
      (
        await search('pkg', [
          { id: 'pkgType', values: ['maven'] },
          { id: 'colour', values: ['red'] },
        ])
      ).statusCode,
    ).toBe(400);
  });

  it('searches remote repositories through their upstream indexes, reporting a failing upstream on its own', async () => {
    const npm = await found('remote', { searchKey: 'left-pad' });
    expect(npm.results.map((r) => [r.repoKey, r.name, r.version, r.relativePath])).toEqual([
      ['npm-remote', 'left-pad-plus', '2.1.0', 'left-pad-plus/-/left-pad-plus-2.1.0.tgz'],
    ]);
    expect(npm.results[0]!.description).toBe('pads on the left');
    expect(npm.errors!.map((e) => e.repoKey)).toEqual(['npm-down']);
    // the link downloads through the remote repository
    const link = String(npm.results[0]!.downloadLink).replace(/^http:\/\/[^/]+/, '');
    expect((await t.app.inject({ url: link, headers: ADMIN_BASIC })).statusCode).toBe(200);

    const maven = await found('remote', { searchKey: 'org.slf4j:slf4j-api' });
    expect(maven.results.map((r) => [r.repoKey, r.version])).toEqual([
      ['maven-remote', '1.2'],
      ['maven-remote', '1.0'],
    ]);
    // a reader searches only the remotes he may read
    const asReader = await found('remote', { searchKey: 'left-pad' }, reader);
    expect([asReader.results.length, asReader.errors]).toEqual([1, []]);
    expect(message(await search('remote', { searchKey: '*' }))).toBe('Type something to search for.');
  });

  it('lists property keys with their values, and deletes results after checking rights per item', async () => {
    const keys = (await get('/ui/api/v1/ui/artifactsearch/property/keyvalue')).json() as {
      key: string;
      values: string[];
    }[];
    expect(keys).toEqual(
      expect.arrayContaining([
        { key: 'team', values: ['blue', 'red'] },
        { key: 'stage', values: ['qa'] },
      ]),
    );
    const asReader = (await get('/ui/api/v1/ui/artifactsearch/property/keyvalue', reader)).json() as {
      key: string;
      values: string[];
    }[];
    expect(asReader.find((k) => k.key === 'team')!.values).toEqual(['blue']);

    await put(t.app, '/artifactory/libs/tmp/a.bin', 'a');
    await put(t.app, '/artifactory/libs/tmp/b.bin', 'b');
    const refused = await search('deleteArtifact', { artifacts: [{ repoKey: 'libs', path: 'tmp/a.bin' }] }, reader);
    expect(refused.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/artifactory/libs/tmp/a.bin', headers: ADMIN_BASIC })).statusCode).toBe(200);
    const done = await search('deleteArtifact', {
      artifacts: [
        { repoKey: 'libs', path: 'tmp/a.bin' },
        { repoKey: 'libs', path: 'tmp/b.bin' },
      ],
    });
    expect(done.json()).toEqual({ info: '2 item(s) moved to the trash can', errors: [] });
    const trash = await found('trash', { query: '*.bin' });
    expect(trash.results.map((r) => r.relativePath).sort()).toEqual(['libs/tmp/a.bin', 'libs/tmp/b.bin']);
    expect((await search('deleteArtifact', { artifacts: [] })).statusCode).toBe(400);
  });

  it('answers the layout searches: versions, latest version, pattern and bad checksums', async () => {
    const versions = await t.app.inject({
      url: '/artifactory/api/search/versions?g=org.acme&a=tools&repos=libs',
      headers: ADMIN_BASIC,
    });
    expect(versions.json()).toEqual({
      results: [
        { version: '2.0-SNAPSHOT', integration: true },
        { version: '1.10', integration: false },
        { version: '1.9', integration: false },
        { version: '1.0', integration: false },
      ],
    });
    const latest = await t.app.inject({
      url: '/artifactory/api/search/latestVersion?g=org.acme&a=tools&v=1.*',
      headers: ADMIN_BASIC,
    });
    expect([latest.headers['content-type'], latest.body]).toEqual([expect.stringContaining('text/plain'), '1.10']);
    const snapshot = await t.app.inject({
      url: '/artifactory/api/search/latestVersion?g=org.acme&a=tools&v=2.0-SNAPSHOT',
      headers: ADMIN_BASIC,
    });
    expect(snapshot.body).toBe('2.0-20261102.101010-2');
    const none = await t.app.inject({ url: '/artifactory/api/search/versions?g=org.none&a=x', headers: ADMIN_BASIC });
    expect([none.statusCode, message(none)]).toEqual([404, 'Unable to find artifact versions']);
    // the reader cannot read 'secret': its versions do not exist for him
    const hidden = await t.app.inject({
      url: '/artifactory/api/search/versions?g=org.hidden&a=vault',
      headers: reader,
    });
    expect(hidden.statusCode).toBe(404);

    const pattern = await t.app.inject({
      url: '/artifactory/api/search/pattern?pattern=libs:org/acme/**/tools-1.*.pom',
      headers: ADMIN_BASIC,
    });
    expect(pattern.json()).toEqual({
      repoUri: expect.stringMatching(/\/artifactory\/libs$/),
      sourcePattern: 'libs:org/acme/**/tools-1.*.pom',
      files: expect.arrayContaining(['org/acme/tools/1.0/tools-1.0.pom', 'org/acme/tools/1.10/tools-1.10.pom']),
    });
    expect((pattern.json() as { files: string[] }).files).toHaveLength(3);
    expect(
      (await t.app.inject({ url: '/artifactory/api/search/pattern?pattern=nocolon', headers: ADMIN_BASIC })).statusCode,
    ).toBe(400);
    const bad = await t.app.inject({ url: '/artifactory/api/search/badChecksum?type=sha1', headers: ADMIN_BASIC });
    expect(bad.json()).toEqual({ results: [] });
    expect(
      (await t.app.inject({ url: '/artifactory/api/search/badChecksum?type=crc', headers: ADMIN_BASIC })).statusCode,
    ).toBe(400);
  });

  it('searches a virtual repository’s members with .transitive(), and finds parts of names', async () => {
    const aql = (text: string) =>
      t.app.inject({
        method: 'POST',
        url: '/artifactory/api/search/aql',
        headers: { ...ADMIN_BASIC, 'content-type': 'text/plain' },
        payload: text,
      });
    const names = async (text: string) =>
      ((await aql(text)).json() as { results: { repo: string; name: string }[] }).results.map(
        (r) => `${r.repo}:${r.name}`,
      );
    expect(await names('items.find({"repo":"all","name":{"$match":"*.jar"}})')).toEqual([]);
    expect((await names('items.find({"repo":"all","name":{"$match":"*.jar"}}).transitive()')).sort()).toEqual([
      'libs:tools-1.10.jar',
      'secret:vault-1.0.jar',
    ]);
    // an infix match: the trigram index on SQLite, LIKE on PostgreSQL
    expect(await names('items.find({"name":{"$match":"*ault-1.0.j*"}})')).toEqual(['secret:vault-1.0.jar']);
    const quick = await found('quick', { query: '*ools-1.1' });
    expect(quick.results.map((r) => r.name).sort()).toEqual(['tools-1.10.jar', 'tools-1.10.pom']);
  });
});
