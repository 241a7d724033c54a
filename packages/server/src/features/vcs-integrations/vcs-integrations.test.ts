import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VCS_MESSAGES, type VcsVendor } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, createUser, messages, startTestApp, type TestApp } from '../../test/harness.js';
import { startVcsDouble } from '../../test/vcs-double.js';

const API = '/ui/api/v1/integration';
const admin = { ...ADMIN_BASIC, ...XHR };
const ACCOUNT = { user: 'octo-dev', token: 'ghp_0123456789abcdefTOKEN' };

describe.each(ENGINES)('source-control integrations on %s', (engine) => {
  let t: TestApp;
  let double: Awaited<ReturnType<typeof startVcsDouble>>;
  const prefix: Record<VcsVendor, string> = {
    github: 'github',
    gitlab: 'gitlab',
    bitbucket_cloud: 'bitbucket-cloud',
    bitbucket_server: 'bitbucket-server',
  };
  const form = (vendorName: VcsVendor, extra: object = {}) => ({
    vendorName,
    userName: ACCOUNT.user,
    token: ACCOUNT.token,
    integrationName: `${vendorName.replace('_', '-')}-main`,
    url: `${double.url}/${prefix[vendorName]}`,
    ...extra,
  });
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: admin, payload });

  beforeAll(async () => {
    double = await startVcsDouble(ACCOUNT);
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), double?.close()]);
  });

  it.each(['github', 'gitlab', 'bitbucket_cloud', 'bitbucket_server'] as const)(
    'tests a %s account with the vendor API call, as the vendor documents it',
    async (vendor) => {
      double.requests.length = 0;
      const ok = await post(`${API}/test`, form(vendor));
      expect(ok.json()).toEqual({ success: true, message: VCS_MESSAGES.testOk, login: ACCOUNT.user });
      const wrong = await post(`${API}/test`, form(vendor, { token: 'not-the-token' }));
      expect(wrong.json()).toMatchObject({ success: false, message: VCS_MESSAGES.testFailed });
      const [call] = double.requests;
      const expected = {
        github: { path: '/user', header: ['authorization', `Bearer ${ACCOUNT.token}`] },
        gitlab: { path: '/api/v4/user', header: ['private-token', ACCOUNT.token] },
        bitbucket_cloud: {
          path: '/2.0/user',
          header: ['authorization', `Basic ${Buffer.from(`${ACCOUNT.user}:${ACCOUNT.token}`).toString('base64')}`],
        },
        bitbucket_server: {
          path: `/rest/api/1.0/users/${ACCOUNT.user}`,
          header: ['authorization', `Bearer ${ACCOUNT.token}`],
        },
      }[vendor];
      expect(call).toMatchObject({ method: 'GET', path: expected.path, vendor: prefix[vendor] });
      expect(call!.headers[expected.header[0]!]).toBe(expected.header[1]);
      if (vendor === 'github') {
        expect(call!.headers.accept).toBe('application/vnd.github+json');
        expect(call!.headers['x-github-api-version']).toBe('2022-11-28');
      }
    },
  );

  it('refuses a bad form with the spec messages, and keeps nothing that fails its test', async () => {
    const refused = async (payload: object) => {
      const res = await post(API, payload);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused(form('github', { userName: '' }))).toBe(`userName: ${VCS_MESSAGES.userName}`);
    expect(await refused(form('github', { integrationName: '' }))).toBe(
      `integrationName: ${VCS_MESSAGES.integrationName}`,
    );
    expect(await refused(form('github', { integrationName: 'my repo' }))).toBe(
      `integrationName: ${VCS_MESSAGES.nameRule}`,
    );
    expect(await refused(form('github', { token: '' }))).toBe(VCS_MESSAGES.token);
    expect(await refused(form('github', { token: 'wrong' }))).toBe(VCS_MESSAGES.testFailed);
    // the token names another account than the user given
    expect(await refused(form('github', { userName: 'someone-else' }))).toBe(VCS_MESSAGES.testFailed);
    expect((await t.app.inject({ url: `${API}/github`, headers: admin })).json()).toEqual([]);
  });

  it('creates, lists, edits and deletes, with the token sealed at rest', async () => {
    const created = await post(API, form('github'));
    expect(created.statusCode).toBe(201);
    const { key, message } = created.json();
    expect(message).toBe(`Successfully created ${key}`);
    const stored = await t.app.db
      .selectFrom('vcs_integrations')
      .select('token')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(stored.token).not.toContain(ACCOUNT.token);

    const groups = (await t.app.inject({ url: `${API}/getIntegrations`, headers: admin })).json();
    expect(groups.map((g: { type: string; available: boolean }) => [g.type, g.available])).toEqual([
      ['Source control', true],
      ['Developer Tools', true],
      ['Continuous integration', false],
    ]);
    expect(groups[1].items.map((c: { key: string }) => c.key)).toEqual(['vscode', 'jetbrains', 'cli']);
    // a user who is no administrator sees the developer tools only
    const userGroups = (
      await t.app.inject({
        url: `${API}/getIntegrations`,
        headers: { ...XHR, ...(await createUser(t.app, 'dev')) },
      })
    ).json();
    expect(userGroups.filter((g: { available: boolean }) => g.available).map((g: { type: string }) => g.type)).toEqual([
      'Developer Tools',
    ]);
    expect((await t.app.inject({ url: `${API}/github`, headers: await createUser(t.app, 'dev2') })).statusCode).toBe(
      403,
    );
    expect(groups[0].items.find((c: { key: string }) => c.key === 'github')).toMatchObject({
      vendor: 1,
      integrations: 1,
      connected: true,
      configured: false,
    });
    expect((await t.app.inject({ url: `${API}/github`, headers: admin })).json()).toEqual([
      expect.objectContaining({
        name: 'github-main',
        vendorName: 'github',
        vendor: 1,
        products: [],
        userName: ACCOUNT.user,
      }),
    ]);

    // an edit without a token tests and keeps the stored one
    const edited = await t.app.inject({
      method: 'PUT',
      url: `${API}/${key}`,
      headers: admin,
      payload: form('github', { token: '', integrationName: 'github-org' }),
    });
    expect(edited.json()).toMatchObject({ name: 'github-org', message: 'Successfully updated github-org' });
    const badEdit = await t.app.inject({
      method: 'PUT',
      url: `${API}/${key}`,
      headers: admin,
      payload: form('github', { token: 'wrong' }),
    });
    expect(messages(badEdit)[0]).toBe(VCS_MESSAGES.testFailed);
    // services that do not run here cannot be chosen
    const products = await t.app.inject({
      method: 'PUT',
      url: `${API}/${key}/products`,
      headers: admin,
      payload: { products: ['xray'] },
    });
    expect(messages(products)[0]).toBe(VCS_MESSAGES.serviceMissing);

    const deleted = await t.app.inject({ method: 'DELETE', url: `${API}/${key}`, headers: admin });
    expect(deleted.json()).toEqual({ message: 'Successfully deleted github-org' });
    expect((await t.app.inject({ url: `${API}/github`, headers: admin })).json()).toEqual([]);
  });
});
