import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, MAIL_MESSAGES, PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  basic,
  countRows,
  createRepo,
  createUser,
  enrolTotp,
  login,
  messages,
  mfaCookie,
  changeSecuritySettings,
  startMailServer,
  startTestApp,
  totpCode,
  put,
  type TestApp,
} from '../../test/harness.js';

const API = '/ui/api/v1';
const code = totpCode;

/** Sign-in and session findings of testing the server as an attacker would. */
describe.each(ENGINES)('sign-in hardening on %s', (engine) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  beforeEach(async () => {
    t = await startTestApp(engine);
    mail = await startMailServer();
  });
  afterEach(async () => {
    await t.close();
    await mail.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, headers: { ...XHR, ...headers }, payload: payload as object });

  async function configureMail(externalUrl: string, port = mail.port) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${API}/ui/mail`,
      headers: { ...XHR, ...ADMIN_BASIC },
      payload: {
        enabled: true,
        host: '127.0.0.1',
        port,
        useSsl: false,
        useTls: false,
        username: '',
        password: '',
        from: 'arca@example.com',
        subjectPrefix: '[Arca]',
        externalUrl,
      },
    });
    expect(res.statusCode).toBe(200);
  }

  const enrol = (name: string, password: string) => enrolTotp(t.app, name, password);

  it('refuses the password alone over Basic for a user with a second factor; tokens still work', async () => {
    const ann = await createUser(t.app, 'ann');
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/access/api/v1/tokens',
        headers: ann,
        payload: { description: 'ci', expires_in: 3600 },
      })
    ).json() as { access_token: string };
    await enrol('ann', 'ann-Passw0rd');
    const tokensBefore = await countRows(t.app, 'access_tokens');
    const viaPassword = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: ann,
      payload: { description: 'bypass', expires_in: 0 },
    });
    expect(viaPassword.statusCode).toBe(401);
    expect(messages(viaPassword)).toEqual([AUTH_MESSAGES.mfaUseToken]);
    expect(await countRows(t.app, 'access_tokens')).toBe(tokensBefore);
    // removing the second factor needs the session, not a client credential
    const viaToken = await t.app.inject({
      method: 'DELETE',
      url: `${API}/ui/auth/mfa`,
      headers: { ...XHR, authorization: `Bearer ${token.access_token}` },
      payload: { otp: '123456' },
    });
    expect(messages(viaToken)).toEqual([PASSWORD_FLOW_MESSAGES.mfaNeedsSession]);
    const ping = await t.app.inject({
      url: '/ui/api/v1/ui/auth/current',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(ping.json()).toMatchObject({ name: 'ann' });
  });

  it('removes one’s own second factor only with a fresh code', async () => {
    await createUser(t.app, 'ann');
    const { secret } = await enrol('ann', 'ann-Passw0rd');
    // a session that passed the second factor
    const first = await login(t.app, 'ann', 'ann-Passw0rd');
    const pending = `arca_mfa=${first.res.cookies.find((c) => c.name === 'arca_mfa')!.value}`;
    const verified = await post('/auth/mfa/verify/', { otp: code(secret, 1) }, { cookie: pending });
    const cookie = `arca_session=${verified.cookies.find((c) => c.name === 'arca_session')!.value}`;
    const remove = (otp: string | undefined) =>
      t.app.inject({
        method: 'DELETE',
        url: `${API}/ui/auth/mfa`,
        headers: { ...XHR, cookie },
        ...(otp === undefined ? {} : { payload: { otp } }),
      });
    expect((await remove(undefined)).statusCode).toBe(400);
    expect(messages(await remove('000000'))).toEqual([PASSWORD_FLOW_MESSAGES.badOtp]);
    const user = await t.app.db
      .selectFrom('users')
      .select('mfa_enrolled_at')
      .where('name', '=', 'ann')
      .executeTakeFirst();
    expect(user?.mfa_enrolled_at).not.toBeNull();
    // a code is good once per 30 s step: let the steps used so far pass
    await t.app.db.updateTable('users').set({ mfa_last_step: null }).where('name', '=', 'ann').execute();
    expect((await remove(code(secret))).statusCode).toBe(204);
  });

  it('never builds a reset link from the Host header', async () => {
    await createUser(t.app, 'ann');
    await configureMail('');
    const attacker = { host: 'attacker.example:8080' };
    const refused = await post('/ui/auth/forgotpassword', { user: 'ann' }, attacker);
    expect(refused.statusCode).toBe(400);
    expect(messages(refused)).toEqual([MAIL_MESSAGES.linkAddressRequired]);
    expect((await post('/ui/auth/loginRelatedData', {})).json()).toMatchObject({ forgotPassword: false });
    await configureMail('https://arca.example.com');
    expect((await post('/ui/auth/forgotpassword', { user: 'ann' }, attacker)).statusCode).toBe(200);
    await expect.poll(() => mail.messages.length).toBe(1);
    expect(mail.messages[0]!.raw).toContain('https://arca.example.com/ui/login/reset-password?key=');
    expect(mail.messages[0]!.raw).not.toContain('attacker.example');
  });

  it('answers forgot-password the same for known and unknown users, also when mail is down', async () => {
    await createUser(t.app, 'ann');
    await configureMail('https://arca.example.com', 1);
    const known = await post('/ui/auth/forgotpassword', { user: 'ann' });
    const unknown = await post('/ui/auth/forgotpassword', { user: 'nobody' });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).toBe(unknown.body);
  });

  it('deletes project memberships with their user, so a new user of the same name inherits nothing', async () => {
    await createRepo(t.app, 'web-local', { rclass: 'local' });
    await createUser(t.app, 'lead');
    const call = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
      t.app.inject({ method, url: `${API}${url}`, headers: { ...ADMIN_BASIC, ...XHR }, payload: payload as object });
    await call('POST', '/projects', { projectKey: 'web', displayName: 'Web' });
    await call('POST', '/projects/resources/assign', { projectKey: 'web', repositories: ['web-local'] });
    await call('PUT', '/projects/web/members', { members: [{ name: 'lead', type: 'user', role: 'admin' }] });
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/artifactory/api/security/users/lead', headers: ADMIN_BASIC }))
        .statusCode,
    ).toBe(200);
    expect(await t.app.db.selectFrom('project_members').selectAll().execute()).toEqual([]);
    const lead = await createUser(t.app, 'lead');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/web-local/a.txt',
      headers: lead,
      payload: 'x',
    });
    expect(put.statusCode).toBe(403);
  });

  it('counts wrong second-factor codes across sign-ins: a correct password gives no fresh guesses', async () => {
    await createUser(t.app, 'ann');
    const { secret } = await enrol('ann', 'ann-Passw0rd');
    expect(
      (await changeSecuritySettings(t.app, { lockoutEnabled: true, lockoutAttempts: 3, lockoutMinutes: 30 }))
        .statusCode,
    ).toBe(200);
    const wrong = code(secret, 5);
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 3; attempt++) {
      const signIn = await login(t.app, 'ann', 'ann-Passw0rd');
      expect(signIn.res.statusCode).toBe(200);
      last = await post('/auth/mfa/verify/', { otp: wrong }, { cookie: mfaCookie(signIn.res) });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(messages(last!)).toEqual([AUTH_MESSAGES.lockedOtp.replace('{minutes}', '30')]);
    // the right password does not open the lock, and the lock says why it is there
    const again = await login(t.app, 'ann', 'ann-Passw0rd');
    expect(again.res.statusCode).toBe(429);
    expect(messages(again.res)[0]).toMatch(/^Too many wrong verification codes/);
  });

  it('refuses a token lifetime past ten years and stores nothing', async () => {
    const before = await countRows(t.app, 'access_tokens');
    const res = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: ADMIN_BASIC,
      payload: { expires_in: 9007199254740991 },
    });
    expect(res.statusCode).toBe(400);
    expect(await countRows(t.app, 'access_tokens')).toBe(before);
    expect((await t.app.inject({ url: '/access/api/v1/tokens', headers: ADMIN_BASIC })).statusCode).toBe(200);
  });

  it('checks the CSRF header on the decoded path and accepts the session cookie only on console routes', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    const { cookie } = await login(t.app);
    const encoded = await t.app.inject({
      method: 'POST',
      url: '/ui/%61pi/v1/ui/artifactactions/emptytrash',
      headers: { cookie },
    });
    expect(encoded.statusCode).toBe(403);
    // REST calls take Basic, Bearer or an API key: the console's cookie makes the caller anonymous there
    const rest = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/apiKey',
      headers: { cookie, 'content-type': 'text/plain' },
      payload: '',
    });
    expect(rest.statusCode).toBe(401);
    const deploy = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/libs-local/a.txt',
      headers: { cookie },
      payload: 'x',
    });
    expect(deploy.statusCode).toBe(401);
    expect(await countRows(t.app, 'items')).toBe(0);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/artifactory/libs-local/a.txt', headers: basic('admin', 'x') }))
        .statusCode,
    ).toBe(401);
  });
});

describe('limits on guessing and flooding', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp('sqlite');
  });
  afterEach(() => t.close());

  it('answers a flood of wrong client credentials with 429, and records no more', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await t.app.inject({ url: '/artifactory/api/repositories', headers: basic(`guess${i}`, 'wrong') });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
    expect(await countRows(t.app, 'audit_events')).toBe(30);
    const throttled = await t.app.inject({ url: '/artifactory/api/repositories', headers: basic('guess', 'wrong') });
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(throttled.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts per real client behind a trusted proxy, and believes no forwarded address from anyone else', async () => {
    const proxied = await startTestApp('sqlite', { ARCA_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' });
    try {
      expect((await changeSecuritySettings(proxied.app, { clientFailuresPerMinute: 3 })).statusCode).toBe(200);
      const from = (client: string, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
        proxied.app.inject({
          url: '/artifactory/api/repositories',
          remoteAddress,
          headers: { ...headers, 'x-forwarded-for': client },
        });
      const guesses: number[] = [];
      for (let i = 0; i < 4; i++) guesses.push((await from('203.0.113.9', basic(`guess${i}`, 'wrong'))).statusCode);
      expect(guesses).toEqual([401, 401, 401, 429]);
      // another client behind the same proxy is not throttled for the guesser's failures
      expect((await from('198.51.100.7', basic('someone', 'wrong'))).statusCode).toBe(401);
      expect((await from('198.51.100.7', ADMIN_BASIC)).statusCode).toBe(200);
      // the audit names the real client
      const audit = await proxied.app.db
        .selectFrom('audit_events')
        .select('source_ip')
        .where('target', '=', 'guess0')
        .executeTakeFirst();
      expect(audit?.source_ip).toBe('203.0.113.9');
      // a peer that is no trusted proxy cannot escape its throttle by naming another address
      for (let i = 0; i < 3; i++) await from(`192.0.2.${i}`, basic('spoofer', 'wrong'), '192.168.1.50');
      expect((await from('192.0.2.77', basic('spoofer', 'wrong'), '192.168.1.50')).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('takes the per-address limit from the security settings', async () => {
    expect((await changeSecuritySettings(t.app, { clientFailuresPerMinute: 3 })).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: '/artifactory/api/repositories', headers: basic(`guess${i}`, 'wrong') });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // the right credentials of someone at the same address are not refused for the guesser's failures
    expect((await t.app.inject({ url: '/artifactory/api/repositories', headers: ADMIN_BASIC })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: '/artifactory/api/repositories', headers: basic('admin', 'wrong') })).statusCode,
    ).toBe(429);
  });

  it('counts console sign-ins on the same per-client limit, and still lets the right password in', async () => {
    expect((await changeSecuritySettings(t.app, { clientFailuresPerMinute: 5 })).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/ui/auth/login`,
        headers: XHR,
        payload: { user: `name${i}`, password: 'wrong' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // REST credentials from that client are throttled as well
    expect(
      (await t.app.inject({ url: '/artifactory/api/repositories', headers: basic('x', 'wrong') })).statusCode,
    ).toBe(429);
    expect((await login(t.app)).res.statusCode).toBe(200);
  });

  it('throttles an address on every node once the failures counted on any of them reach the limit', async () => {
    expect((await changeSecuritySettings(t.app, { clientFailuresPerMinute: 3 })).statusCode).toBe(200);
    // another node of the deployment (on SQLite: another process on the same data directory)
    const other = await startTestApp('sqlite', { ARCA_DATA_DIR: t.dataDir });
    try {
      expect((await other.app.inject({ url: '/artifactory/api/repositories', headers: ADMIN_BASIC })).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ url: '/artifactory/api/repositories', headers: basic(`guess${i}`, 'wrong') });
        expect(res.statusCode).toBe(401);
      }
      // the other node takes in the counts within a second: the address's guesses wait there too
      await expect
        .poll(
          async () =>
            (await other.app.inject({ url: '/artifactory/api/repositories', headers: basic('guess', 'wrong') }))
              .statusCode,
          {
            timeout: 5_000,
            interval: 200,
          },
        )
        .toBe(429);
    } finally {
      await other.close();
    }
  });

  it('limits forgot-password requests per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await t.app.inject({
            method: 'POST',
            url: `${API}/ui/auth/forgotpassword`,
            headers: XHR,
            payload: { user: 'x' },
          })
        ).statusCode,
      );
    expect(statuses.at(-1)).toBe(429);
  });

  it('sends the console with a content security policy that forbids framing and sniffing', async () => {
    const res = await t.app.inject({ url: '/ui/api/v1/system/version' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // the console may call terraform login's listener, and nothing else on the user's machine
    const connect = /connect-src ([^;]+)/.exec(res.headers['content-security-policy'] as string)![1]!.split(' ');
    expect(connect).toContain('http://localhost:10000');
    expect(connect).toContain('http://127.0.0.1:10010');
    expect(connect.filter((source) => source.includes('*'))).toEqual([]);
    expect(connect).not.toContain('http://localhost:8080');
    expect(connect).toHaveLength(1 + 2 * 11);
  });

  it('serves repository content inert: a downloaded HTML file may run nothing, be framed by no site, not be sniffed', async () => {
    await createRepo(t.app, 'web-local', { rclass: 'local' });
    await put(t.app, '/artifactory/web-local/page.html', '<script>alert(1)</script>');
    const res = await t.app.inject({ url: '/artifactory/web-local/page.html', headers: ADMIN_BASIC });
    expect(res.statusCode).toBe(200);
    const policy = res.headers['content-security-policy'] as string;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain('sandbox');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('script-src');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
