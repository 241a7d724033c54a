import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_SSO_MESSAGES, formatMessage } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, messages, startTestApp, type TestApp } from '../../test/harness.js';

const LOGIN = '/ui/api/v1/auth/http-sso-login';
const admin = { ...ADMIN_BASIC, ...XHR };

describe.each(ENGINES)('HTTP single sign-on on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t.close();
  });
  const settings = (payload: object) =>
    t.app.inject({ method: 'PUT', url: '/ui/api/v1/ui/auth/httpSso', headers: admin, payload });
  const refusal = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers.location ?? ''));

  it('is off until turned on with the proxies it trusts; bad settings change nothing', async () => {
    const off = await t.app.inject({ method: 'GET', url: LOGIN, headers: { 'x-remote-user': 'hank' } });
    expect(refusal(off)).toBe(`/ui/login?ssoError=${HTTP_SSO_MESSAGES.off}`);
    expect(messages(await settings({ enabled: true, header: 'X-Remote-User', trustedProxies: [] }))[0]).toBe(
      HTTP_SSO_MESSAGES.proxiesMissing,
    );
    expect(messages(await settings({ enabled: true, header: 'X-Remote-User', trustedProxies: ['not-an-ip'] }))[0]).toBe(
      "'not-an-ip' is no IP address or CIDR range.",
    );
    expect(messages(await settings({ enabled: true, header: 'X Remote', trustedProxies: ['127.0.0.1'] }))[0]).toBe(
      `header: ${HTTP_SSO_MESSAGES.headerInvalid}`,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/auth/httpSso', headers: admin })).json(),
    ).toMatchObject({
      enabled: false,
    });
  });

  it('signs in the user a trusted proxy names, and no one through any other address', async () => {
    expect(
      (await settings({ enabled: true, header: 'X-Remote-User', trustedProxies: ['10.0.0.0/8', '127.0.0.1'] }))
        .statusCode,
    ).toBe(200);
    const buttons = (await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/oauth2/loginRequestPlatform' })).json();
    expect(buttons).toContainEqual({ name: 'http-sso', displayName: 'your company sign-in', type: 'http', url: LOGIN });

    const signedIn = await t.app.inject({ method: 'GET', url: LOGIN, headers: { 'x-remote-user': 'hank' } });
    expect(signedIn.statusCode).toBe(302);
    expect(signedIn.headers.location).toBe('/ui/');
    const session = signedIn.cookies.find((c) => c.name === 'arca_session');
    expect(session?.value).toBeTruthy();
    const me = await t.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/auth/current',
      cookies: { arca_session: session!.value },
    });
    expect(me.json().name).toBe('hank');
    const user = await t.app.db.selectFrom('users').selectAll().where('name', '=', 'hank').executeTakeFirst();
    expect(user).toMatchObject({ realm: 'http-sso', password_hash: null });

    // the header from anyone else is not believed, a forwarded-for header does not help
    const outsider = await t.app.inject({
      method: 'GET',
      url: LOGIN,
      remoteAddress: '192.168.7.7',
      headers: { 'x-remote-user': 'admin', 'x-forwarded-for': '127.0.0.1' },
    });
    expect(refusal(outsider)).toBe(
      `/ui/login?ssoError=${formatMessage(HTTP_SSO_MESSAGES.untrusted, { ip: '192.168.7.7' })}`,
    );
    expect(outsider.cookies.find((c) => c.name === 'arca_session')).toBeUndefined();
    const inRange = await t.app.inject({
      method: 'GET',
      url: LOGIN,
      remoteAddress: '10.20.30.40',
      headers: { 'x-remote-user': 'ivy' },
    });
    expect(inRange.headers.location).toBe('/ui/');
    const nameless = await t.app.inject({ method: 'GET', url: LOGIN });
    expect(refusal(nameless)).toBe(
      `/ui/login?ssoError=${formatMessage(HTTP_SSO_MESSAGES.headerMissing, { header: 'X-Remote-User' })}`,
    );
  });
  it('signs in only its own realm’s users, none with a second factor, administrators only when allowed', async () => {
    await settings({ enabled: true, header: 'X-Remote-User', trustedProxies: ['127.0.0.1'] });
    const via = (name: string) => t.app.inject({ method: 'GET', url: LOGIN, headers: { 'x-remote-user': name } });
    // the built-in administrator (a local password) and a local user in another spelling
    for (const name of ['admin', 'ADMIN']) {
      const res = await via(name);
      expect(refusal(res)).toBe(`/ui/login?ssoError=${formatMessage(HTTP_SSO_MESSAGES.otherRealm, { name })}`);
      expect(res.cookies.find((c) => c.name === 'arca_session')).toBeUndefined();
    }
    // an http-sso user made administrator signs in through the header only when the settings say so
    expect((await via('olga')).headers.location).toBe('/ui/');
    await t.app.db.updateTable('users').set({ admin: 1 }).where('name', '=', 'olga').execute();
    expect(refusal(await via('olga'))).toBe(
      `/ui/login?ssoError=${formatMessage(HTTP_SSO_MESSAGES.administrator, { name: 'olga' })}`,
    );
    await settings({
      enabled: true,
      header: 'X-Remote-User',
      trustedProxies: ['127.0.0.1'],
      allowAdministrators: true,
    });
    expect((await via('olga')).headers.location).toBe('/ui/');
    // a second factor the proxy cannot ask is never skipped
    await t.app.db.updateTable('users').set({ mfa_enrolled_at: Date.now() }).where('name', '=', 'olga').execute();
    expect(refusal(await via('olga'))).toBe(
      `/ui/login?ssoError=${formatMessage(HTTP_SSO_MESSAGES.secondFactor, { name: 'olga' })}`,
    );
  });
});
