import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, startTestApp, type TestApp } from '../test/harness.js';
import { dropNulls } from './rest-bodies.js';

describe('dropNulls', () => {
  it('drops null fields at every depth, keeps everything else', () => {
    expect(dropNulls({ a: null, b: 1, c: { d: null, e: [null, { f: null, g: 'x' }] }, h: false })).toEqual({
      b: 1,
      c: { e: [null, { g: 'x' }] },
      h: false,
    });
  });
});

describe.each(ENGINES)('bodies serialised from whole models (explicit nulls, unknown fields) on %s', (engine) => {
  let t: TestApp;
  const send = (method: 'PUT' | 'POST', url: string, payload: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates and updates a repository, a user, a group and a permission sent with nulls and unknown fields', async () => {
    const repo = await send('PUT', '/artifactory/api/repositories/libs-local', {
      key: 'libs-local',
      rclass: 'local',
      packageType: 'maven',
      description: null,
      notes: null,
      includesPattern: null,
      excludesPattern: null,
      repoLayoutRef: null,
      defaultDeploymentRepo: null,
      xrayIndex: false,
      someFutureField: { nested: null },
    });
    expect([repo.statusCode, repo.body]).toEqual([200, "Successfully created repository 'libs-local'"]);
    const config = (
      await t.app.inject({ url: '/artifactory/api/repositories/libs-local', headers: ADMIN_BASIC })
    ).json() as Record<string, unknown>;
    expect(config).toMatchObject({
      key: 'libs-local',
      rclass: 'local',
      packageType: 'maven',
      description: '',
      includesPattern: '**/*',
    });
    expect(
      (await send('POST', '/artifactory/api/repositories/libs-local', { description: 'Releases', notes: null }))
        .statusCode,
    ).toBe(200);

    const user = await send('PUT', '/artifactory/api/security/users/ann', {
      name: 'ann',
      email: 'ann@example.com',
      password: 'Ann-password-123',
      admin: null,
      profileUpdatable: null,
      realm: null,
      groups: null,
      lastLoggedIn: null,
      offlineMode: false,
    });
    expect(user.statusCode).toBe(201);
    expect(
      (await send('POST', '/artifactory/api/security/users/ann', { email: 'ann@acme.test', realm: null, groups: null }))
        .statusCode,
    ).toBe(200);

    const group = await send('PUT', '/artifactory/api/security/groups/devs', {
      name: 'devs',
      description: null,
      autoJoin: null,
      realm: null,
      realmAttributes: null,
      userNames: null,
      adminPrivileges: null,
      policyManager: false,
    });
    expect([201, 200]).toContain(group.statusCode);

    const permission = await send('PUT', '/artifactory/api/v2/security/permissions/dev-read', {
      name: 'dev-read',
      repo: {
        repositories: ['libs-local'],
        'include-patterns': null,
        'exclude-patterns': null,
        actions: { users: { ann: ['read'] }, groups: null },
      },
      build: null,
      releaseBundle: null,
      destination: null,
    });
    expect([200, 201]).toContain(permission.statusCode);
    const stored = (
      await t.app.inject({ url: '/artifactory/api/v2/security/permissions/dev-read', headers: ADMIN_BASIC })
    ).json() as {
      repo: { actions: { users: Record<string, string[]> } };
    };
    expect(stored.repo.actions.users).toEqual({ ann: ['read'] });
  });

  it('tells a reader who is no administrator the part of a repository Artifactory tells non-admins', async () => {
    await send('PUT', '/artifactory/api/repositories/hidden-local', { rclass: 'local' });
    const ann = { authorization: `Basic ${Buffer.from('ann:Ann-password-123').toString('base64')}` };
    const readable = await t.app.inject({ url: '/artifactory/api/repositories/libs-local', headers: ann });
    expect(readable.statusCode).toBe(200);
    expect(readable.json()).toEqual({
      key: 'libs-local',
      rclass: 'local',
      packageType: 'maven',
      description: 'Releases',
      repoLayoutRef: 'maven-2-default',
    });
    // what he cannot read answers as a repository that does not exist
    const hidden = await t.app.inject({ url: '/artifactory/api/repositories/hidden-local', headers: ann });
    const none = await t.app.inject({ url: '/artifactory/api/repositories/no-such', headers: ann });
    expect([hidden.statusCode, hidden.body]).toEqual([404, none.body.replace('no-such', 'hidden-local')]);
    const full = (await t.app.inject({ url: '/artifactory/api/repositories/libs-local', headers: ADMIN_BASIC })).json();
    expect(full).toHaveProperty('includesPattern');
  });
});
