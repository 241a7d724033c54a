import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  countRows,
  createRepo,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('repository configuration on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const rest = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', key: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/artifactory/api/repositories/${key}`,
      headers: ADMIN_BASIC,
      ...(payload ? { payload } : {}),
    });

  it('creates local, remote and virtual repositories the Artifactory way and lists them', async () => {
    expect(
      (await rest('PUT', 'libs-local', { rclass: 'local', packageType: 'maven', description: 'Our builds' })).body,
    ).toBe("Successfully created repository 'libs-local'");
    await createRepo(t.app, 'maven-remote', {
      rclass: 'remote',
      packageType: 'maven',
      url: 'https://repo1.maven.org/maven2/',
    });
    await createRepo(t.app, 'libs', {
      rclass: 'virtual',
      packageType: 'maven',
      repositories: ['libs-local', 'maven-remote'],
      defaultDeploymentRepo: 'libs-local',
    });
    const list = (await t.app.inject({ url: '/artifactory/api/repositories', headers: ADMIN_BASIC })).json();
    expect(list).toEqual([
      { key: 'libs', type: 'VIRTUAL', description: '', url: '', packageType: 'maven' },
      { key: 'libs-local', type: 'LOCAL', description: 'Our builds', url: '', packageType: 'maven' },
      {
        key: 'maven-remote',
        type: 'REMOTE',
        description: '',
        url: 'https://repo1.maven.org/maven2/',
        packageType: 'maven',
      },
    ]);
    const remotes = (
      await t.app.inject({ url: '/artifactory/api/repositories?type=remote', headers: ADMIN_BASIC })
    ).json();
    expect(remotes.map((r: { key: string }) => r.key)).toEqual(['maven-remote']);
    const virtual = (await rest('GET', 'libs')).json();
    expect(virtual).toMatchObject({
      rclass: 'virtual',
      repositories: ['libs-local', 'maven-remote'],
      defaultDeploymentRepo: 'libs-local',
      repoLayoutRef: 'maven-2-default',
    });
  });

  it('accepts package type aliases and stores the canonical id', async () => {
    await createRepo(t.app, 'go-local', { rclass: 'local', packageType: 'golang' });
    await createRepo(t.app, 'gems-local', { rclass: 'local', packageType: 'rubygems' });
    expect((await rest('GET', 'go-local')).json().packageType).toBe('go');
    expect((await rest('GET', 'gems-local')).json().packageType).toBe('gems');
  });

  it('updates with a partial body and keeps the rest', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local', packageType: 'generic', description: 'before' });
    expect((await rest('POST', 'libs-local', { description: 'after' })).statusCode).toBe(200);
    expect((await rest('GET', 'libs-local')).json()).toMatchObject({ description: 'after', packageType: 'generic' });
    const change = await rest('POST', 'libs-local', { rclass: 'remote', url: 'http://x' });
    expect(change.statusCode).toBe(400);
    expect(messages(change)).toEqual(['The class of a repository (local, remote, virtual) cannot be changed.']);
  });

  it.each([
    [
      'a key with a space',
      'bad key',
      { rclass: 'local' },
      400,
      'key: The repository key may contain only letters, digits, dashes, underscores and periods, and must start with a letter or digit.',
    ],
    [
      'a key with a star',
      'bad*key',
      { rclass: 'local' },
      400,
      'key: The repository key may contain only letters, digits, dashes, underscores and periods, and must start with a letter or digit.',
    ],
    [
      'the reserved trash key',
      'auto-trashcan',
      { rclass: 'local' },
      400,
      "The repository key 'auto-trashcan' is reserved.",
    ],
    [
      'an unknown package type',
      'x-local',
      { rclass: 'local', packageType: 'cobol' },
      400,
      "Unknown package type 'cobol'.",
    ],
    [
      'a remote without URL',
      'x-remote',
      { rclass: 'remote' },
      400,
      'A remote repository needs the URL of its upstream.',
    ],
    ['a remote with a bad URL', 'x-remote', { rclass: 'remote', url: 'ftp//nope' }, 400, 'Enter a valid URL.'],
    [
      'a virtual with an unknown member',
      'x',
      { rclass: 'virtual', repositories: ['nope'] },
      400,
      "The virtual repository member 'nope' does not exist.",
    ],
  ])('refuses %s and writes nothing', async (_name, key, config, status, message) => {
    const before = await countRows(t.app, 'repositories');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/artifactory/api/repositories/${encodeURIComponent(key)}`,
      headers: ADMIN_BASIC,
      payload: config,
    });
    expect(res.statusCode).toBe(status);
    expect(messages(res)).toEqual([message]);
    expect(await countRows(t.app, 'repositories')).toBe(before);
    expect(await countRows(t.app, 'events')).toBe(0);
  });

  it('refuses a key that clashes with another one ignoring case', async () => {
    await createRepo(t.app, 'Libs-Local', { rclass: 'local' });
    const res = await rest('PUT', 'libs-local', { rclass: 'local' });
    expect(res.statusCode).toBe(409);
    expect(messages(res)).toEqual(["A repository with the key 'libs-local' already exists."]);
    // the console shows a message about a field under that field
    expect(res.json().errors[0].field).toBe('key');
    const badUrl = await rest('PUT', 'r', { rclass: 'remote', url: 'not a url' });
    expect(badUrl.json().errors).toEqual([{ status: 400, message: 'Enter a valid URL.', field: 'url' }]);
  });

  it('refuses a default deployment repository that is not a local member', async () => {
    await createRepo(t.app, 'a-local', { rclass: 'local' });
    await createRepo(t.app, 'b-local', { rclass: 'local' });
    const res = await rest('PUT', 'v', {
      rclass: 'virtual',
      repositories: ['a-local'],
      defaultDeploymentRepo: 'b-local',
    });
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([
      "The default deployment repository 'b-local' must be a local member of the virtual repository.",
    ]);
  });

  it('deletes a repository with its content as Artifactory does, refused while a virtual uses it', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'v', { rclass: 'virtual', repositories: ['libs-local'] });
    await put(t.app, '/artifactory/libs-local/org/a.txt', 'x');
    await put(t.app, '/artifactory/libs-local/b.txt', 'y');
    const used = await rest('DELETE', 'libs-local');
    expect([used.statusCode, messages(used)]).toEqual([
      409,
      ["Repository 'libs-local' is a member of the virtual repository 'v'."],
    ]);
    expect(
      (await t.app.db.selectFrom('items').select('path').where('repo_key', '=', 'libs-local').execute()).length,
    ).toBe(3);
    const empty = await rest('DELETE', 'v');
    expect([empty.statusCode, empty.body]).toEqual([
      200,
      "Repository 'v' and all its content have been removed successfully.",
    ]);
    const full = await rest('DELETE', 'libs-local');
    expect([full.statusCode, full.headers['content-type'], full.body]).toEqual([
      200,
      'text/plain',
      "Repository 'libs-local' and all its content have been removed successfully.",
    ]);
    expect((await rest('GET', 'libs-local')).statusCode).toBe(404);
    expect(
      (await t.app.db.selectFrom('items').select('path').where('repo_key', '=', 'libs-local').execute()).length,
    ).toBe(0);
    expect((await t.app.inject({ url: '/artifactory/libs-local/b.txt', headers: ADMIN_BASIC })).statusCode).toBe(404);
    expect((await rest('DELETE', 'nope')).statusCode).toBe(404);
  });

  it('lets only admins configure repositories', async () => {
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/repositories/x',
      payload: { rclass: 'local' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toContain('Basic');
    const wrong = await t.app.inject({
      url: '/artifactory/api/repositories',
      headers: { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('quick-creates a local, a remote and a virtual repository together, or none', async () => {
    const { cookie } = await login(t.app);
    const quick = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/admin/repositories/quick',
        headers: { ...XHR, cookie },
        payload,
      });
    const res = await quick({ packageType: 'npm', prefix: 'npm' });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { key: string; rclass: string }) => [r.key, r.rclass])).toEqual([
      ['npm-local', 'local'],
      ['npm-remote', 'remote'],
      ['npm', 'virtual'],
    ]);
    expect(res.json()[1].url).toBe('https://registry.npmjs.org/');
    // a clash on the last one rolls back the first two
    await createRepo(t.app, 'pypi', { rclass: 'local', packageType: 'pypi' });
    const clash = await quick({ packageType: 'pypi', prefix: 'pypi' });
    expect(clash.statusCode).toBe(409);
    const keys = (await t.app.inject({ url: '/artifactory/api/repositories', headers: ADMIN_BASIC }))
      .json()
      .map((r: { key: string }) => r.key);
    expect(keys).not.toContain('pypi-local');
    expect(keys).not.toContain('pypi-remote');
  });

  it('lists repositories with their usage and layouts in the console', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/a/b.bin', Buffer.alloc(1000, 1));
    const { cookie } = await login(t.app);
    const list = (await t.app.inject({ url: '/ui/api/v1/ui/admin/repositories', headers: { cookie } })).json();
    expect(list).toEqual([expect.objectContaining({ key: 'libs-local', files: 1, usedSpace: 1000 })]);
    const layouts = (
      await t.app.inject({ url: '/ui/api/v1/ui/admin/repositories/layouts', headers: { cookie } })
    ).json();
    expect(layouts.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining(['maven-2-default', 'npm-default', 'simple-default']),
    );
  });
});
