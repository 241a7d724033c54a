import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  changeSecuritySettings,
  createRepo,
  createUser,
  put,
  startTestApp,
  type TestApp,
} from '../test/harness.js';

type Role = 'anonymous' | 'nobody' | 'reader' | 'deployer' | 'projadmin' | 'admin';
const ROLES: Role[] = ['anonymous', 'nobody', 'reader', 'deployer', 'projadmin', 'admin'];

/**
 * Every route that touches repositories, for each kind of caller: the expected status, and what
 * lists contain. 'reader' reads libs through its own grant; 'deployer' deploys to libs through a
 * group; 'projadmin' administers project 'web' (repository 'other'); 'nobody' has no grant at all;
 * anonymous access is off unless a case turns it on.
 */
describe.each(ENGINES)('the permission matrix on %s', (engine) => {
  let t: TestApp;
  const headers: Record<Role, Record<string, string>> = {
    anonymous: {},
    nobody: {},
    reader: {},
    deployer: {},
    projadmin: {},
    admin: ADMIN_BASIC,
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
    await createRepo(t.app, 'other', { rclass: 'local', packageType: 'generic' });
    await createRepo(t.app, 'all', { rclass: 'virtual', packageType: 'generic', repositories: ['libs', 'other'] });
    for (const path of ['org/acme/a.jar', 'org/acme/c.secret', 'org/other/b.jar']) {
      await put(t.app, `/artifactory/libs/${path}`, path);
    }
    await put(t.app, '/artifactory/other/x.txt', 'x');
    for (const role of ROLES) {
      await put(t.app, `/artifactory/libs/del/${role}.txt`, role);
      await put(t.app, `/artifactory/libs/mv/${role}.txt`, role);
    }
    headers.nobody = await createUser(t.app, 'nobody');
    headers.reader = await createUser(t.app, 'reader');
    headers.deployer = await createUser(t.app, 'deployer');
    await createUser(t.app, 'partial');
    headers.projadmin = await createUser(t.app, 'projadmin');
    const json = { ...ADMIN_BASIC, ...XHR, 'content-type': 'application/json' };
    await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/projects',
      headers: json,
      payload: { projectKey: 'web', displayName: 'Web' },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/projects/web/members',
      headers: json,
      payload: { members: [{ name: 'projadmin', type: 'user', role: 'admin' }] },
    });
    await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/projects/resources/assign',
      headers: json,
      payload: { projectKey: 'web', repositories: ['other'] },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/groups/devs',
      headers: ADMIN_BASIC,
      payload: { userNames: ['deployer'] },
    });
    const target = (name: string, repo: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/artifactory/api/v2/security/permissions/${name}`,
        headers: ADMIN_BASIC,
        payload: { repo },
      });
    await target('read-libs', { repositories: ['libs', 'all'], actions: { users: { reader: ['read'] } } });
    await target('deploy-libs', { repositories: ['libs'], actions: { groups: { devs: ['write'] } } });
    // builds: the reader reads the 'app' build, the deployers' group publishes and deletes its runs
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/app-builds',
      headers: ADMIN_BASIC,
      payload: {
        build: {
          repositories: ['artifactory-build-info'],
          'include-patterns': ['app/**'],
          actions: { users: { reader: ['read'] }, groups: { devs: ['read', 'write', 'delete'] } },
        },
      },
    });
    for (const number of ['1', ...ROLES.map((r) => `del-${r}`)])
      await t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/build',
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: { name: 'app', number, started: '2026-11-23T10:00:00.000+0000', modules: [] },
      });
    await target('acme-only', {
      repositories: ['libs'],
      'include-patterns': ['org/acme/**', 'del/**'],
      'exclude-patterns': ['**/*.secret'],
      actions: { users: { partial: ['read'] } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (role: Role, method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: string) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers[role], ...(payload !== undefined ? { 'content-type': 'application/octet-stream' } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    });

  const json = (role: Role, method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers[role], ...XHR, 'content-type': 'application/json' },
      payload,
    });

  const buildInfo = (role: Role) =>
    JSON.stringify({ name: 'app', number: `new-${role}`, started: '2026-11-23T11:00:00.000+0000', modules: [] });
  const routes: [string, (role: Role) => ReturnType<typeof call>, Record<Role, number>][] = [
    [
      'read a build run',
      (role) => call(role, 'GET', '/artifactory/api/build/app/1'),
      { anonymous: 401, nobody: 404, reader: 200, deployer: 200, projadmin: 404, admin: 200 },
    ],
    [
      'publish build info',
      (role) =>
        t.app.inject({
          method: 'PUT',
          url: '/artifactory/api/build',
          headers: { ...headers[role], 'content-type': 'application/json' },
          payload: buildInfo(role),
        }),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 204, projadmin: 403, admin: 204 },
    ],
    [
      'delete a build run',
      (role) => call(role, 'DELETE', `/artifactory/api/build/app?buildNumbers=del-${role}`),
      { anonymous: 401, nobody: 404, reader: 403, deployer: 200, projadmin: 404, admin: 200 },
    ],
    [
      'download',
      (role) => call(role, 'GET', '/artifactory/libs/org/acme/a.jar'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'download through a virtual repository',
      (role) => call(role, 'GET', '/artifactory/all/org/acme/a.jar'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'deploy',
      (role) => call(role, 'PUT', `/artifactory/libs/new/${role}.jar`, 'new'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 201, projadmin: 403, admin: 201 },
    ],
    [
      'delete',
      (role) => call(role, 'DELETE', `/artifactory/libs/del/${role}.txt`),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 204 },
    ],
    [
      'storage API folder info',
      (role) => call(role, 'GET', '/artifactory/api/storage/libs/org'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'set properties (annotate)',
      (role) => call(role, 'PUT', '/artifactory/api/storage/libs/org/acme/a.jar?properties=qa=passed'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 204, projadmin: 403, admin: 204 },
    ],
    [
      'tree children',
      (role) => call(role, 'GET', '/ui/api/v1/ui/treebrowser/children?repoKey=libs&path=org'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'user administration',
      (role) => call(role, 'GET', '/artifactory/api/security/users'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'permission administration',
      (role) => call(role, 'GET', '/artifactory/api/v2/security/permissions'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'repository administration',
      (role) => call(role, 'GET', '/ui/api/v1/ui/admin/repositories'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'file details in the console',
      (role) => call(role, 'GET', '/ui/api/v1/ui/artifactgeneral?repoKey=libs&path=org/acme/a.jar'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'properties in the console',
      (role) => call(role, 'GET', '/ui/api/v1/ui/artifactproperties?repoKey=libs&path=org/acme/a.jar'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'viewing a file in the console',
      (role) => json(role, 'POST', '/ui/api/v1/ui/artifactactions/view', { repoKey: 'libs', path: 'org/acme/a.jar' }),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'download from the console',
      (role) => call(role, 'GET', '/ui/api/v1/download?repoKey=libs&path=org/acme/a.jar'),
      { anonymous: 401, nobody: 403, reader: 200, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'copy (read the source, deploy the target)',
      (role) => call(role, 'POST', `/artifactory/api/copy/libs/org/acme/a.jar?to=/libs/copies/${role}.jar`),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 200, projadmin: 403, admin: 200 },
    ],
    [
      'move (delete the source)',
      (role) => call(role, 'POST', `/artifactory/api/move/libs/mv/${role}.txt?to=/libs/moved/${role}.txt`),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'emptying the trash can',
      (role) => call(role, 'POST', '/artifactory/api/trash/empty'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'storage summary',
      (role) => call(role, 'GET', '/ui/api/v1/ui/storagesummary'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'group administration',
      (role) => call(role, 'GET', '/artifactory/api/security/groups'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'security settings',
      (role) => call(role, 'GET', '/ui/api/v1/ui/security/settings'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'mail settings',
      (role) => call(role, 'GET', '/ui/api/v1/ui/mail'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'audit trail',
      (role) => call(role, 'GET', '/ui/api/v1/ui/audit'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'everyone’s access tokens',
      (role) => call(role, 'GET', '/ui/api/v1/ui/tokens?all=true'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
    [
      'one’s own access tokens',
      (role) => call(role, 'GET', '/ui/api/v1/ui/tokens'),
      { anonymous: 401, nobody: 200, reader: 200, deployer: 200, projadmin: 200, admin: 200 },
    ],
    [
      'the projects one belongs to',
      (role) => call(role, 'GET', '/ui/api/v1/projects'),
      { anonymous: 401, nobody: 200, reader: 200, deployer: 200, projadmin: 200, admin: 200 },
    ],
    [
      'download from a project repository',
      (role) => call(role, 'GET', '/artifactory/other/x.txt'),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 200, admin: 200 },
    ],
    [
      'project members',
      (role) =>
        t.app.inject({
          method: 'PUT',
          url: '/ui/api/v1/projects/web/members',
          headers: { ...headers[role], ...XHR, 'content-type': 'application/json' },
          payload: { members: [{ name: 'projadmin', type: 'user', role: 'admin' }] },
        }),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 200, admin: 200 },
    ],
    [
      'creating a project',
      (role) =>
        t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/projects',
          headers: { ...headers[role], ...XHR, 'content-type': 'application/json' },
          payload: { projectKey: `p${role}`, displayName: role },
        }),
      { anonymous: 401, nobody: 403, reader: 403, deployer: 403, projadmin: 403, admin: 200 },
    ],
  ];

  it.each(routes)('%s answers each caller as expected', async (_name, request, expected) => {
    const actual: Partial<Record<Role, number>> = {};
    for (const role of ROLES) actual[role] = (await request(role)).statusCode;
    expect(actual).toEqual(expected);
  });

  it('lists only the repositories each caller may read', async () => {
    const lists: Partial<Record<Role, string[]>> = {};
    for (const role of ROLES) {
      const res = await call(role, 'GET', '/artifactory/api/repositories');
      lists[role] = res.statusCode === 200 ? (res.json() as { key: string }[]).map((r) => r.key).sort() : [];
    }
    // build info shows to those whose build grants reach it, like any repository
    expect(lists).toEqual({
      anonymous: [],
      nobody: [],
      reader: ['all', 'artifactory-build-info', 'libs'],
      deployer: ['artifactory-build-info', 'libs'],
      projadmin: ['other'],
      admin: ['all', 'artifactory-build-info', 'libs', 'other'],
    });
    const tree: Partial<Record<Role, string[]>> = {};
    for (const role of ROLES) {
      const res = await call(role, 'GET', '/ui/api/v1/ui/treebrowser/repos');
      tree[role] = res.statusCode === 200 ? (res.json() as { repoKey: string }[]).map((r) => r.repoKey).sort() : [];
    }
    expect(tree).toMatchObject({
      anonymous: [],
      nobody: [],
      reader: ['all', 'artifactory-build-info', 'libs'],
      deployer: ['artifactory-build-info', 'libs'],
      projadmin: ['other'],
    });
  });

  it('shows a user limited by patterns only the paths it may read, in the tree, the storage API and counts', async () => {
    const partial = { authorization: `Basic ${Buffer.from('partial:partial-Passw0rd').toString('base64')}` };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: partial });
    const children = await get('/ui/api/v1/ui/treebrowser/children?repoKey=libs&path=org');
    expect((children.json() as { items: { name: string }[] }).items.map((i) => i.name)).toEqual(['acme']);
    const acme = await get('/ui/api/v1/ui/treebrowser/children?repoKey=libs&path=org/acme');
    expect((acme.json() as { items: { name: string }[]; total: number }).total).toBe(1);
    const deep = await get('/artifactory/api/storage/libs?list&deep=1');
    expect((deep.json() as { files: { uri: string }[] }).files.map((f) => f.uri).sort()).toEqual(
      expect.arrayContaining(['/org/acme/a.jar']),
    );
    expect((deep.json() as { files: { uri: string }[] }).files.map((f) => f.uri)).not.toContain('/org/acme/c.secret');
    expect((deep.json() as { files: { uri: string }[] }).files.map((f) => f.uri)).not.toContain('/org/other/b.jar');
    expect((await get('/artifactory/libs/org/acme/a.jar')).statusCode).toBe(200);
    expect((await get('/artifactory/libs/org/acme/c.secret')).statusCode).toBe(403);
    expect((await get('/artifactory/libs/org/other/b.jar')).statusCode).toBe(403);
    const info = await get('/ui/api/v1/ui/artifactgeneral?repoKey=libs&path=org');
    expect(info.json()).toMatchObject({ files: 1 });
  });

  it('lets the anonymous user read once anonymous access is on, and hides what others may not read on request', async () => {
    const save = (changes: Record<string, unknown>) => changeSecuritySettings(t.app, changes);
    expect((await save({ anonymousAccess: true })).statusCode).toBe(200);
    expect((await call('anonymous', 'GET', '/artifactory/libs/org/acme/a.jar')).statusCode).toBe(200);
    expect((await call('anonymous', 'PUT', '/artifactory/libs/anon.txt', 'x')).statusCode).toBe(401);
    await save({ anonymousAccess: false, hideUnauthorizedResources: true });
    expect((await call('anonymous', 'GET', '/artifactory/libs/org/acme/a.jar')).statusCode).toBe(401);
    expect((await call('nobody', 'GET', '/artifactory/libs/org/acme/a.jar')).statusCode).toBe(404);
    // a caller who may read but not deploy still learns why
    expect((await call('reader', 'PUT', '/artifactory/libs/r.txt', 'x')).statusCode).toBe(403);
    await save({ hideUnauthorizedResources: false });
    expect((await call('nobody', 'GET', '/artifactory/libs/org/acme/a.jar')).statusCode).toBe(403);
  });
});
