import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  countRows,
  createRepo,
  createUser,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('groups and permission targets on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
  });
  afterEach(async () => {
    await t.close();
  });

  const rest = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: ADMIN_BASIC, ...(payload ? { payload } : {}) });

  it('creates, reads, updates and deletes a group the Artifactory way', async () => {
    await createUser(t.app, 'ann');
    await createUser(t.app, 'ben');
    const created = await rest('PUT', '/artifactory/api/security/groups/devs', {
      description: 'Developers',
      autoJoin: false,
      userNames: ['ann'],
    });
    expect(created.statusCode).toBe(201);
    const read = await rest('GET', '/artifactory/api/security/groups/devs?includeUsers=true');
    expect(read.json()).toMatchObject({ name: 'devs', description: 'Developers', userNames: ['ann'] });
    expect((await rest('GET', '/artifactory/api/security/groups/devs')).json()).not.toHaveProperty('userNames');
    expect(
      (await rest('POST', '/artifactory/api/security/groups/devs', { userNames: ['ann', 'ben'] })).statusCode,
    ).toBe(200);
    expect((await rest('GET', '/artifactory/api/security/users/ben')).json().groups).toEqual(['devs']);
    const list = await rest('GET', '/artifactory/api/security/groups');
    expect(list.json()).toEqual([{ name: 'devs', uri: expect.stringMatching(/\/api\/security\/groups\/devs$/) }]);
    expect((await rest('DELETE', '/artifactory/api/security/groups/devs')).statusCode).toBe(200);
    expect((await rest('GET', '/artifactory/api/security/groups/devs')).statusCode).toBe(404);
    expect(await countRows(t.app, 'group_members')).toBe(0);
  });

  it('refuses a bad group and changes nothing', async () => {
    const badName = await rest('PUT', '/artifactory/api/security/groups/bad%20name', {});
    expect(messages(badName)).toEqual([ACCESS_MESSAGES.groupNameFormat]);
    const unknownMember = await rest('PUT', '/artifactory/api/security/groups/devs', { userNames: ['ghost'] });
    expect(messages(unknownMember)).toEqual(["User 'ghost' does not exist."]);
    expect(await countRows(t.app, 'groups')).toBe(0);
    const { cookie } = await login(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/groups',
      headers: { ...XHR, cookie },
      payload: { name: 'a' },
    });
    const duplicate = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/groups',
      headers: { ...XHR, cookie },
      payload: { name: 'a' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(messages(duplicate)).toEqual(["A group named 'a' already exists."]);
  });

  it('puts new users in auto-join groups', async () => {
    await rest('PUT', '/artifactory/api/security/groups/everyone', { autoJoin: true });
    await createUser(t.app, 'cat');
    expect((await rest('GET', '/artifactory/api/security/users/cat')).json().groups).toEqual(['everyone']);
  });

  it('saves a v2 permission target and answers it in the same shape', async () => {
    await createUser(t.app, 'ann');
    await rest('PUT', '/artifactory/api/security/groups/devs', {});
    const body = {
      name: 'libs-dev',
      repo: {
        repositories: ['libs'],
        'include-patterns': ['org/acme/**'],
        'exclude-patterns': ['**/*.secret'],
        actions: { users: { ann: ['read', 'write'] }, groups: { devs: ['read', 'annotate', 'delete'] } },
      },
    };
    const created = await rest('PUT', '/artifactory/api/v2/security/permissions/libs-dev', body);
    expect(created.statusCode).toBe(201);
    expect((await rest('PUT', '/artifactory/api/v2/security/permissions/libs-dev', body)).statusCode).toBe(200);
    expect((await rest('POST', '/artifactory/api/v2/security/permissions/libs-dev', body)).statusCode).toBe(409);
    const read = (await rest('GET', '/artifactory/api/v2/security/permissions/libs-dev')).json();
    expect(read).toEqual({
      name: 'libs-dev',
      repo: {
        repositories: ['libs'],
        'include-patterns': ['org/acme/**'],
        'exclude-patterns': ['**/*.secret'],
        actions: { users: { ann: ['read', 'write'] }, groups: { devs: ['read', 'annotate', 'delete'] } },
      },
    });
    const names = (await rest('GET', '/artifactory/api/v2/security/permissions')).json() as { name: string }[];
    expect(names.map((n) => n.name)).toEqual(['Anything', 'libs-dev']);
    expect((await rest('DELETE', '/artifactory/api/v2/security/permissions/libs-dev')).statusCode).toBe(200);
    expect((await rest('GET', '/artifactory/api/v2/security/permissions/libs-dev')).statusCode).toBe(404);
  });

  it("lists a user's, a group's and a repository's effective permissions, from every target and project", async () => {
    await createUser(t.app, 'ann');
    await createUser(t.app, 'ben');
    await createRepo(t.app, 'web-local', { rclass: 'local', packageType: 'generic' });
    await rest('PUT', '/artifactory/api/security/groups/devs', { userNames: ['ann'] });
    await rest('PUT', '/artifactory/api/v2/security/permissions/libs-dev', {
      name: 'libs-dev',
      repo: {
        repositories: ['libs'],
        'include-patterns': ['org/acme/**'],
        actions: { users: { ann: ['read'] }, groups: { devs: ['read', 'write', 'delete'] } },
      },
    });
    const ui = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url: `/ui/api/v1${url}`,
        headers: { ...ADMIN_BASIC, ...XHR },
        ...(payload ? { payload: payload as object } : {}),
      });
    await ui('POST', '/projects', { projectKey: 'web', displayName: 'Web' });
    await ui('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] });
    await ui('PUT', '/projects/web/members', { members: [{ name: 'devs', type: 'group', role: 'developer' }] });

    const effective = async (query: string) => (await ui('GET', `/ui/effective-permissions?${query}`)).json();
    const ann = await effective('user=ann');
    expect(ann.admin).toBe(false);
    const libs = ann.grants.filter((g: { source: { name: string } }) => g.source.name === 'libs-dev');
    expect(libs).toEqual([
      {
        source: { kind: 'target', name: 'libs-dev' },
        resource: 'repo',
        covers: ['libs'],
        includes: ['org/acme/**'],
        excludes: [],
        principal: { type: 'user', name: 'ann' },
        actions: ['read'],
      },
      expect.objectContaining({ principal: { type: 'group', name: 'devs' }, actions: ['read', 'deploy', 'delete'] }),
    ]);
    expect(ann.grants).toContainEqual({
      source: { kind: 'project', name: 'web' },
      resource: 'repo',
      covers: ['web-local'],
      includes: ['**'],
      excludes: [],
      principal: { type: 'group', name: 'devs' },
      actions: ['read', 'annotate', 'deploy'],
    });
    // ben is in no group: nothing of libs-dev nor of the project
    const ben = await effective('user=ben');
    expect(ben.grants.some((g: { source: { name: string } }) => ['libs-dev', 'web'].includes(g.source.name))).toBe(
      false,
    );
    expect((await effective('user=admin')).admin).toBe(true);
    // a group: its own grants only
    const devs = await effective('group=devs');
    expect(devs.grants.map((g: { source: { name: string } }) => g.source.name).sort()).toEqual(['libs-dev', 'web']);
    // a repository: who may do what on it
    const onLibs = await effective('repo=libs');
    expect(
      onLibs.grants
        .filter((g: { source: { name: string } }) => g.source.name === 'libs-dev')
        .map((g: { principal: { name: string } }) => g.principal.name),
    ).toEqual(['ann', 'devs']);
    expect((await effective('repo=web-local')).grants).toContainEqual(
      expect.objectContaining({ source: { kind: 'project', name: 'web' }, principal: { type: 'group', name: 'devs' } }),
    );
    // one subject, and one that exists
    expect((await ui('GET', '/ui/effective-permissions?user=ann&group=devs')).statusCode).toBe(400);
    const ghost = await ui('GET', '/ui/effective-permissions?user=ghost');
    expect([ghost.statusCode, messages(ghost)]).toEqual([404, ["User 'ghost' was not found."]]);
  });

  it.each([
    ['an unknown repository', { repo: { repositories: ['nope'] } }, "Repository 'nope' does not exist."],
    ['no repository', { repo: { repositories: [] } }, ACCESS_MESSAGES.noRepositories],
    ['no resource', {}, ACCESS_MESSAGES.noResource],
    [
      'an unknown user',
      { repo: { repositories: ['libs'], actions: { users: { ghost: ['read'] } } } },
      "User 'ghost' does not exist.",
    ],
    [
      'an unknown action',
      { repo: { repositories: ['libs'], actions: { users: { admin: ['fly'] } } } },
      "'fly' is not an action; use read, annotate, write, delete or manage.",
    ],
    [
      'a pattern leaving the repository',
      { repo: { repositories: ['libs'], 'include-patterns': ['../x/**'] } },
      "'../x/**' is not a valid include or exclude pattern.",
    ],
  ])('refuses %s and saves nothing', async (_case, body, message) => {
    const res = await rest('PUT', '/artifactory/api/v2/security/permissions/t1', body);
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([message]);
    expect(await countRows(t.app, 'permission_targets')).toBe(1);
    expect(await countRows(t.app, 'permission_grants')).toBe(1);
  });

  it('removes a deleted user or group from the targets that named them', async () => {
    await createUser(t.app, 'ann');
    await rest('PUT', '/artifactory/api/security/groups/devs', {});
    await rest('PUT', '/artifactory/api/v2/security/permissions/p', {
      repo: { repositories: ['libs'], actions: { users: { ann: ['read'] }, groups: { devs: ['read'] } } },
    });
    await rest('DELETE', '/artifactory/api/security/users/ann');
    await rest('DELETE', '/artifactory/api/security/groups/devs');
    const read = (await rest('GET', '/artifactory/api/v2/security/permissions/p')).json();
    expect(read.repo.actions).toEqual({ users: {}, groups: {} });
  });

  it('edits targets through the console calls and records each change in the audit trail', async () => {
    const { cookie } = await login(t.app);
    const headers = { ...XHR, cookie };
    const target = {
      name: 'readers',
      repo: { repositories: ['ANY LOCAL'], includes: ['**'], excludes: [], users: { admin: ['read'] }, groups: {} },
    };
    const created = await t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/permissions', headers, payload: target });
    expect(created.statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/permissions/readers',
      headers,
      payload: { ...target, repo: { ...target.repo, users: { admin: ['read', 'deploy'] } } },
    });
    expect(changed.json().repo.users).toEqual({ admin: ['read', 'deploy'] });
    await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/permissions/delete',
      headers,
      payload: { names: ['readers'] },
    });
    const audit = await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/audit?category=permission', headers });
    const events = audit.json().events as {
      action: string;
      target: string;
      actor: string;
      details: { before?: unknown };
    }[];
    expect(events.map((e) => `${e.action} ${e.target} by ${e.actor}`)).toEqual([
      'delete readers by admin',
      'update readers by admin',
      'create readers by admin',
    ]);
    expect(events[1]!.details.before).toMatchObject({ repo: { users: { admin: ['read'] } } });
  });

  it('lets members of a group with administrator privileges administer', async () => {
    const ann = await createUser(t.app, 'ann');
    expect(
      (await t.app.inject({ method: 'GET', url: '/artifactory/api/security/users', headers: ann })).statusCode,
    ).toBe(403);
    await rest('PUT', '/artifactory/api/security/groups/ops', { adminPrivileges: true, userNames: ['ann'] });
    expect(
      (await t.app.inject({ method: 'GET', url: '/artifactory/api/security/users', headers: ann })).statusCode,
    ).toBe(200);
    expect((await put(t.app, '/artifactory/libs/a.txt', 'a', ann)).statusCode).toBe(201);
    const users = (await rest('GET', '/ui/api/v1/ui/users')).json() as { name: string; adminViaGroup: boolean }[];
    expect(users.find((u) => u.name === 'ann')).toMatchObject({ adminViaGroup: true });
  });

  it('speaks the first version of the permission call: patterns as text, actions as letters', async () => {
    const ann = await createUser(t.app, 'ann');
    await put(t.app, '/artifactory/libs/org/a.txt', 'a');
    await put(t.app, '/artifactory/libs/tmp/b.txt', 'b');
    const created = await rest('PUT', '/artifactory/api/security/permissions/libs-readers', {
      name: 'libs-readers',
      includesPattern: 'org/**',
      excludesPattern: '',
      repositories: ['libs'],
      principals: { users: { ann: ['r', 'n', 'mxm'] }, groups: null },
    });
    expect(created.statusCode).toBe(201);
    expect((await rest('GET', '/artifactory/api/security/permissions/libs-readers')).json()).toEqual({
      name: 'libs-readers',
      includesPattern: 'org/**',
      excludesPattern: '',
      repositories: ['libs'],
      principals: { users: { ann: ['r', 'n'] }, groups: {} },
    });
    // the same target through the second version
    expect((await rest('GET', '/artifactory/api/v2/security/permissions/libs-readers')).json()).toMatchObject({
      repo: { 'include-patterns': ['org/**'], actions: { users: { ann: ['read', 'annotate'] } } },
    });
    // it grants what it says
    const read = (path: string) => t.app.inject({ url: `/artifactory/libs/${path}`, headers: ann });
    expect((await read('org/a.txt')).statusCode).toBe(200);
    expect((await read('tmp/b.txt')).statusCode).toBe(403);
    const list = (await rest('GET', '/artifactory/api/security/permissions')).json() as { name: string; uri: string }[];
    expect(list.map((p) => p.name)).toContain('libs-readers');
    // an unknown letter is refused and changes nothing
    const bad = await rest('PUT', '/artifactory/api/security/permissions/libs-readers', {
      repositories: ['libs'],
      principals: { users: { ann: ['x'] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      ((await rest('GET', '/artifactory/api/security/permissions/libs-readers')).json() as { principals: unknown })
        .principals,
    ).toEqual({
      users: { ann: ['r', 'n'] },
      groups: {},
    });
    expect((await rest('DELETE', '/artifactory/api/security/permissions/libs-readers')).statusCode).toBe(200);
    expect((await rest('GET', '/artifactory/api/security/permissions/libs-readers')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/artifactory/api/security/permissions', headers: ann })).statusCode).toBe(403);
  });
});
