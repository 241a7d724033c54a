import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, XHR, createRepo, createUser, startTestApp, type TestApp } from '../../test/harness.js';
import { packTarball, publishBody } from '../../test/npm.js';

const MDS = '/ui/api/v1/mds';

describe.each(ENGINES)('package catalogue on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'npm-team', { rclass: 'local', packageType: 'npm' });
  });
  afterEach(async () => {
    await t.close();
  });

  const publish = async (repo: string, name: string, version: string, manifest: Record<string, unknown> = {}) => {
    const full = { name, version, description: `${name} ${version}`, ...manifest };
    const tarball = await packTarball({
      'package.json': JSON.stringify(full),
      'README.md': `# ${name}\n\n<script>alert(1)</script>`,
    });
    const { body } = await publishBody(name, version, { manifest: full, tarball });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/artifactory/api/npm/${repo}/${encodeURIComponent(name)}`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(201);
  };
  const graph = async (call: string, query: string, headers: Record<string, string> = ADMIN_BASIC) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${MDS}/${call}`,
      headers: { ...headers, ...XHR },
      payload: { query },
    });
    return {
      status: res.statusCode,
      // answers are read as loose JSON: each test names the fields its query asked for
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      body: res.json() as { data: Record<string, any>; errors?: { message: string }[] },
    };
  };
  const names = async (query = '{ packages { edges { node { name } } } }', headers?: Record<string, string>) =>
    (await graph('packages', query, headers)).body.data.packages.edges.map(
      (e: { node: { name: string } }) => e.node.name,
    );

  it('lists published packages with their versions, newest first, and forgets what is deleted', async () => {
    await publish('npm-local', 'left-pad', '1.0.0', { license: 'MIT', keywords: ['pad'] });
    await publish('npm-local', 'left-pad', '1.10.0', { license: 'MIT', dependencies: { 'right-pad': '^2.0.0' } });
    await publish('npm-local', 'left-pad', '1.9.0-beta.1');
    await publish('npm-team', '@acme/app', '2.0.0', { dependencies: { 'left-pad': '^1.0.0' } });
    await t.services.catalogueIndexer.drain();

    // name ascending by default; wildcards; a page and a cursor
    expect(await names()).toEqual(['@acme/app', 'left-pad']);
    expect(await names('{ packages(filter: { lowercase_name: "*PAD*" }) { edges { node { name } } } }')).toEqual([
      'left-pad',
    ]);
    const first = await graph(
      'packages',
      '{ packages(limit: 1) { totalCount edges { node { name } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(first.body.data.packages).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true } });
    const cursor = first.body.data.packages.pageInfo.endCursor as string;
    expect(await names(`{ packages(limit: 1, after: "${cursor}") { edges { node { name } } } }`)).toEqual(['left-pad']);
    // filters that look into versions select packages; the figures stay the package's
    expect(await names('{ packages(filter: { tags: ["PAD"] }) { edges { node { name } } } }')).toEqual(['left-pad']);
    expect(await names('{ packages(filter: { scope: "acme" }) { edges { node { name } } } }')).toEqual(['@acme/app']);
    expect(await names('{ packages(filter: { description: "*1.9.0*" }) { edges { node { name } } } }')).toEqual([
      'left-pad',
    ]);
    const byVersion = await graph(
      'packages',
      '{ packages(filter: { version: "2.*" }) { edges { node { name versionsCount } } } }',
    );
    expect(byVersion.body.data.packages.edges).toEqual([{ node: { name: '@acme/app', versionsCount: 1 } }]);
    const sha = (
      await graph('versions', '{ versions(packageId: "npm://left-pad") { edges { node { name digest } } } }')
    ).body.data.versions.edges.find((e: { node: { name: string } }) => e.node.name === '1.0.0').node.digest as string;
    const byChecksum = await graph(
      'packages',
      `{ packages(filter: { checksum: "${sha}" }) { edges { node { name versionsCount } } } }`,
    );
    expect(byChecksum.body.data.packages.edges).toEqual([{ node: { name: 'left-pad', versionsCount: 3 } }]);
    expect(await names('{ packages(sort_by: name, sort_type: desc) { edges { node { name } } } }')).toEqual([
      'left-pad',
      '@acme/app',
    ]);

    const pkg = await graph(
      'package',
      '{ package(id: "npm://left-pad") { name packageType latestVersion versionsCount licenses { name source } readme stats { downloads } } }',
    );
    expect(pkg.body.data.package).toMatchObject({
      name: 'left-pad',
      packageType: 'npm',
      latestVersion: '1.10.0',
      versionsCount: 3,
      licenses: [{ name: 'MIT', source: 'declared' }],
      stats: { downloads: 0 },
    });
    expect(pkg.body.data.package.readme).toContain('# left-pad');
    const versions = await graph(
      'versions',
      '{ versions(packageId: "npm://left-pad") { edges { node { name digest dependencies { name version } repos { name type leadFilePath } files { name lead } } } } }',
    );
    const nodes = versions.body.data.versions.edges.map((e: { node: unknown }) => e.node);
    expect(nodes.map((n: { name: string }) => n.name)).toEqual(['1.10.0', '1.9.0-beta.1', '1.0.0']);
    expect(nodes[0]).toMatchObject({
      dependencies: [{ name: 'right-pad', version: '^2.0.0' }],
      repos: [{ name: 'npm-local', type: 'local', leadFilePath: 'left-pad/-/left-pad-1.10.0.tgz' }],
      files: [{ name: 'left-pad-1.10.0.tgz', lead: true }],
    });

    // downloads count real downloads; the native calls answer by lead file
    await t.app.inject({ url: '/artifactory/api/npm/npm-local/left-pad/-/left-pad-1.10.0.tgz', headers: ADMIN_BASIC });
    await t.app.inject({
      url: '/ui/api/v1/download?repoKey=npm-local&path=left-pad/-/left-pad-1.10.0.tgz',
      headers: ADMIN_BASIC,
    });
    await t.app.inject({ url: '/artifactory/api/storage/npm-local/left-pad?stats', headers: ADMIN_BASIC });
    const counted = await graph('package', '{ package(id: "npm://left-pad") { stats { downloads } } }');
    expect(counted.body.data.package.stats.downloads).toBe(2);
    const deps = await t.app.inject({
      url: '/ui/api/v1/ui/v1/native/versions/npm/dependencies?path=npm-local/left-pad/-/left-pad-1.10.0.tgz',
      headers: ADMIN_BASIC,
    });
    expect(deps.json()).toEqual({ dependencies: [{ name: 'right-pad', version: '^2.0.0' }] });

    // deleting the tarball (any route) takes the version out; the whole folder, the package
    await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/npm-local/left-pad/-/left-pad-1.0.0.tgz',
      headers: ADMIN_BASIC,
    });
    await t.services.catalogueIndexer.drain();
    expect(
      (await graph('package', '{ package(id: "npm://left-pad") { versionsCount } }')).body.data.package.versionsCount,
    ).toBe(2);
    await t.app.inject({ method: 'DELETE', url: '/artifactory/npm-local/left-pad', headers: ADMIN_BASIC });
    await t.services.catalogueIndexer.drain();
    expect(await names()).toEqual(['@acme/app']);
  });

  it('shows each user only the packages of repositories it may read', async () => {
    await publish('npm-local', 'open-lib', '1.0.0');
    await publish('npm-team', 'secret-lib', '1.0.0');
    await t.services.catalogueIndexer.drain();
    const ann = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['npm-local'], actions: { users: { ann: ['read'] } } } },
    });
    expect(await names(undefined, ann)).toEqual(['open-lib']);
    expect((await graph('package', '{ package(id: "npm://secret-lib") { name } }', ann)).body.data.package).toBeNull();
    expect((await graph('packages', '{ packages { totalCount } }', {})).status).toBe(401);
    const bad = await graph('packages', '{ packages { nope } }');
    expect([bad.status, bad.body.errors?.[0]?.message]).toEqual([
      400,
      'Cannot query field "nope" on type "PackageConnection".',
    ]);
  });
});
