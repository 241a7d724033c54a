import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONBOARDING_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  login,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const API = '/ui/api/v1';

describe.each(ENGINES)('onboarding and quick setup on %s', (engine) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let user: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = { ...XHR, cookie: (await login(t.app)).cookie };
    await createUser(t.app, 'dev');
    user = { ...XHR, cookie: (await login(t.app, 'dev', 'dev-Passw0rd')).cookie };
  });
  afterAll(async () => {
    await t.close();
  });

  it('asks an administrator of an empty deployment to onboard, and never a user', async () => {
    const state = (await call('GET', '/system/onboarding')).json();
    expect(state).toMatchObject({
      gettingStartedSeen: false,
      completed: false,
      needsOnboarding: true,
      repositoryCount: 0,
      defaultProject: { key: 'dflt', name: 'Default Project' },
    });
    expect(state.packageTypes.find((p: { type: string }) => p.type === 'npm')).toEqual({
      type: 'npm',
      label: 'npm',
      repositoryKey: 'npm',
      exists: false,
      upstream: 'https://registry.npmjs.org/',
    });
    expect((await call('GET', '/system/onboarding', undefined, user)).json().needsOnboarding).toBe(false);
  });

  it('applies the wizard’s rules to the personalisation and keeps it in the user’s custom data', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/system/onboarding', body);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ role: 'DevOps Engineer', desiredFeature: ['CI/CD'] })).toBe(
      ONBOARDING_MESSAGES.purposeRequired,
    );
    expect(await refused({ purpose: 'Personal', desiredFeature: ['CI/CD'] })).toBe(ONBOARDING_MESSAGES.roleRequired);
    expect(await refused({ purpose: 'Personal', role: 'Other', desiredFeature: ['CI/CD'] })).toBe(
      ONBOARDING_MESSAGES.otherRoleRequired,
    );
    expect(await refused({ purpose: 'Commercial', role: 'Software Developer', desiredFeature: ['SBOM'] })).toBe(
      ONBOARDING_MESSAGES.companyRequired,
    );
    expect(await refused({ purpose: 'Personal', role: 'Software Developer', desiredFeature: [] })).toBe(
      ONBOARDING_MESSAGES.featureRequired,
    );
    expect((await call('GET', '/ui/userCustomData')).json()).toEqual({});

    const body = {
      purpose: 'Commercial',
      companyName: 'Acme',
      role: 'DevOps Engineer',
      desiredFeature: ['Binary management', 'Container Registry'],
    };
    expect((await call('POST', '/system/onboarding', body)).statusCode).toBe(204);
    const data = (await call('GET', '/ui/userCustomData')).json();
    expect(data).toMatchObject({ onboardingCompleted: true, gettingStartedSeen: true });
    expect(data.onboarding).toMatchObject(body);
    expect((await call('GET', '/system/onboarding')).json()).toMatchObject({ completed: true, needsOnboarding: false });
    // another user's data is theirs alone
    expect((await call('GET', '/ui/userCustomData', undefined, user)).json()).toEqual({});
    expect((await call('PUT', '/ui/userCustomData/gettingStartedSeen', { value: true }, user)).statusCode).toBe(204);
    expect((await call('GET', '/system/onboarding', undefined, user)).json().gettingStartedSeen).toBe(true);
    expect((await call('PUT', '/ui/userCustomData/bad key', { value: 1 }, user)).statusCode).toBe(400);

    // a user deleted and made again under the name starts afresh
    await t.app.inject({ method: 'DELETE', url: '/artifactory/api/security/users/dev', headers: ADMIN_BASIC });
    await createUser(t.app, 'dev');
    user = { ...XHR, cookie: (await login(t.app, 'dev', 'dev-Passw0rd')).cookie };
    expect((await call('GET', '/ui/userCustomData', undefined, user)).json()).toEqual({});
  });

  it('creates local, remote and virtual repositories per package type in one go, or none', async () => {
    const made = await call('POST', '/ui/onboarding/createDefaultRepos', {
      packageTypes: ['npm', 'generic'],
      inDefaultProject: true,
    });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toEqual({
      repositories: [
        { key: 'npm-local', rclass: 'local', packageType: 'npm' },
        { key: 'npm-remote', rclass: 'remote', packageType: 'npm' },
        { key: 'npm', rclass: 'virtual', packageType: 'npm' },
        { key: 'generic-local', rclass: 'local', packageType: 'generic' },
        { key: 'generic', rclass: 'virtual', packageType: 'generic' },
      ],
      project: 'dflt',
    });
    const npm = await call('GET', '/ui/admin/repositories/npm');
    expect(npm.json()).toMatchObject({ rclass: 'virtual', repositories: ['npm-local', 'npm-remote'] });
    const remote = (await call('GET', '/ui/admin/repositories/npm-remote')).json();
    expect(remote.url).toBe('https://registry.npmjs.org/');
    const rows = await t.app.db
      .selectFrom('repositories')
      .select(['key', 'project_key'])
      .where('key', 'like', 'npm%')
      .execute();
    expect(rows.every((r) => r.project_key === 'dflt')).toBe(true);

    // pypi is new but maven-local is taken: neither type is set up
    await createRepo(t.app, 'maven-local', { rclass: 'local', packageType: 'maven' });
    const before = (await t.app.db.selectFrom('repositories').select('key').execute()).length;
    const taken = await call('POST', '/ui/onboarding/createDefaultRepos', { packageTypes: ['pypi', 'maven'] });
    expect([taken.statusCode, messages(taken)[0]]).toEqual([409, 'Repositories for Maven exist already.']);
    const unknown = await call('POST', '/ui/onboarding/createDefaultRepos', { packageTypes: ['pypi', 'nonsense'] });
    expect(unknown.statusCode).toBe(400);
    expect((await t.app.db.selectFrom('repositories').select('key').execute()).length).toBe(before);
    expect((await call('POST', '/ui/onboarding/createDefaultRepos', { packageTypes: [] })).statusCode).toBe(400);
    expect((await call('POST', '/ui/onboarding/createDefaultRepos', { packageTypes: ['pypi'] }, user)).statusCode).toBe(
      403,
    );
    const state = (await call('GET', '/system/onboarding')).json();
    expect(
      state.packageTypes.filter((p: { exists: boolean }) => p.exists).map((p: { type: string }) => p.type),
    ).toEqual(['npm', 'maven', 'generic']);
  });
});
