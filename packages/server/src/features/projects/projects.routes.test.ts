import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('projects on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'web-local', { rclass: 'local', packageType: 'npm' });
  });
  afterEach(async () => {
    await t.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    auth: Record<string, string> = ADMIN_BASIC,
  ) =>
    t.app.inject({
      method,
      url: `/ui/api/v1${url}`,
      headers: { ...auth, ...XHR, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: payload as object } : {}),
    });

  it('scopes the repository lists, the tree and the storage summary to a chosen project', async () => {
    await createRepo(t.app, 'other-local', { rclass: 'local', packageType: 'npm' });
    await put(t.app, '/artifactory/web-local/a.txt', 'in the project');
    await put(t.app, '/artifactory/other-local/b.txt', 'elsewhere, and longer');
    await call('POST', '/projects', { projectKey: 'web', displayName: 'Web' });
    await call('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] });
    const keys = (rows: { key?: string; repoKey?: string }[]) => rows.map((r) => r.key ?? r.repoKey).sort();
    expect(keys((await call('GET', '/ui/admin/repositories?projectKey=web')).json())).toEqual(['web-local']);
    expect(keys((await call('GET', '/ui/admin/repositories?projectKey=default')).json())).toEqual([
      'other-local',
      'web-local',
    ]);
    expect(keys((await call('GET', '/ui/treebrowser/repos?projectKey=web')).json())).toEqual(['web-local']);
    const summary = (await call('GET', '/ui/storagesummary?projectKey=web')).json();
    expect(keys(summary.repositories)).toEqual(['web-local']);
    expect([summary.artifactsCount, summary.binariesCount, summary.binariesSize]).toEqual([1, 1, 14]);
  });

  it('starts with the default project and refuses to delete it', async () => {
    const list = await call('GET', '/projects');
    expect(list.json()).toEqual([expect.objectContaining({ projectKey: 'dflt', displayName: 'Default Project' })]);
    expect(messages(await call('DELETE', '/projects/dflt'))).toEqual([PROJECT_MESSAGES.defaultProject]);
  });

  it.each([
    ['an uppercase key', 'Web', PROJECT_MESSAGES.keyFormat],
    ['a key starting with a digit', '1web', PROJECT_MESSAGES.keyFormat],
    ['a key with a dash', 'web-shop', PROJECT_MESSAGES.keyFormat],
    ['a key over 128 characters', `w${'a'.repeat(128)}`, PROJECT_MESSAGES.keyLength],
  ])('refuses %s and creates nothing', async (_case, projectKey, message) => {
    const res = await call('POST', '/projects', { projectKey, displayName: 'Web' });
    expect(res.statusCode).toBe(400);
    expect(messages(res)[0]).toContain(message);
    expect((await call('GET', '/projects')).json()).toHaveLength(1);
  });

  it('gives members their role on the project’s repositories, and project admins their project only', async () => {
    const viewer = await createUser(t.app, 'vic');
    const dev = await createUser(t.app, 'dev');
    const lead = await createUser(t.app, 'lead');
    expect((await call('POST', '/projects', { projectKey: 'web', displayName: 'Web Shop' })).statusCode).toBe(200);
    expect((await call('POST', '/projects', { projectKey: 'web', displayName: 'Again' })).statusCode).toBe(409);
    await call('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] });
    const unknown = await call('PUT', '/projects/web/members', {
      members: [{ name: 'ghost', type: 'user', role: 'viewer' }],
    });
    expect(messages(unknown)).toEqual(["User 'ghost' does not exist."]);
    await call('PUT', '/projects/web/members', {
      members: [
        { name: 'vic', type: 'user', role: 'viewer' },
        { name: 'dev', type: 'user', role: 'developer' },
        { name: 'lead', type: 'user', role: 'admin' },
      ],
    });
    await put(t.app, '/artifactory/web-local/a.tgz', 'a');
    expect(
      (await t.app.inject({ method: 'GET', url: '/artifactory/web-local/a.tgz', headers: viewer })).statusCode,
    ).toBe(200);
    expect((await put(t.app, '/artifactory/web-local/b.tgz', 'b', viewer)).statusCode).toBe(403);
    expect((await put(t.app, '/artifactory/web-local/b.tgz', 'b', dev)).statusCode).toBe(201);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/artifactory/web-local/b.tgz', headers: dev })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/artifactory/web-local/b.tgz', headers: lead })).statusCode,
    ).toBe(204);

    // the project admin sees its project as administrable, edits it and its members, and nothing else
    const seen = (await call('GET', '/projects', undefined, lead)).json() as {
      projectKey: string;
      isCurrentUserProjectAdmin: boolean;
    }[];
    expect(seen).toEqual([expect.objectContaining({ projectKey: 'web', isCurrentUserProjectAdmin: true })]);
    expect((await call('PUT', '/projects/web', { displayName: 'Web Shop 2', description: '' }, lead)).statusCode).toBe(
      200,
    );
    expect(
      (await call('PUT', '/projects/web/members', { members: [{ name: 'lead', type: 'user', role: 'admin' }] }, lead))
        .statusCode,
    ).toBe(200);
    expect((await call('PUT', '/projects/dflt', { displayName: 'Mine', description: '' }, lead)).statusCode).toBe(403);
    expect((await call('POST', '/projects', { projectKey: 'other', displayName: 'Other' }, lead)).statusCode).toBe(403);
    expect((await call('DELETE', '/projects/web', undefined, lead)).statusCode).toBe(403);
    expect(
      (await call('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] }, lead))
        .statusCode,
    ).toBe(403);
    // vic left the project: its rights end at once
    expect(
      (await t.app.inject({ method: 'GET', url: '/artifactory/web-local/a.tgz', headers: viewer })).statusCode,
    ).toBe(403);
    expect((await call('GET', '/projects', undefined, viewer)).json()).toEqual([]);
  });

  it('keeps the repositories of a deleted project, unassigned, and records it all in the audit trail', async () => {
    await call('POST', '/projects', { projectKey: 'web', displayName: 'Web' });
    await call('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] });
    expect((await call('GET', '/ui/projects/unassigned/statistics')).json()).toEqual({ repositories: 0 });
    expect((await call('DELETE', '/projects/web')).statusCode).toBe(204);
    expect((await call('GET', '/ui/projects/unassigned/statistics')).json()).toEqual({ repositories: 1 });
    const audit = (await call('GET', '/ui/audit?category=project')).json() as { events: { action: string }[] };
    expect(audit.events.map((e) => e.action)).toEqual(['delete', 'assign repositories', 'create']);
  });

  it('lets a project admin create a local repository in the project, keyed after it', async () => {
    const lead = await createUser(t.app, 'lead');
    await call('POST', '/projects', { projectKey: 'web', displayName: 'Web' });
    await call('PUT', '/projects/web/members', { members: [{ name: 'lead', type: 'user', role: 'admin' }] });
    const badKey = await call('POST', '/projects/web/repositories', { key: 'libs-local', packageType: 'npm' }, lead);
    expect(messages(badKey)).toEqual(["A project repository's key starts with the project key and a dash: 'web-'."]);
    const created = await call(
      'POST',
      '/projects/web/repositories',
      { key: 'web-npm-local', packageType: 'npm' },
      lead,
    );
    expect(created.json()).toMatchObject({ repositories: ['web-npm-local'] });
    expect((await put(t.app, '/artifactory/web-npm-local/a.tgz', 'a', lead)).statusCode).toBe(201);
    const stranger = await createUser(t.app, 'stranger');
    expect(
      (await call('POST', '/projects/web/repositories', { key: 'web-x', packageType: 'npm' }, stranger)).statusCode,
    ).toBe(403);
  });
});
