import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  basic,
  createRepo,
  createUser,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { packTarball, publishBody } from '../../test/npm.js';
import { zipOf } from '../../test/zip.js';

const osv = (id: string, modified: string, affected: unknown[], extra: Record<string, unknown> = {}) => ({
  schema_version: '1.6.0',
  id,
  modified,
  published: '2026-01-10T00:00:00Z',
  summary: `${id} in a test package`,
  details: 'What goes wrong, and how.',
  affected,
  ...extra,
});

const LEFT_PAD = osv(
  'GHSA-test-0001',
  '2026-02-01T00:00:00Z',
  [
    {
      package: { ecosystem: 'npm', name: 'left-pad' },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.3.1' }] }],
    },
  ],
  { aliases: ['CVE-2026-0001'], database_specific: { severity: 'HIGH' } },
);
const MAVEN = osv('GHSA-test-0002', '2026-02-01T00:00:00Z', [
  {
    package: { ecosystem: 'Maven', name: 'org.acme:parser' },
    ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '2.0-alpha-1' }, { last_affected: '2.0' }] }],
    database_specific: { severity: 'MODERATE' },
  },
]);

describe.each(ENGINES)('security scanning on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    // advisory sources are fetched from a server of this test's
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'maven-local', { rclass: 'local', packageType: 'maven' });
    await createRepo(t.app, 'files-local', { rclass: 'local' });
    await createUser(t.app, 'dev');
  });
  afterAll(() => t.close());

  const publish = async (name: string, version: string) => {
    const manifest = { name, version, license: 'MIT' };
    const tarball = await packTarball({ 'package.json': JSON.stringify(manifest) });
    const { body } = await publishBody(name, version, { manifest, tarball });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/artifactory/api/npm/npm-local/${name}`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(201);
  };
  const importAdvisories = (body: Buffer | string, headers: Record<string, string> = ADMIN_BASIC, name = 'osv.zip') =>
    t.app.inject({
      method: 'POST',
      url: `/xray/api/v1/advisories/import?name=${name}`,
      headers: {
        ...headers,
        'content-type': Buffer.isBuffer(body) ? 'application/zip' : 'application/json',
      },
      payload: body,
    });
  const summary = async (paths: string[], headers: Record<string, string> = ADMIN_BASIC) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/xray/api/v1/summary/artifact',
      headers,
      payload: { paths },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      artifacts: {
        general: { path: string; component_id: string };
        scan_status: string;
        issues: {
          issue_id: string;
          severity: string;
          cves: { cve: string }[];
          components: { fixed_versions: string[] }[];
        }[];
        licenses: { name: string; full_name: string; components: string[] }[];
      }[];
      errors: { identifier: string; error: string }[];
    };
  };
  const issuesOf = async (path: string) => {
    const { artifacts } = await summary([path]);
    return artifacts[0]!.issues.map(
      (i) => `${i.issue_id} ${i.severity} fixed in ${i.components[0]!.fixed_versions.join(',')}`,
    );
  };

  it('matches what is deployed against an OSV export imported afterwards, and each new version as it arrives', async () => {
    await publish('left-pad', '1.3.0');
    await put(
      t.app,
      '/artifactory/maven-local/org/acme/parser/2.0/parser-2.0.pom',
      '<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>parser</artifactId><version>2.0</version></project>',
    );
    await put(t.app, '/artifactory/files-local/docs/readme.txt', 'not a package');
    await t.services.catalogueIndexer.drain();
    const before = await summary(['default/npm-local/left-pad/-/left-pad-1.3.0.tgz']);
    expect(before.artifacts[0]!.issues).toEqual([]);

    const res = await importAdvisories(
      zipOf({
        'npm/GHSA-test-0001.json': JSON.stringify(LEFT_PAD),
        'Maven/GHSA-test-0002.json': JSON.stringify(MAVEN),
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ added: 2, updated: 0, unchanged: 0, records: 2 });
    // the import starts the matching of the whole catalogue on a node
    await expect
      .poll(() => issuesOf('npm-local/left-pad/-/left-pad-1.3.0.tgz'))
      .toEqual(['GHSA-test-0001 High fixed in 1.3.1']);
    const { artifacts } = await summary(['npm-local/left-pad/-/left-pad-1.3.0.tgz']);
    expect(artifacts[0]).toMatchObject({
      general: { path: 'default/npm-local/left-pad/-/left-pad-1.3.0.tgz', component_id: 'npm://left-pad:1.3.0' },
      scan_status: 'scanned',
    });
    expect(artifacts[0]!.issues[0]!.cves).toEqual([{ cve: 'CVE-2026-0001' }]);
    // the licence it declares, as SPDX names it
    expect(artifacts[0]!.licenses).toEqual([
      { name: 'MIT', full_name: 'MIT License', components: ['npm://left-pad:1.3.0'] },
    ]);
    // each version is matched by whichever comes first, its own scan or the import's sweep: both in time
    await expect
      .poll(() => issuesOf('maven-local/org/acme/parser/2.0/parser-2.0.pom'))
      .toEqual(['GHSA-test-0002 Medium fixed in ']);

    // a version deployed now is matched as the catalogue records it; the fixed one has nothing
    await publish('left-pad', '1.3.1');
    await publish('left-pad', '1.2.0');
    await t.services.catalogueIndexer.drain();
    await expect
      .poll(() => issuesOf('npm-local/left-pad/-/left-pad-1.2.0.tgz'))
      .toEqual(['GHSA-test-0001 High fixed in 1.3.1']);
    await expect
      .poll(async () => (await summary(['npm-local/left-pad/-/left-pad-1.3.1.tgz'])).artifacts[0]!.scan_status)
      .toBe('scanned');
    expect(await issuesOf('npm-local/left-pad/-/left-pad-1.3.1.tgz')).toEqual([]);
    // what is no package is not supported; a path nobody may read, or none, is an error
    await t.services.scanner.sweep();
    expect((await summary(['files-local/docs/readme.txt'])).artifacts[0]!.scan_status).toBe('not scanned');
    const missing = await summary(['npm-local/left-pad/-/left-pad-9.9.9.tgz'], basic('dev', 'dev-Passw0rd'));
    expect(missing.errors).toEqual([
      { identifier: 'npm-local/left-pad/-/left-pad-9.9.9.tgz', error: 'Artifact does not exist' },
    ]);
  });

  it('scans a version now on request, from any file of it; refuses what is no package version, or not there for the caller', async () => {
    const scanNow = (path: string, headers: Record<string, string> = ADMIN_BASIC) =>
      t.app.inject({ method: 'POST', url: '/xray/ui/component/scanNow', headers, payload: { path } });
    const npm = await scanNow('npm-local/left-pad/-/left-pad-1.2.0.tgz');
    expect(npm.statusCode).toBe(200);
    expect(npm.json()).toEqual({ scan_status: 'scanned', issues: 1 });
    // a Maven version is its folder: any of its files scans it
    await put(t.app, '/artifactory/maven-local/org/acme/parser/2.0/parser-2.0.jar', 'jar bytes');
    expect((await scanNow('default/maven-local/org/acme/parser/2.0/parser-2.0.jar')).json()).toEqual({
      scan_status: 'scanned',
      issues: 1,
    });
    // and its summary is the version's, asked by any of its files
    const jar = (await summary(['maven-local/org/acme/parser/2.0/parser-2.0.jar'])).artifacts[0]!;
    expect(jar.scan_status).toBe('scanned');
    expect(jar.issues.map((i) => i.issue_id)).toEqual(['GHSA-test-0002']);
    const notPackage = await scanNow('files-local/docs/readme.txt');
    expect(notPackage.statusCode).toBe(400);
    expect(notPackage.json().errors[0].message).toBe(
      "'files-local/docs/readme.txt' is no package version: only package versions are scanned.",
    );
    // nothing there, or nothing the caller may read: the same answer
    expect((await scanNow('npm-local/left-pad/-/left-pad-9.9.9.tgz')).statusCode).toBe(404);
    expect((await scanNow('npm-local/left-pad/-/left-pad-1.2.0.tgz', basic('dev', 'dev-Passw0rd'))).statusCode).toBe(
      404,
    );
  });

  it('matches again when a record changes, and leaves the same record alone', async () => {
    const same = await importAdvisories(JSON.stringify(LEFT_PAD), ADMIN_BASIC, 'again.json');
    expect(same.json()).toEqual({ added: 0, updated: 0, unchanged: 1, records: 1 });
    // the advisory is narrowed: 1.3.0 is no longer affected
    const narrowed = {
      ...LEFT_PAD,
      modified: '2026-03-01T00:00:00Z',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'left-pad' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.5' }] }],
        },
      ],
    };
    const res = await importAdvisories(JSON.stringify([narrowed]), ADMIN_BASIC, 'narrowed.json');
    expect(res.json()).toEqual({ added: 0, updated: 1, unchanged: 0, records: 1 });
    await expect.poll(() => issuesOf('npm-local/left-pad/-/left-pad-1.3.0.tgz')).toEqual([]);
    expect(await issuesOf('npm-local/left-pad/-/left-pad-1.2.0.tgz')).toEqual(['GHSA-test-0001 High fixed in 1.2.5']);
  });

  it('refuses an upload with a bad record, naming it, and imports none of it; only administrators import', async () => {
    const count = async () =>
      (
        await t.app.db
          .selectFrom('advisories')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    const good = osv('GHSA-test-0003', '2026-02-01T00:00:00Z', [
      { package: { ecosystem: 'npm', name: 'pad-right' }, versions: ['1.0.0'] },
    ]);
    const bad = zipOf({
      'npm/GHSA-test-0003.json': JSON.stringify(good),
      'npm/GHSA-test-0004.json': JSON.stringify({ id: 'GHSA-test-0004', affected: [] }),
    });
    const refused = await importAdvisories(bad);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].message).toBe(
      "The file 'npm/GHSA-test-0004.json' of osv.zip is not an OSV record (modified: Invalid input: expected string, received undefined).",
    );
    const notJson = await importAdvisories(zipOf({ 'a.json': '{ nope' }));
    expect(notJson.json().errors[0].message).toBe("The file 'a.json' of osv.zip is not JSON.");
    const empty = await importAdvisories(zipOf({ 'README.md': 'no records' }));
    expect(empty.json().errors[0].message).toBe('osv.zip holds no OSV record (no .json file).');
    const nothing = await importAdvisories(Buffer.alloc(0));
    expect(nothing.json().errors[0].message).toBe(
      'osv.zip is empty: send an OSV export (a zip), a record or an array of records.',
    );
    expect(await count()).toEqual(before);
    const forbidden = await importAdvisories(JSON.stringify(good), basic('dev', 'dev-Passw0rd'));
    expect(forbidden.statusCode).toBe(403);
    expect(await count()).toEqual(before);
  });

  it('fetches an advisory source on request and when it is due, imports only what changed, and keeps how each fetch went', async () => {
    const feed = {
      body: zipOf({
        'npm/GHSA-feed-0001.json': JSON.stringify(
          osv(
            'GHSA-feed-0001',
            '2026-03-01T00:00:00Z',
            [
              {
                package: { ecosystem: 'npm', name: 'feed-lib' },
                ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }],
              },
            ],
            // rated by its CVSS score (7.5: High), the database naming no severity
            {
              aliases: ['CVE-2026-1501'],
              severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }],
            },
          ),
        ),
      }),
      etag: '"v1"',
      status: 200,
    };
    const asked: (string | undefined)[] = [];
    const upstream = http.createServer((req, res) => {
      asked.push(req.headers['if-none-match']);
      if (feed.status !== 200) return void res.writeHead(feed.status).end('unavailable');
      if (req.headers['if-none-match'] === feed.etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/zip', etag: feed.etag }).end(feed.body);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/npm/all.zip`;
      const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, headers = ADMIN_BASIC) =>
        t.app.inject({
          method,
          url: `/xray/api/v1/advisories/sources${path}`,
          headers,
          ...(payload ? { payload } : {}),
        });
      // bad input is refused and keeps nothing; only administrators manage sources
      expect(
        (await call('POST', '', { name: 'osv-npm', url: 'ftp://example.com/x.zip' })).json().errors[0].message,
      ).toBe('url: An advisory source is fetched over HTTP or HTTPS.');
      expect((await call('POST', '', { name: 'osv-npm', url, interval_hours: 0 })).json().errors[0].message).toBe(
        'interval_hours: Fetch at most once an hour.',
      );
      expect((await call('POST', '', { name: 'osv-npm', url }, basic('dev', 'dev-Passw0rd'))).statusCode).toBe(403);
      expect((await call('GET', '')).json()).toEqual([]);

      expect((await call('POST', '', { name: 'osv-npm', url, interval_hours: 6 })).statusCode).toBe(201);
      expect((await call('POST', '', { name: 'osv-npm', url })).json().errors[0].message).toBe(
        "Advisory source 'osv-npm' already exists.",
      );
      await publish('feed-lib', '1.0.0');
      await t.services.catalogueIndexer.drain();
      const ran = (await call('POST', '/osv-npm/run')).json();
      expect(ran).toMatchObject({
        last_outcome: 'imported',
        last_message: '1 record: 1 added, 0 updated, 0 unchanged.',
      });
      await t.services.scanner.sweep();
      expect(await issuesOf('npm-local/feed-lib/-/feed-lib-1.0.0.tgz')).toEqual(['GHSA-feed-0001 High fixed in 2.0.0']);
      const { artifacts } = await summary(['npm-local/feed-lib/-/feed-lib-1.0.0.tgz']);
      expect(artifacts[0]!.issues[0]!.cves).toEqual([
        {
          cve: 'CVE-2026-1501',
          cvss_v3_score: '7.5',
          cvss_v3_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
        },
      ]);
      // the export has not changed: the server says so, nothing is downloaded or imported
      expect((await call('POST', '/osv-npm/run')).json()).toMatchObject({ last_outcome: 'unchanged' });
      expect(asked.at(-1)).toBe('"v1"');
      // a failure is kept with the source, and imports nothing
      feed.status = 503;
      expect((await call('POST', '/osv-npm/run')).json()).toMatchObject({
        last_outcome: 'failed',
        last_message: `${url} answered HTTP 503.`,
      });
      // the scheduled job fetches the sources that are due: none before six hours have passed
      feed.status = 200;
      const before = asked.length;
      await t.app.jobs.runNow('advisory-sources');
      expect(asked.length).toBe(before);
      // a paused source is never due; the change is audited
      const paused = await call('PUT', '/osv-npm', { name: 'osv-npm', url, interval_hours: 1, enabled: false });
      expect(paused.json()).toMatchObject({ enabled: false, interval_hours: 1 });
      expect((await call('DELETE', '/osv-npm')).statusCode).toBe(204);
      expect((await call('POST', '/osv-npm/run')).json().errors[0].message).toBe(
        "Advisory source 'osv-npm' does not exist.",
      );
      const trail = await t.app.db
        .selectFrom('audit_events')
        .select('action')
        .where('target', '=', 'osv-npm')
        .orderBy('at')
        .execute();
      expect(trail.map((e) => e.action)).toEqual([
        'create advisory source',
        'run advisory source',
        'run advisory source',
        'run advisory source',
        'update advisory source',
        'delete advisory source',
      ]);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
