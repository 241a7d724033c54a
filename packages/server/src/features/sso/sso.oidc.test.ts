import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_MESSAGES, formatMessage } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, messages, startTestApp, type TestApp } from '../../test/harness.js';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  TestBrowser,
  startOidcProvider,
  type OidcTestProvider,
} from '../../test/oidc-provider.js';

const API = '/ui/api/v1/ui/oauth2';
const admin = { ...ADMIN_BASIC, ...XHR };

describe.each(ENGINES)('OpenID Connect sign-in on %s', (engine) => {
  let t: TestApp;
  let op: OidcTestProvider;
  let base: string;

  beforeAll(async () => {
    // the provider of the test runs on this host
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    op = await startOidcProvider([`${base}/ui/api/v1/auth/oauth2/callback/acme-id`]);
    for (const name of ['platform-team', 'everyone-group']) {
      await t.app.inject({
        method: 'PUT',
        url: `/artifactory/api/security/groups/${name}`,
        headers: ADMIN_BASIC,
        payload: { description: name },
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await op?.stop();
  });

  const provider = () => ({
    name: 'acme-id',
    displayName: 'Acme ID',
    issuerUrl: op.issuer,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    scopes: 'openid profile email groups',
    groupMapping: 'platform = platform-team\neveryone = everyone-group',
  });
  /** A sign-in from the login page's button to Arca's answer. */
  const signIn = async (browser: TestBrowser, login: string) => {
    const start = await fetch(`${base}/ui/api/v1/ui/oauth2/loginRequestPlatform`);
    const [button] = (await start.json()) as { url: string }[];
    return browser.signInThrough(
      `${base}${button!.url}?redirect=/ui/packages`,
      login,
      `${base}/ui/api/v1/auth/oauth2/callback/`,
    );
  };

  it('saves a provider with its secret sealed, refuses what is wrong and keeps nothing then', async () => {
    const refused = async (payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `${API}/providers`, headers: admin, payload });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ ...provider(), issuerUrl: 'http://idp.example.com' })).toBe(
      `issuerUrl: ${OIDC_MESSAGES.issuerInvalid}`,
    );
    expect(await refused({ ...provider(), groupMapping: 'platform' })).toBe(OIDC_MESSAGES.mappingInvalid);
    expect(await refused({ ...provider(), groupMapping: 'platform = nobody' })).toBe(
      formatMessage(OIDC_MESSAGES.unknownGroup, { group: 'nobody' }),
    );
    expect((await t.app.inject({ method: 'GET', url: `${API}/providers`, headers: admin })).json()).toEqual([]);

    const saved = await t.app.inject({ method: 'POST', url: `${API}/providers`, headers: admin, payload: provider() });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({
      name: 'acme-id',
      clientSecretSet: true,
      redirectUri: 'http://localhost:80/ui/api/v1/auth/oauth2/callback/acme-id',
    });
    expect(saved.json()).not.toHaveProperty('clientSecret');
    const row = await t.app.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'oidc.providers')
      .executeTakeFirst();
    expect(row!.value).not.toContain(OIDC_CLIENT_SECRET);
    const buttons = (await t.app.inject({ method: 'GET', url: `${API}/loginRequestPlatform` })).json();
    expect(buttons).toEqual([
      { name: 'acme-id', displayName: 'Acme ID', type: 'oidc', url: '/ui/api/v1/auth/oauth2/login/acme-id' },
    ]);
  });

  it('signs a user in through the provider: a session, the claims, the mapped groups', async () => {
    const browser = new TestBrowser();
    const { response, url } = await signIn(browser, 'dana');
    expect(url).toMatch(/\/auth\/oauth2\/callback\/acme-id\?code=/);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/ui/packages');
    const host = new URL(base).host;
    const session = browser.cookie(host, 'arca_session');
    expect(session).toBeTruthy();
    const me = await fetch(`${base}/ui/api/v1/ui/auth/current`, { headers: { cookie: `arca_session=${session}` } });
    expect(((await me.json()) as { name: string }).name).toBe('dana');
    const user = await t.app.db.selectFrom('users').selectAll().where('name', '=', 'dana').executeTakeFirst();
    expect(user).toMatchObject({
      realm: 'oauth',
      email: 'dana@acme.test',
      external_source: 'acme-id',
      password_hash: null,
    });
    const groups = await t.app.db
      .selectFrom('group_members')
      .select('group_name')
      .where('user_id', '=', user!.id)
      .orderBy('group_name')
      .execute();
    expect(groups.map((g) => g.group_name)).toEqual(['everyone-group', 'platform-team']);
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['details', 'outcome'])
      .where('category', '=', 'auth')
      .where('target', '=', 'dana')
      .execute();
    expect(audit.some((a) => a.details.includes("identity provider 'acme-id'"))).toBe(true);
    // the request is used once: the same answer again finds nothing
    const replayed = await browser.request(url);
    expect(decodeURIComponent(replayed.headers.get('location')!)).toBe(
      `/ui/login?ssoError=${OIDC_MESSAGES.requestUnknown}`,
    );
  });

  it('refuses an answer to another browser, a tampered ID token and one made for another client', async () => {
    // the answer arrives in a browser that did not start the sign-in (no state cookie): login CSRF
    const victim = new TestBrowser();
    const attacker = new TestBrowser();
    const started = await attacker.request(`${base}/ui/api/v1/auth/oauth2/login/acme-id`);
    const { url } = await attacker.signInThrough(
      started.headers.get('location')!,
      'erin',
      `${base}/ui/api/v1/auth/oauth2/callback/`,
      false,
    );
    const planted = await victim.request(url);
    expect(decodeURIComponent(planted.headers.get('location')!)).toContain(OIDC_MESSAGES.requestUnknown);
    expect(victim.cookie(new URL(base).host, 'arca_session')).toBeUndefined();

    for (const [mode, reason] of [
      ['signature', /signature/i],
      ['audience', /aud/i],
    ] as const) {
      op.tamper(mode);
      const browser = new TestBrowser();
      const { response } = await signIn(browser, 'erin');
      const location = decodeURIComponent(response.headers.get('location')!);
      expect(location).toMatch(/^\/ui\/login\?ssoError=The identity provider’s answer was refused: /);
      expect(location).toMatch(reason);
      expect(browser.cookie(new URL(base).host, 'arca_session')).toBeUndefined();
    }
    op.tamper('none');
    expect(
      await t.app.db.selectFrom('users').select('name').where('name', '=', 'erin').executeTakeFirst(),
    ).toBeUndefined();
    const failures = await t.app.db
      .selectFrom('audit_events')
      .select('outcome')
      .where('target', '=', 'identity provider acme-id')
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(3);
  });

  it('sends the login page to one provider when it is the way in, and refuses to name a local user', async () => {
    const set = await t.app.inject({
      method: 'PUT',
      url: `${API}/settings`,
      headers: admin,
      payload: { autoRedirectProvider: 'acme-id' },
    });
    expect(set.statusCode).toBe(200);
    const data = (
      await t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/auth/loginRelatedData', headers: XHR, payload: {} })
    ).json();
    expect(data.ssoProviderLink).toBe('/ui/api/v1/auth/oauth2/login/acme-id');
    const unknown = await t.app.inject({
      method: 'PUT',
      url: `${API}/settings`,
      headers: admin,
      payload: { autoRedirectProvider: 'nope' },
    });
    expect(messages(unknown)[0]).toBe(formatMessage(OIDC_MESSAGES.notFound, { name: 'nope' }));

    // a local user named as the provider's user is not taken over
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/users/erin',
      headers: ADMIN_BASIC,
      payload: { email: 'erin@example.com', password: 'Erin-local-1!' },
    });
    const { response } = await signIn(new TestBrowser(), 'erin');
    expect(decodeURIComponent(response.headers.get('location')!)).toContain(
      formatMessage(OIDC_MESSAGES.nameOfLocalUser, { name: 'erin' }),
    );
  });
  it('ties an account to the provider’s subject: a changed user name claim neither moves nor takes an account', async () => {
    const signedInAs = async (login: string) => {
      const browser = new TestBrowser();
      const { response } = await signIn(browser, login);
      const session = browser.cookie(new URL(base).host, 'arca_session');
      if (!session) return { name: undefined, refusal: decodeURIComponent(response.headers.get('location')!) };
      const me = await fetch(`${base}/ui/api/v1/ui/auth/current`, { headers: { cookie: `arca_session=${session}` } });
      return { name: ((await me.json()) as { name: string }).name, refusal: undefined };
    };
    expect((await signedInAs('frank')).name).toBe('frank');
    const frank = await t.app.db.selectFrom('users').selectAll().where('name', '=', 'frank').executeTakeFirstOrThrow();
    expect(frank.external_subject).toBe(`${op.issuer} frank`);

    // mallory renames herself to frank (in any spelling) at the provider: she gets no account of his
    for (const claimed of ['frank', 'FRANK', ' Frank']) {
      op.rename('mallory', claimed);
      expect((await signedInAs('mallory')).refusal).toContain(
        formatMessage(OIDC_MESSAGES.nameOfOtherSubject, { name: 'frank' }),
      );
    }
    // frank renames himself: still his account, under its name
    op.rename('frank', 'franklin');
    expect((await signedInAs('frank')).name).toBe('frank');
    const users = await t.app.db.selectFrom('users').select(['id', 'name']).where('realm', '=', 'oauth').execute();
    expect(users.filter((u) => /frank|mallory/i.test(u.name))).toEqual([{ id: frank.id, name: 'frank' }]);
    // mallory under her own name is her own account
    op.rename('mallory', 'mallory');
    expect((await signedInAs('mallory')).name).toBe('mallory');
  });
  it('discovers no provider on this host or a link-local address unless the outbound policy allows it', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: `${API}/providers`,
      headers: admin,
      payload: { ...provider(), name: 'elsewhere', issuerUrl: op.issuer.replace('127.0.0.1', '127.0.0.2') },
    });
    expect(saved.statusCode).toBe(201);
    const start = await new TestBrowser().request(`${base}/ui/api/v1/auth/oauth2/login/elsewhere`);
    const location = decodeURIComponent(start.headers.get('location') ?? '');
    expect(location).toContain('could not be discovered');
    expect(location).toContain('127.0.0.2 is a loopback or link-local address, which outbound requests may not reach.');
  });
});
