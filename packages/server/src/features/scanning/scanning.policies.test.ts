import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  createRepo,
  createUser,
  login,
  XHR,
  put,
  startTestApp,
  zipEntries,
  type TestApp,
} from '../../test/harness.js';
import { packTarball, publishBody } from '../../test/npm.js';
import { catalogueVersions } from '../packages/index.js';
import { blockingCandidatePages, forgetUnswept, recordScans, scansOf } from './scanning.store.js';

const advisory = (id: string, name: string, fixed: string, severity: string, cve: string) => ({
  schema_version: '1.6.0',
  id,
  modified: '2026-03-01T00:00:00Z',
  published: '2026-03-01T00:00:00Z',
  summary: `Prototype pollution in ${name}`,
  details: 'Details.',
  aliases: [cve],
  affected: [
    {
      package: { ecosystem: 'npm', name },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }],
    },
  ],
  database_specific: { severity },
});

const SECURITY_POLICY = {
  name: 'no-high',
  type: 'security',
  description: 'Nothing High or worse ships',
  rules: [{ name: 'high-and-up', criteria: { min_severity: 'High' }, actions: { block_download: { active: true } } }],
};
const WATCH = {
  general_data: { name: 'releases', description: 'What we ship', active: true },
  project_resources: { resources: [{ type: 'repository', name: 'npm-local' }] },
  assigned_policies: [{ name: 'no-high', type: 'security' }],
};

describe.each(ENGINES)('security policies on %s', (engine) => {
  let t: TestApp;
  let dev: { authorization: string };
  beforeAll(async () => {
    // webhooks are sent to a receiver of this test's
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'npm-other', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'maven-local', { rclass: 'local', packageType: 'maven' });
    dev = await createUser(t.app, 'dev');
    const readers = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/dev-read',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['ANY'], actions: { users: { dev: ['read'] } } } },
    });
    expect(readers.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = ADMIN_BASIC) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const publish = async (repo: string, name: string, version: string, license = 'MIT') => {
    const manifest = { name, version, license };
    const tarball = await packTarball({ 'package.json': JSON.stringify(manifest) });
    const { body } = await publishBody(name, version, { manifest, tarball });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/artifactory/api/npm/${repo}/${name}`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(201);
  };
  const tarball = (repo: string, name: string, version: string) =>
    t.app.inject({
      method: 'GET',
      url: `/artifactory/api/npm/${repo}/${name}/-/${name}-${version}.tgz`,
      headers: dev,
    });
  const statusOf = async (repo: string, name: string, version: string) =>
    (await tarball(repo, name, version)).statusCode;

  it('refuses bad policies, watches and ignore rules with a clear message, and keeps nothing of them', async () => {
    const bad = await call('POST', '/xray/api/v2/policies', {
      ...SECURITY_POLICY,
      name: 'refused-policy',
      rules: [{ ...SECURITY_POLICY.rules[0], criteria: { min_severity: 'Severe' } }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toContain("'Severe' is not a severity");
    const mixed = await call('POST', '/xray/api/v2/policies', {
      ...SECURITY_POLICY,
      name: 'refused-policy',
      type: 'license',
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors[0].message).toContain('a license rule sets either allowed_licenses or banned_licenses');
    const unknownPolicy = await call('POST', '/xray/api/v2/watches', {
      ...WATCH,
      general_data: { name: 'refused-watch' },
      assigned_policies: [{ name: 'no-such-policy', type: 'security' }],
    });
    expect(unknownPolicy.statusCode).toBe(400);
    expect(unknownPolicy.json().errors[0].message).toBe("Policy 'no-such-policy' does not exist.");
    const noReason = await call('POST', '/xray/api/v1/ignore_rules', {
      notes: ' ',
      ignore_filters: { vulnerabilities: ['CVE-1'] },
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0].message).toContain('An ignore rule needs a reason');
    const past = await call('POST', '/xray/api/v1/ignore_rules', {
      notes: 'accepted',
      expires_at: '2020-01-01T00:00:00Z',
      ignore_filters: { vulnerabilities: ['CVE-1'] },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors[0].message).toBe('expires_at is in the past.');
    const asDev = await call('POST', '/xray/api/v2/policies', { ...SECURITY_POLICY, name: 'refused-policy' }, dev);
    expect(asDev.statusCode).toBe(403);
    expect((await call('GET', '/xray/api/v2/policies/refused-policy')).statusCode).toBe(404);
    expect((await call('GET', '/xray/api/v2/watches/refused-watch')).statusCode).toBe(404);
    const rules = (await call('GET', '/xray/api/v1/ignore_rules')).json() as { data: { notes: string }[] };
    expect(rules.data.filter((r) => r.notes === 'accepted')).toEqual([]);
  });

  it("answers the caller's security scanning permissions: an administrator's all, anyone else's none", async () => {
    const all = { canManage: true, isWatchManager: true, isPolicyManager: true, isPolicyViewer: true };
    const none = { canManage: false, isWatchManager: false, isPolicyManager: false, isPolicyViewer: false };
    expect((await call('POST', '/xray/ui/permissions/current', {})).json()).toEqual(all);
    expect((await call('POST', '/xray/ui/permissions/current', {}, dev)).json()).toEqual(none);
    const anonymous = await t.app.inject({ method: 'POST', url: '/xray/ui/permissions/current', payload: {} });
    expect(anonymous.json()).toEqual(none);
    // the console reads the same from the signed-in user's data
    const current = await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/current', headers: dev });
    expect(current.json().xrayPermissions).toEqual(none);
  });

  it("gives a group's members the security scanning roles it has: viewers read, policy managers write policies, watch managers watches and ignore rules", async () => {
    const viewer = await createUser(t.app, 'sec-viewer');
    const policyManager = await createUser(t.app, 'sec-policies');
    const watchManager = await createUser(t.app, 'sec-watches');
    const group = async (name: string, role: string, member: string) => {
      const res = await call('PUT', `/artifactory/api/security/groups/${name}`, { [role]: true, userNames: [member] });
      expect(res.statusCode).toBe(201);
    };
    await group('sec-viewers', 'policyViewer', 'sec-viewer');
    await group('sec-policy-managers', 'policyManager', 'sec-policies');
    await group('sec-watch-managers', 'watchManager', 'sec-watches');
    // the group reads back with its role, in Artifactory's shape
    expect((await call('GET', '/artifactory/api/security/groups/sec-viewers')).json()).toMatchObject({
      policyViewer: true,
      policyManager: false,
      watchManager: false,
    });
    const permissions = async (who: { authorization: string }) =>
      (await call('POST', '/xray/ui/permissions/current', {}, who)).json();
    expect(await permissions(viewer)).toEqual({
      canManage: false,
      isWatchManager: false,
      isPolicyManager: false,
      isPolicyViewer: true,
    });
    expect(await permissions(policyManager)).toEqual({
      canManage: true,
      isWatchManager: false,
      isPolicyManager: true,
      isPolicyViewer: true,
    });
    const current = await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/current', headers: watchManager });
    expect(current.json().xrayPermissions).toEqual({
      canManage: true,
      isWatchManager: true,
      isPolicyManager: false,
      isPolicyViewer: true,
    });

    const policy = { ...SECURITY_POLICY, name: 'roles-policy' };
    const watch = {
      general_data: { name: 'roles-watch', active: false },
      project_resources: { resources: [{ type: 'repository', name: 'npm-other' }] },
      assigned_policies: [{ name: 'roles-policy', type: 'security' }],
    };
    const rule = { notes: 'accepted', ignore_filters: { vulnerabilities: ['CVE-2026-9999'] } };
    // someone without a role reads nothing; a viewer reads but writes nothing
    expect((await call('GET', '/xray/api/v2/policies', undefined, dev)).statusCode).toBe(403);
    expect((await call('GET', '/xray/api/v2/policies', undefined, viewer)).statusCode).toBe(200);
    expect((await call('GET', '/xray/api/v1/ignore_rules', undefined, viewer)).statusCode).toBe(200);
    const refused = await call('POST', '/xray/api/v2/policies', policy, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].message).toBe('Managing security policies requires the policy manager role.');
    // a policy manager writes policies, not watches; a watch manager writes watches and ignore rules, not policies
    expect((await call('POST', '/xray/api/v2/policies', policy, policyManager)).statusCode).toBe(201);
    expect((await call('POST', '/xray/api/v2/watches', watch, policyManager)).json().errors[0].message).toBe(
      'Managing watches and ignore rules requires the watch manager role.',
    );
    expect((await call('DELETE', '/xray/api/v2/policies/roles-policy', undefined, watchManager)).statusCode).toBe(403);
    expect((await call('POST', '/xray/api/v2/watches', watch, watchManager)).statusCode).toBe(201);
    expect((await call('POST', '/xray/api/v1/ignore_rules', rule, policyManager)).statusCode).toBe(403);
    const created = await call('POST', '/xray/api/v1/ignore_rules', rule, watchManager);
    expect(created.statusCode).toBe(201);
    // who did it is on record
    const trail = await t.app.db
      .selectFrom('audit_events')
      .select(['actor', 'action'])
      .where('target', 'in', ['roles-policy', 'roles-watch'])
      .execute();
    expect(trail.map((e) => `${e.actor} ${e.action}`).sort()).toEqual([
      'sec-policies create policy',
      'sec-watches create watch',
    ]);
    // taking the role away takes the right away at once
    expect(
      (await call('POST', '/artifactory/api/security/groups/sec-watch-managers', { watchManager: false })).statusCode,
    ).toBe(200);
    expect((await call('DELETE', '/xray/api/v2/watches/roles-watch', undefined, watchManager)).statusCode).toBe(403);
    expect((await call('DELETE', '/xray/api/v2/watches/roles-watch')).statusCode).toBe(200);
    expect((await call('DELETE', '/xray/api/v2/policies/roles-policy', undefined, policyManager)).statusCode).toBe(200);
  });

  it('blocks the download of a version a watched policy catches, names the advisory, and lets an ignore rule through', async () => {
    await publish('npm-local', 'qs-lite', '1.0.0');
    await publish('npm-local', 'qs-lite', '1.1.0');
    await publish('npm-local', 'mild', '1.0.0');
    await publish('npm-other', 'qs-lite', '1.0.0');
    await t.services.catalogueIndexer.drain();
    const imported = await call('POST', '/xray/api/v1/advisories/import?name=test.json', [
      advisory('GHSA-qs-0001', 'qs-lite', '1.1.0', 'HIGH', 'CVE-2026-1001'),
      advisory('GHSA-mild-0001', 'mild', '1.0.1', 'LOW', 'CVE-2026-1002'),
    ]);
    expect(imported.statusCode).toBe(200);
    await t.services.scanner.sweep();

    expect((await call('POST', '/xray/api/v2/policies', SECURITY_POLICY)).statusCode).toBe(201);
    expect((await call('POST', '/xray/api/v2/policies', SECURITY_POLICY)).json().errors[0].message).toBe(
      "Policy 'no-high' already exists.",
    );
    // a policy alone blocks nothing: a watch applies it
    expect(await statusOf('npm-local', 'qs-lite', '1.0.0')).toBe(200);
    expect((await call('POST', '/xray/api/v2/watches', WATCH)).statusCode).toBe(201);
    // both read back as written, with who made them
    expect((await call('GET', '/xray/api/v2/policies')).json()).toContainEqual(
      expect.objectContaining({
        name: 'no-high',
        rules: [expect.objectContaining({ criteria: { min_severity: 'High', allow_unknown: true } })],
        author: 'admin',
      }),
    );
    expect((await call('GET', '/xray/api/v2/watches/releases')).json()).toMatchObject({ ...WATCH, author: 'admin' });

    const blocked = await tarball('npm-local', 'qs-lite', '1.0.0');
    expect(blocked.statusCode).toBe(403);
    const message =
      "Download of qs-lite@1.0.0 blocked by policy 'no-high' of watch 'releases': GHSA-qs-0001 (CVE-2026-1001), severity High: Prototype pollution in qs-lite. Fixed in 1.1.0.";
    expect(blocked.json().errors[0].message).toBe(message);
    expect(blocked.statusMessage).toBe(message);
    // the fixed version, a Low finding and an unwatched repository are served
    expect(await statusOf('npm-local', 'qs-lite', '1.1.0')).toBe(200);
    expect(await statusOf('npm-local', 'mild', '1.0.0')).toBe(200);
    expect(await statusOf('npm-other', 'qs-lite', '1.0.0')).toBe(200);

    // an ignore rule for another package changes nothing; one for this advisory lets it through
    const other = await call('POST', '/xray/api/v1/ignore_rules', {
      notes: 'not used in production',
      ignore_filters: { vulnerabilities: ['CVE-2026-1001'], components: [{ name: 'npm://mild' }] },
    });
    expect(other.statusCode).toBe(201);
    const otherId = /id: (\S+)$/.exec(other.json().info)![1]!;
    expect(await statusOf('npm-local', 'qs-lite', '1.0.0')).toBe(403);
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    const rule = await call('POST', '/xray/api/v1/ignore_rules', {
      notes: 'Accepted until the upgrade: the parser is not reachable from input',
      expires_at: expires,
      ignore_filters: { vulnerabilities: ['CVE-2026-1001'], components: [{ name: 'npm://qs-lite', version: '1.0.0' }] },
    });
    expect(rule.statusCode).toBe(201);
    const id = /id: (\S+)$/.exec(rule.json().info)![1]!;
    expect(await statusOf('npm-local', 'qs-lite', '1.0.0')).toBe(200);
    const listed = (await call('GET', `/xray/api/v1/ignore_rules/${id}`)).json();
    expect(listed).toMatchObject({
      notes: expect.stringContaining('Accepted until'),
      author: 'admin',
      is_expired: false,
    });
    expect(Date.parse(listed.expires_at)).toBe(Date.parse(expires));

    // removing the rule blocks again; the trail has who did what
    expect((await call('DELETE', `/xray/api/v1/ignore_rules/${id}`)).statusCode).toBe(200);
    expect(await statusOf('npm-local', 'qs-lite', '1.0.0')).toBe(403);
    const trail = await t.app.db
      .selectFrom('audit_events')
      .select(['action', 'target', 'actor'])
      .where('category', '=', 'security')
      .where('action', 'in', ['create policy', 'create watch', 'create ignore rule', 'delete ignore rule'])
      .where('target', 'in', ['no-high', 'releases', id, otherId])
      .execute();
    expect(trail.map((e) => `${e.actor} ${e.action}`).sort()).toEqual([
      'admin create ignore rule',
      'admin create ignore rule',
      'admin create policy',
      'admin create watch',
      'admin delete ignore rule',
    ]);

    // a new vulnerable version is blocked as soon as it is scanned
    await publish('npm-local', 'qs-lite', '0.9.0');
    await t.services.catalogueIndexer.drain();
    await expect.poll(() => statusOf('npm-local', 'qs-lite', '0.9.0')).toBe(403);

    // a policy a watch applies cannot go; an inactive watch blocks nothing
    expect((await call('DELETE', '/xray/api/v2/policies/no-high')).json().errors[0].message).toBe(
      "Policy 'no-high' is applied by watch 'releases'; remove it from the watch first.",
    );
    const paused = { ...WATCH, general_data: { ...WATCH.general_data, active: false } };
    expect((await call('PUT', '/xray/api/v2/watches/releases', paused)).statusCode).toBe(200);
    expect(await statusOf('npm-local', 'qs-lite', '1.0.0')).toBe(200);
    expect((await call('PUT', '/xray/api/v2/watches/releases', WATCH)).statusCode).toBe(200);
  });

  it('reads what may be blocked page by page: the same rows as one read, each version once, in key order', async () => {
    await createRepo(t.app, 'npm-paged', { rclass: 'local', packageType: 'npm' });
    for (const version of ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '2.1.0']) await publish('npm-paged', 'paged', version);
    await t.services.catalogueIndexer.drain();
    // two advisories on the 1.x line: those versions have two findings each (two rows)
    const imported = await call('POST', '/xray/api/v1/advisories/import?name=paged.json', [
      advisory('GHSA-paged-0001', 'paged', '2.0.0', 'HIGH', 'CVE-2026-1101'),
      advisory('GHSA-paged-0002', 'paged', '1.2.0', 'LOW', 'CVE-2026-1102'),
    ]);
    expect(imported.statusCode).toBe(200);
    await t.services.scanner.sweep();
    const read = async (all: boolean, size: number) => {
      const pages = [];
      for await (const rows of blockingCandidatePages(t.app.db, ['npm-paged'], all, size))
        pages.push(rows.map((r) => `${r.lead_path} ${r.advisory_id ?? '-'}`).sort());
      return pages;
    };
    const whole = (await read(true, 1000)).flat();
    expect(whole).toEqual([
      'paged/-/paged-1.0.0.tgz GHSA-paged-0001',
      'paged/-/paged-1.0.0.tgz GHSA-paged-0002',
      'paged/-/paged-1.1.0.tgz GHSA-paged-0001',
      'paged/-/paged-1.1.0.tgz GHSA-paged-0002',
      'paged/-/paged-1.2.0.tgz GHSA-paged-0001',
      'paged/-/paged-2.0.0.tgz -',
      'paged/-/paged-2.1.0.tgz -',
    ]);
    // pages of two versions: a version's findings never split across pages
    const paged = await read(true, 2);
    expect(paged.map((p) => p.length)).toEqual([4, 2, 1]);
    expect(paged.flat()).toEqual(whole);
    // only the versions with findings
    expect((await read(false, 1)).map((p) => p.length)).toEqual([2, 2, 1]);
  });

  it('keeps the scan of a version matched before a sweep began and recorded after the sweep saw it', async () => {
    const key = { repo_key: 'npm-paged', lead_path: 'paged/-/paged-2.1.0.tgz' };
    const version = (await catalogueVersions(t.app.db, '', 10_000)).find(
      (v) => v.repo_key === key.repo_key && v.lead_path === key.lead_path,
    );
    // a sweep begun now sees every catalogued version: each is marked at its start or later
    const started = Date.now();
    await t.services.scanner.sweep();
    // the matching a deploy began before that sweep commits now, with its older mark
    await t.services.scanner.scan([version!], started - 60_000);
    // what that sweep's end forgets is only what it did not see: nothing here
    expect(await forgetUnswept(t.app.db, started)).toEqual([]);
    const [kept] = await scansOf(t.app.db, [key]);
    expect(kept?.status).toBe('scanned');
    expect(Number(kept?.swept_at)).toBeGreaterThanOrEqual(started);
  });

  it('records matchings of one version that commit at once one after the other: each licence is new to one of them', async () => {
    const now = Date.now();
    const scan = {
      repo_key: 'npm-race',
      lead_path: 'race/-/race-1.0.0.tgz',
      package_type: 'npm',
      name: 'race',
      version: '1.0.0',
      sha256: 'a'.repeat(64),
      licenses: JSON.stringify([{ id: 'GPL-3.0-only', name: 'GNU General Public License v3.0 only' }]),
      status: 'scanned',
      message: '',
      scanned_at: now,
      advisories_at: 0,
      swept_at: now,
      installed: '',
    };
    const told: string[] = [];
    const newlyFound = async (_trx: unknown, _result: unknown, _added: Set<string>, licencesNew: boolean) => {
      if (licencesNew) told.push('licences');
      return [];
    };
    try {
      const changed = await Promise.all(
        [1, 2, 3, 4].map(() => recordScans(t.app.db, [{ scan, findings: [] }], { newlyFound })),
      );
      expect(told).toEqual(['licences']);
      // the first scan is a change for one of them only
      expect(changed.flat()).toEqual([{ repo_key: 'npm-race', lead_path: 'race/-/race-1.0.0.tgz' }]);
    } finally {
      await t.app.db.deleteFrom('package_scans').where('repo_key', '=', 'npm-race').execute();
    }
  });

  it('counts what the scans found in the repositories the caller may read: versions by status, open issues by severity', async () => {
    await createRepo(t.app, 'npm-stats', { rclass: 'local', packageType: 'npm' });
    await publish('npm-stats', 'stat-a', '1.0.0');
    await publish('npm-stats', 'stat-a', '2.0.0');
    await publish('npm-stats', 'stat-b', '1.0.0');
    await t.services.catalogueIndexer.drain();
    const imported = await call('POST', '/xray/api/v1/advisories/import?name=stats.json', [
      advisory('GHSA-stat-0001', 'stat-a', '2.0.0', 'CRITICAL', 'CVE-2026-1201'),
      advisory('GHSA-stat-0002', 'stat-a', '2.0.0', 'MODERATE', 'CVE-2026-1202'),
      advisory('GHSA-stat-0003', 'stat-b', '1.0.1', 'LOW', 'CVE-2026-1203'),
    ]);
    expect(imported.statusCode).toBe(200);
    await t.services.scanner.sweep();
    const whole = await createUser(t.app, 'stats-reader');
    const part = await createUser(t.app, 'stats-part');
    const grant = async (name: string, user: string, includes: string[]) => {
      const res = await call('PUT', `/artifactory/api/v2/security/permissions/${name}`, {
        repo: { repositories: ['npm-stats'], 'include-patterns': includes, actions: { users: { [user]: ['read'] } } },
      });
      expect(res.statusCode).toBe(201);
    };
    await grant('stats-all', 'stats-reader', ['**']);
    await grant('stats-b', 'stats-part', ['stat-b/**']);
    const stats = async (who: { authorization: string }) =>
      (await call('GET', '/xray/ui/unified/stats/indexStatus', undefined, who)).json();
    expect(await stats(whole)).toEqual({
      statuses: { scanned: 3 },
      severities: [
        { severity: 'Critical', count: 1 },
        { severity: 'High', count: 0 },
        { severity: 'Medium', count: 1 },
        { severity: 'Low', count: 1 },
        { severity: 'Unknown', count: 0 },
      ],
      affectedVersions: 2,
    });
    // a reader of part of the repository counts that part only
    expect(await stats(part)).toMatchObject({
      statuses: { scanned: 1 },
      severities: expect.arrayContaining([
        { severity: 'Critical', count: 0 },
        { severity: 'Low', count: 1 },
      ]),
      affectedVersions: 1,
    });

    // the security scanning search: by CVE id (any case), advisory id or package name, of what the caller may read
    const search = async (query: string, who: { authorization: string }) =>
      call('GET', `/xray/ui/search/vulnerabilities?query=${encodeURIComponent(query)}`, undefined, who);
    const found = (await search('cve-2026-1201', whole)).json();
    expect(found).toEqual({
      results: [
        expect.objectContaining({
          repoKey: 'npm-stats',
          path: 'stat-a/-/stat-a-1.0.0.tgz',
          name: 'stat-a',
          version: '1.0.0',
          advisory: 'GHSA-stat-0001',
          cves: ['CVE-2026-1201'],
          severity: 'Critical',
          fixedVersions: ['2.0.0'],
        }),
      ],
      truncated: false,
    });
    expect((await search('GHSA-stat-0002', whole)).json().results).toHaveLength(1);
    expect((await search('stat-b', whole)).json().results.map((r: { advisory: string }) => r.advisory)).toEqual([
      'GHSA-stat-0003',
    ]);
    // what the caller may not read is not found
    expect((await search('CVE-2026-1201', part)).json().results).toEqual([]);
    const blank = await search(' ', whole);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors[0].message).toContain('Type an advisory id, a CVE id or a package name.');
  });

  it('tells the webhooks a rule names of each violation a scan newly finds, once', async () => {
    const arrivals: { subscription_key: string; event_type: string; data: Record<string, unknown> }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        arrivals.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const subscribe = async (key: string, domain: string, types: string[], criteria: object = {}) =>
        expect(
          (
            await call('POST', '/event/api/v1/subscriptions', {
              key,
              enabled: true,
              event_filter: { domain, event_types: types, criteria },
              handlers: [{ url }],
            })
          ).statusCode,
        ).toBe(201);
      await subscribe('violations', 'security', ['violation_detected']);
      await subscribe('deploys', 'artifact', ['deployed'], { anyLocal: true });
      await createRepo(t.app, 'npm-notify', { rclass: 'local', packageType: 'npm' });
      const policy = (webhooks: string[]) => ({
        name: 'tell-high',
        type: 'security',
        rules: [{ name: 'high', criteria: { min_severity: 'High' }, actions: { webhooks } }],
      });
      // a rule names webhooks that exist and listen to violations
      expect((await call('POST', '/xray/api/v2/policies', policy(['nowhere']))).json().errors[0].message).toBe(
        "Rule 'high': webhook 'nowhere' does not exist.",
      );
      expect((await call('POST', '/xray/api/v2/policies', policy(['deploys']))).json().errors[0].message).toBe(
        "Rule 'high': webhook 'deploys' is not told of security violations; choose the Security violation event for it.",
      );
      expect((await call('POST', '/xray/api/v2/policies', policy(['violations']))).statusCode).toBe(201);
      const watch = {
        general_data: { name: 'notify-watch', active: true },
        project_resources: { resources: [{ type: 'repository', name: 'npm-notify' }] },
        assigned_policies: [{ name: 'tell-high', type: 'security' }],
      };
      expect((await call('POST', '/xray/api/v2/watches', watch)).statusCode).toBe(201);

      await publish('npm-notify', 'notify-lib', '1.0.0');
      await t.services.catalogueIndexer.drain();
      const imported = await call('POST', '/xray/api/v1/advisories/import?name=notify.json', [
        advisory('GHSA-notify-0001', 'notify-lib', '1.0.1', 'HIGH', 'CVE-2026-1301'),
        advisory('GHSA-notify-0002', 'notify-lib', '1.0.1', 'LOW', 'CVE-2026-1302'),
      ]);
      expect(imported.statusCode).toBe(200);
      await t.services.scanner.sweep();
      const settle = async () => {
        await t.services.webhooks.consumer.drain();
        await t.services.webhooks.sender.drain();
      };
      const told = () => arrivals.filter((a) => a.subscription_key === 'violations');
      // the High advisory only (the Low one is below the rule), with what a receiver acts on; the
      // import's own sweep may be the one that finds it, a moment later
      await expect
        .poll(async () => {
          await settle();
          return told().length;
        })
        .toBe(1);
      expect(told()).toEqual([
        expect.objectContaining({
          event_type: 'violation_detected',
          data: expect.objectContaining({
            watch_name: 'notify-watch',
            policy_name: 'tell-high',
            rule_name: 'high',
            issue_id: 'GHSA-notify-0001',
            cves: ['CVE-2026-1301'],
            severity: 'High',
            fixed_versions: ['1.0.1'],
            repo_key: 'npm-notify',
            path: 'notify-lib/-/notify-lib-1.0.0.tgz',
            package_name: 'notify-lib',
            package_version: '1.0.0',
          }),
        }),
      ]);
      // matching again finds nothing new: nothing more is sent
      await t.services.scanner.sweep();
      await settle();
      expect(told()).toHaveLength(1);
      // a new vulnerable version is told as soon as it is scanned
      await publish('npm-notify', 'notify-lib', '0.9.0');
      await t.services.catalogueIndexer.drain();
      await expect
        .poll(async () => {
          await settle();
          return told().map((a) => a.data.package_version);
        })
        .toEqual(['1.0.0', '0.9.0']);
      expect((await call('DELETE', '/xray/api/v2/watches/notify-watch')).statusCode).toBe(200);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('blocks by license (a banned one), and a Maven version as its whole folder', async () => {
    await publish('npm-local', 'copyleft', '1.0.0', 'GPL-3.0-only');
    await put(
      t.app,
      '/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.pom',
      '<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>lib</artifactId><version>1.0</version><licenses><license><name>GPL-3.0-only</name></license></licenses></project>',
    );
    await put(t.app, '/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.jar', 'jar bytes');
    await t.services.catalogueIndexer.drain();
    await t.services.scanner.sweep();
    const licenses = {
      name: 'no-gpl',
      type: 'license',
      rules: [
        {
          name: 'banned',
          criteria: { banned_licenses: ['GPL-3.0-only'], allow_unknown: true },
          actions: { block_download: { active: true } },
        },
      ],
    };
    expect((await call('POST', '/xray/api/v2/policies', licenses)).statusCode).toBe(201);
    expect(
      (
        await call('POST', '/xray/api/v2/watches', {
          general_data: { name: 'everything' },
          project_resources: { resources: [{ type: 'all-repos' }] },
          assigned_policies: [{ name: 'no-gpl', type: 'license' }],
        })
      ).statusCode,
    ).toBe(201);
    const blocked = await tarball('npm-local', 'copyleft', '1.0.0');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().errors[0].message).toBe(
      "Download of copyleft@1.0.0 blocked by policy 'no-gpl' of watch 'everything': The license GPL-3.0-only is banned by policy 'no-gpl'.",
    );
    expect(await statusOf('npm-other', 'qs-lite', '1.0.0')).toBe(200);
    for (const file of ['lib-1.0.pom', 'lib-1.0.jar'])
      expect((await call('GET', `/artifactory/maven-local/org/acme/lib/1.0/${file}`)).statusCode).toBe(403);
    // the license set aside by a rule naming it
    await call('POST', '/xray/api/v1/ignore_rules', {
      notes: 'Internal tool, not distributed',
      ignore_filters: { licenses: ['GPL-3.0-only'], watches: ['everything'] },
    });
    expect(await statusOf('npm-local', 'copyleft', '1.0.0')).toBe(200);
    expect((await call('GET', '/artifactory/maven-local/org/acme/lib/1.0/lib-1.0.jar')).statusCode).toBe(200);
  });

  it('exports the SBOM of a package version: CycloneDX with its dependencies and vulnerabilities, SPDX with its license', async () => {
    await createRepo(t.app, 'npm-sbom', { rclass: 'local', packageType: 'npm' });
    await publish('npm-sbom', 'deep-merge', '1.0.0');
    const manifest = {
      name: 'app-core',
      version: '2.0.0',
      license: 'Apache-2.0',
      dependencies: { 'deep-merge': '^1.0.0' },
    };
    const tarball = await packTarball({ 'package.json': JSON.stringify(manifest) });
    const { body } = await publishBody('app-core', '2.0.0', { manifest, tarball });
    const published = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/npm/npm-sbom/app-core',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(published.statusCode, published.body).toBe(201);
    await t.services.catalogueIndexer.drain();
    await call('POST', '/xray/api/v1/advisories/import?name=sbom.json', [
      advisory('GHSA-dm-0001', 'deep-merge', '1.0.2', 'MODERATE', 'CVE-2026-1003'),
    ]);
    await t.services.scanner.sweep();
    const none = await call('POST', '/xray/api/v1/component/exportDetails', {
      path: 'npm-sbom/app-core/-/app-core-2.0.0.tgz',
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors[0].message).toBe('Choose an SBOM format: cyclonedx, spdx or both.');
    const missing = await call('POST', '/xray/api/v1/component/exportDetails', {
      path: 'npm-other/nothing.tgz',
      spdx: true,
    });
    expect(missing.statusCode).toBe(404);

    const res = await call('POST', '/xray/api/v1/component/exportDetails', {
      path: 'default/npm-sbom/app-core/-/app-core-2.0.0.tgz',
      cyclonedx: true,
      spdx: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await zipEntries(res.rawPayload);
    expect(Object.keys(files).sort()).toEqual(['app-core-2.0.0.cdx.json', 'app-core-2.0.0.spdx.json']);
    const cdx = JSON.parse(files['app-core-2.0.0.cdx.json']!);
    expect(cdx).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
    expect(cdx.metadata.component).toMatchObject({
      name: 'app-core',
      version: '2.0.0',
      purl: 'pkg:npm/app-core@2.0.0',
      licenses: [{ license: { id: 'Apache-2.0' } }],
    });
    expect(cdx.components).toEqual([
      expect.objectContaining({
        name: 'deep-merge',
        purl: 'pkg:npm/deep-merge',
        properties: [{ name: 'arca:required-range', value: '^1.0.0' }],
      }),
    ]);
    expect(cdx.vulnerabilities).toEqual([]);
    const sbom = JSON.parse(files['app-core-2.0.0.spdx.json']!);
    expect(sbom).toMatchObject({ spdxVersion: 'SPDX-2.3', dataLicense: 'CC0-1.0', SPDXID: 'SPDXRef-DOCUMENT' });
    expect(sbom.packages[0]).toMatchObject({ name: 'app-core', versionInfo: '2.0.0', licenseDeclared: 'Apache-2.0' });
    expect(sbom.relationships.map((r: { relationshipType: string }) => r.relationshipType)).toEqual([
      'DESCRIBES',
      'DEPENDS_ON',
    ]);

    // a vulnerable version lists its advisory with the fix
    const vulnerable = await call('POST', '/xray/api/v1/component/exportDetails', {
      path: 'npm-sbom/deep-merge/-/deep-merge-1.0.0.tgz',
      cyclonedx: true,
    });
    const [document] = Object.values(await zipEntries(vulnerable.rawPayload));
    expect(JSON.parse(document!).vulnerabilities).toEqual([
      expect.objectContaining({
        id: 'GHSA-dm-0001',
        ratings: [{ severity: 'medium' }],
        recommendation: 'Upgrade to 1.0.2.',
        affects: [{ ref: 'pkg:npm/deep-merge@1.0.0' }],
      }),
    ]);
  });

  it("scans a build: its dependencies' violations under the watches of the build, failing it where a rule says so", async () => {
    await createRepo(t.app, 'npm-build', { rclass: 'local', packageType: 'npm' });
    await publish('npm-build', 'old-parser', '2.0.0');
    await t.services.catalogueIndexer.drain();
    await call('POST', '/xray/api/v1/advisories/import?name=build.json', [
      advisory('GHSA-op-0001', 'old-parser', '2.0.1', 'CRITICAL', 'CVE-2026-1004'),
    ]);
    await t.services.scanner.sweep();
    const tarball = await t.app.inject({
      method: 'GET',
      url: '/artifactory/npm-build/old-parser/-/old-parser-2.0.0.tgz',
      headers: ADMIN_BASIC,
    });
    const sha1 = tarball.headers['x-checksum-sha1'] as string;
    const build = await call('PUT', '/artifactory/api/build', {
      version: '1.0.1',
      name: 'web-app',
      number: '7',
      started: '2026-05-01T10:00:00.000+0000',
      modules: [{ id: 'web-app', artifacts: [], dependencies: [{ id: 'old-parser:2.0.0', type: 'tgz', sha1 }] }],
    });
    expect(build.statusCode).toBe(204);
    const scanBuild = async () =>
      (await call('POST', '/xray/api/v1/scanBuild', { buildName: 'web-app', buildNumber: '7' })).json();
    // no watch covers the build: nothing to say
    expect((await scanBuild()).summary).toMatchObject({ total_alerts: 0, fail_build: false });

    await call('POST', '/xray/api/v2/policies', {
      name: 'gate',
      type: 'security',
      rules: [{ name: 'critical', criteria: { min_severity: 'Critical' }, actions: { fail_build: true } }],
    });
    await call('POST', '/xray/api/v2/watches', {
      general_data: { name: 'ci' },
      project_resources: { resources: [{ type: 'build', name: 'web-app' }] },
      assigned_policies: [{ name: 'gate', type: 'security' }],
    });
    const scanned = await scanBuild();
    expect(scanned.summary).toMatchObject({ total_alerts: 1, fail_build: true });
    expect(scanned.alerts[0].watch_name).toBe('ci');
    expect(scanned.alerts[0].issues[0]).toMatchObject({
      issue_id: 'GHSA-op-0001',
      cve: 'CVE-2026-1004',
      severity: 'Critical',
      fixed_versions: ['2.0.1'],
      impacted_artifacts: [{ path: 'default/npm-build/old-parser/-/old-parser-2.0.0.tgz', name: 'old-parser:2.0.0' }],
    });
    // a build rule fails builds, it blocks no download
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/artifactory/npm-build/old-parser/-/old-parser-2.0.0.tgz',
          headers: dev,
        })
      ).statusCode,
    ).toBe(200);
    const unknown = await call('POST', '/xray/api/v1/scanBuild', { buildName: 'web-app', buildNumber: '8' });
    expect(unknown.json().errors[0].message).toBe("Build 'web-app' number '8' does not exist.");
  });

  it('exports the SBOM of a build (what it produced and used) and of a release bundle, each file as its package version', async () => {
    await createRepo(t.app, 'npm-bom', { rclass: 'local', packageType: 'npm' });
    await publish('npm-bom', 'bom-app', '1.0.0', 'Apache-2.0');
    await publish('npm-bom', 'bom-dep', '1.0.0');
    await t.services.catalogueIndexer.drain();
    await call('POST', '/xray/api/v1/advisories/import?name=bom.json', [
      advisory('GHSA-bom-0001', 'bom-dep', '1.0.1', 'HIGH', 'CVE-2026-1401'),
    ]);
    await t.services.scanner.sweep();
    const checksums = async (path: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/artifactory/npm-bom/${path}`, headers: ADMIN_BASIC });
      return { sha1: res.headers['x-checksum-sha1'] as string, sha256: res.headers['x-checksum-sha256'] as string };
    };
    const app = await checksums('bom-app/-/bom-app-1.0.0.tgz');
    const dep = await checksums('bom-dep/-/bom-dep-1.0.0.tgz');
    const build = await call('PUT', '/artifactory/api/build', {
      version: '1.0.1',
      name: 'bom-build',
      number: '3',
      started: '2026-05-01T10:00:00.000+0000',
      modules: [
        {
          id: 'bom-app',
          artifacts: [{ name: 'bom-app-1.0.0.tgz', type: 'tgz', sha1: app.sha1 }],
          dependencies: [{ id: 'bom-dep:1.0.0', type: 'tgz', sha1: dep.sha1 }],
        },
      ],
    });
    expect(build.statusCode).toBe(204);
    const exported = async (body: object) => {
      const res = await call('POST', '/xray/api/v1/component/exportDetails', { cyclonedx: true, spdx: true, ...body });
      expect(res.statusCode, res.body).toBe(200);
      return zipEntries(res.rawPayload);
    };
    const files = await exported({ package_type: 'build', component_name: 'bom-build:3' });
    expect(Object.keys(files).sort()).toEqual(['bom-build-3.cdx.json', 'bom-build-3.spdx.json']);
    const cdx = JSON.parse(files['bom-build-3.cdx.json']!);
    expect(cdx.metadata.component).toMatchObject({ type: 'application', name: 'bom-build', version: '3' });
    const scopes = Object.fromEntries(
      cdx.components.map((c: { purl: string; properties: { name: string; value: string }[] }) => [
        c.purl,
        c.properties.find((p) => p.name === 'arca:scope')!.value,
      ]),
    );
    expect(scopes).toEqual({ 'pkg:npm/bom-app@1.0.0': 'produced', 'pkg:npm/bom-dep@1.0.0': 'used' });
    expect(cdx.components.find((c: { name: string }) => c.name === 'bom-app')).toMatchObject({
      hashes: [{ alg: 'SHA-256', content: app.sha256 }],
      licenses: [{ license: { id: 'Apache-2.0' } }],
    });
    expect(cdx.vulnerabilities).toEqual([
      expect.objectContaining({ id: 'GHSA-bom-0001', affects: [{ ref: 'pkg:npm/bom-dep@1.0.0' }] }),
    ]);
    const document = JSON.parse(files['bom-build-3.spdx.json']!);
    const named = (id: string) => document.packages.find((p: { SPDXID: string }) => p.SPDXID === id).name;
    expect(
      document.relationships
        .filter((r: { relationshipType: string }) => r.relationshipType !== 'DESCRIBES')
        .map(
          (r: { relationshipType: string; relatedSpdxElement: string }) =>
            `${r.relationshipType} ${named(r.relatedSpdxElement)}`,
        )
        .sort(),
    ).toEqual(['CONTAINS bom-app', 'DEPENDS_ON bom-dep']);

    // a release bundle of the two tarballs
    const admin = { ...XHR, cookie: (await login(t.app)).cookie, 'content-type': 'application/json' };
    const pair = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/security/keyPairs',
      headers: admin,
      payload: { pairName: 'bom-gpg', pairType: 'GPG', alias: 'bom@example.org' },
    });
    expect(pair.statusCode).toBe(201);
    const bundle = await t.app.inject({
      method: 'POST',
      url: '/lifecycle/api/v2/release_bundle',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json', 'x-jfrog-signing-key-name': 'bom-gpg' },
      payload: {
        release_bundle_name: 'bom-release',
        release_bundle_version: '2.0.0',
        source_type: 'artifacts',
        source: {
          artifacts: [{ path: 'npm-bom/bom-app/-/bom-app-1.0.0.tgz' }, { path: 'npm-bom/bom-dep/-/bom-dep-1.0.0.tgz' }],
        },
      },
    });
    expect(bundle.statusCode, bundle.body).toBe(201);
    const bundleCdx = JSON.parse(
      (await exported({ package_type: 'releaseBundle', component_name: 'bom-release:2.0.0' }))[
        'bom-release-2.0.0.cdx.json'
      ]!,
    );
    expect(bundleCdx.components.map((c: { purl: string }) => c.purl).sort()).toEqual([
      'pkg:npm/bom-app@1.0.0',
      'pkg:npm/bom-dep@1.0.0',
    ]);
    expect(bundleCdx.vulnerabilities.map((v: { id: string }) => v.id)).toEqual(['GHSA-bom-0001']);

    // what does not exist, or is named wrongly, says so
    const missing = await call('POST', '/xray/api/v1/component/exportDetails', {
      cyclonedx: true,
      package_type: 'build',
      component_name: 'bom-build:4',
    });
    expect(missing.json().errors[0].message).toBe("Build 'bom-build' number '4' does not exist.");
    const unnamed = await call('POST', '/xray/api/v1/component/exportDetails', {
      cyclonedx: true,
      package_type: 'build',
      component_name: 'bom-build',
    });
    expect(unnamed.json().errors[0].message).toBe("component_name is '{name}:{number}' for a build.");
  });
});
