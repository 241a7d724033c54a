import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_ERROR_CODES, PASSWORD_FLOW_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  changeSecuritySettings,
  createUser,
  linkIn,
  enrolTotp,
  login,
  messages,
  mfaCookie,
  sessionCookie,
  startMailServer,
  startTestApp,
  totpCode,
  type TestApp,
} from '../../test/harness.js';

const API = '/ui/api/v1';
const code = totpCode;

describe.each(ENGINES)('sign-in flows on %s', (engine) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  beforeEach(async () => {
    t = await startTestApp(engine);
    mail = await startMailServer();
    await createUser(t.app, 'ann');
  });
  afterEach(async () => {
    await t.close();
    await mail.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, headers: { ...XHR, ...headers }, payload: payload as object });
  const adminCookie = async () => (await login(t.app)).cookie;
  async function configureMail() {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${API}/ui/mail`,
      headers: { ...XHR, cookie: await adminCookie() },
      payload: {
        enabled: true,
        host: '127.0.0.1',
        port: mail.port,
        useSsl: false,
        useTls: false,
        username: '',
        password: '',
        from: 'arca@example.com',
        subjectPrefix: '[Arca]',
        externalUrl: 'https://arca.example.com',
      },
    });
    expect(res.statusCode).toBe(200);
  }

  it('enrols a second factor, then asks for a code at every sign-in until an administrator resets it', async () => {
    const { cookie } = await login(t.app, 'ann', 'ann-Passw0rd');
    const enrollment = await t.app.inject({ method: 'GET', url: `${API}/auth/mfa/enroll/`, headers: { cookie } });
    const { secret, otpauthUrl, qrCode } = enrollment.json() as { secret: string; otpauthUrl: string; qrCode: string };
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Arca:ann\?/);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect(messages(await post('/auth/mfa/enroll/', { otp: '000000' }, { cookie }))).toEqual([
      PASSWORD_FLOW_MESSAGES.badOtp,
    ]);
    expect((await post('/auth/mfa/enroll/', { otp: code(secret) }, { cookie })).json()).toEqual({ enrolled: true });

    const first = await login(t.app, 'ann', 'ann-Passw0rd');
    expect(first.res.json()).toEqual({ mfaStatus: 'verify', authenticator: 'totp', userName: 'ann' });
    expect(first.cookie).toBe('');
    const pending = mfaCookie(first.res);
    const wrong = await post('/access/auth/mfa/verify/', { otp: '123456' }, { cookie: pending });
    expect(wrong.statusCode).toBe(401);
    // the enrolment used this step's code; the next step's is accepted too (clock drift)
    const right = await post('/auth/mfa/verify/', { otp: code(secret, 1), authenticator: 'totp' }, { cookie: pending });
    expect(right.json()).toMatchObject({ name: 'ann' });
    const session = sessionCookie(right);
    const current = await t.app.inject({ method: 'GET', url: `${API}/ui/auth/current`, headers: { cookie: session } });
    expect(current.json()).toMatchObject({ name: 'ann' });
    // the pending sign-in was used up
    expect((await post('/auth/mfa/verify/', { otp: code(secret) }, { cookie: pending })).statusCode).toBe(403);
    // and a code works once: replaying it at the next sign-in fails
    const replay = mfaCookie((await login(t.app, 'ann', 'ann-Passw0rd')).res);
    expect((await post('/auth/mfa/verify/', { otp: code(secret, 1) }, { cookie: replay })).statusCode).toBe(401);

    const reset = await t.app.inject({
      method: 'DELETE',
      url: `${API}/ui/users/ann/mfa`,
      headers: { ...XHR, cookie: await adminCookie() },
    });
    expect(reset.statusCode).toBe(204);
    expect((await login(t.app, 'ann', 'ann-Passw0rd')).cookie).not.toBe('');
  });

  /** Enrols ann, starts a two-factor sign-in and sends five wrong codes: their statuses. */
  async function fiveWrongCodes() {
    const { secret } = await enrolTotp(t.app, 'ann', 'ann-Passw0rd');
    const pending = mfaCookie((await login(t.app, 'ann', 'ann-Passw0rd')).res);
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await post('/auth/mfa/verify/', { otp: '000000' }, { cookie: pending })).statusCode);
    return { secret, pending, statuses };
  }

  it('says plainly that no sign-in is in progress when the enrolment page is opened without one', async () => {
    const none = await t.app.inject({ method: 'GET', url: `${API}/auth/mfa/enroll/` });
    expect([none.statusCode, messages(none)]).toEqual([403, [PASSWORD_FLOW_MESSAGES.noPendingSignIn]]);
    const stale = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/mfa/enroll/`,
      headers: { cookie: 'arca_mfa=gone-long-ago' },
    });
    expect([stale.statusCode, messages(stale)]).toEqual([403, [PASSWORD_FLOW_MESSAGES.otpExpired]]);
  });

  it('counts wrong second-factor codes toward the lockout, so signing in again gives no fresh guesses', async () => {
    const { secret, pending, statuses } = await fiveWrongCodes();
    // the fifth wrong code locks the user, as five wrong passwords would
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect((await post('/auth/mfa/verify/', { otp: code(secret) }, { cookie: pending })).statusCode).toBe(403);
    expect((await login(t.app, 'ann', 'ann-Passw0rd')).res.statusCode).toBe(429);
  });

  it('ends a two-factor sign-in after five wrong codes when lockout is off', async () => {
    await changeSecuritySettings(t.app, { lockoutEnabled: false });
    const { secret, pending, statuses } = await fiveWrongCodes();
    expect(statuses).toEqual([401, 401, 401, 401, 403]);
    expect((await post('/auth/mfa/verify/', { otp: code(secret) }, { cookie: pending })).statusCode).toBe(403);
  });

  it('makes everyone enrol when the deployment requires two factors', async () => {
    await changeSecuritySettings(t.app, { requireMfa: true });
    const first = await login(t.app, 'ann', 'ann-Passw0rd');
    expect(first.res.json()).toMatchObject({ mfaStatus: 'enroll' });
    const pending = mfaCookie(first.res);
    const { secret } = (
      await t.app.inject({ method: 'GET', url: `${API}/auth/mfa/enroll/`, headers: { cookie: pending } })
    ).json() as {
      secret: string;
    };
    const done = await post('/auth/mfa/enroll/', { otp: code(secret) }, { cookie: pending });
    expect(done.json()).toMatchObject({ name: 'ann' });
    expect(sessionCookie(done)).not.toBe('');
  });

  it('resets a forgotten password through a link sent by real mail, once', async () => {
    expect(messages(await post('/ui/auth/forgotpassword', { user: 'ann' }))).toEqual([
      PASSWORD_FLOW_MESSAGES.mailNotConfigured,
    ]);
    await configureMail();
    const related = await post('/ui/auth/loginRelatedData', {});
    expect(related.json()).toMatchObject({ forgotPassword: true });

    expect((await post('/ui/auth/forgotpassword', { user: 'nobody' })).json()).toEqual({
      message: PASSWORD_FLOW_MESSAGES.resetSent,
    });
    expect(mail.messages).toHaveLength(0);
    expect((await post('/ui/auth/forgotpassword', { user: 'ann' })).json()).toEqual({
      message: PASSWORD_FLOW_MESSAGES.resetSent,
    });
    await expect.poll(() => mail.messages.length).toBe(1);
    expect(mail.messages[0]!.to).toEqual(['ann@example.com']);
    expect(mail.messages[0]!.raw).toContain('Subject: [Arca] Reset your password');
    const link = new URL(linkIn(mail.messages[0]!.raw));
    expect(`${link.origin}${link.pathname}`).toBe('https://arca.example.com/ui/login/reset-password');
    const key = link.searchParams.get('key')!;

    expect((await post(`/ui/auth/validatetoken?key=${key}`, {})).json()).toEqual({ user: 'ann' });
    const weak = await post(`/ui/auth/resetpassword?key=${key}`, { user: 'ann', password: 'short' });
    expect(messages(weak)).toEqual(['The password must be at least 8 characters long.']);
    const reset = await post(`/ui/auth/resetpassword?key=${key}`, { user: 'ann', password: 'Brand-new-pass' });
    expect(reset.statusCode).toBe(200);
    expect((await login(t.app, 'ann', 'Brand-new-pass')).res.statusCode).toBe(200);
    expect((await login(t.app, 'ann', 'ann-Passw0rd')).res.statusCode).toBe(401);
    const again = await post(`/ui/auth/resetpassword?key=${key}`, { user: 'ann', password: 'Another-pass-1' });
    expect(messages(again)).toEqual([PASSWORD_FLOW_MESSAGES.badResetLink]);
    expect(messages(await post(`/ui/auth/validatetoken?key=${key}`, {}))).toEqual([
      PASSWORD_FLOW_MESSAGES.badResetLink,
    ]);
  });

  it('sends an expired password to change-password, then signs in with the new one', async () => {
    await changeSecuritySettings(t.app, { passwordExpiryDays: 30 });
    // within the warning period the user data says when it expires
    await t.app.db
      .updateTable('users')
      .set({ password_changed_at: Date.now() - 27 * 86_400_000 })
      .where('name', '=', 'ann')
      .execute();
    const warned = (await login(t.app, 'ann', 'ann-Passw0rd')).res.json() as { passwordExpiresAt: string };
    expect(Date.parse(warned.passwordExpiresAt) - Date.now()).toBeGreaterThan(2 * 86_400_000);
    await t.app.db
      .updateTable('users')
      .set({ password_changed_at: Date.now() - 31 * 86_400_000 })
      .where('name', '=', 'ann')
      .execute();
    const expired = await login(t.app, 'ann', 'ann-Passw0rd');
    expect(expired.res.statusCode).toBe(403);
    expect(expired.res.json()).toEqual({
      errors: [
        { status: 403, message: PASSWORD_FLOW_MESSAGES.passwordExpired, code: AUTH_ERROR_CODES.passwordExpired },
      ],
    });
    const change = (body: Record<string, string>) =>
      post('/ui/auth/changePassword?prefix=changePassword', { userName: 'ann', ...body });
    expect(
      (await change({ oldPassword: 'wrong', newPassword1: 'Next-password-1', newPassword2: 'Next-password-1' }))
        .statusCode,
    ).toBe(401);
    expect(
      messages(
        await change({ oldPassword: 'ann-Passw0rd', newPassword1: 'ann-Passw0rd', newPassword2: 'ann-Passw0rd' }),
      ),
    ).toEqual([PASSWORD_FLOW_MESSAGES.samePassword]);
    expect(
      messages(await change({ oldPassword: 'ann-Passw0rd', newPassword1: 'Next-password-1', newPassword2: 'Other' })),
    ).toEqual([PASSWORD_FLOW_MESSAGES.mismatch]);
    const changed = await change({
      oldPassword: 'ann-Passw0rd',
      newPassword1: 'Next-password-1',
      newPassword2: 'Next-password-1',
    });
    expect(changed.json()).toMatchObject({ name: 'ann' });
    expect(sessionCookie(changed)).not.toBe('');
  });

  it('invites a new user by e-mail to choose a password, once', async () => {
    const admin = await adminCookie();
    const noMail = await t.app.inject({
      method: 'POST',
      url: `${API}/ui/users`,
      headers: { ...XHR, cookie: admin },
      payload: { name: 'bob', email: 'bob@example.com', invite: true },
    });
    expect(messages(noMail)).toEqual([PASSWORD_FLOW_MESSAGES.mailNotConfigured]);
    expect((await t.app.db.selectFrom('users').select('name').where('name', '=', 'bob').execute()).length).toBe(0);
    await configureMail();
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/ui/users`,
      headers: { ...XHR, cookie: admin },
      payload: { name: 'bob', email: 'bob@example.com', invite: true },
    });
    expect(created.statusCode).toBe(200);
    await expect.poll(() => mail.messages.length).toBe(1);
    const link = new URL(linkIn(mail.messages[0]!.raw));
    expect(link.pathname).toBe('/ui/login/invitation');
    const token = link.searchParams.get('token')!;
    expect((await post('/access/token/verify', { token })).json()).toEqual({
      userName: 'bob',
      email: 'bob@example.com',
    });
    expect((await login(t.app, 'bob', 'anything-at-all')).res.statusCode).toBe(401);
    expect(
      (await post('/access/entities/users/invited/setPassword', { token, password: 'Bobs-password' })).statusCode,
    ).toBe(200);
    expect((await login(t.app, 'bob', 'Bobs-password')).res.json()).toMatchObject({ name: 'bob' });
    const reused = await post('/access/entities/users/invited/setPassword', { token, password: 'Another-pass-2' });
    expect(messages(reused)).toEqual([PASSWORD_FLOW_MESSAGES.badInvitation]);
  });

  it('sends a test message with the form’s settings', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/ui/mail/test`,
      headers: { ...XHR, ...ADMIN_BASIC },
      payload: {
        to: 'ops@example.com',
        settings: {
          enabled: false,
          host: '127.0.0.1',
          port: mail.port,
          useSsl: false,
          useTls: false,
          username: '',
          password: '',
          from: 'arca@example.com',
          subjectPrefix: '',
          externalUrl: '',
        },
      },
    });
    expect(res.json()).toEqual({ message: 'A test message was sent to ops@example.com.' });
    await expect.poll(() => mail.messages.length).toBe(1);
    const refused = await t.app.inject({
      method: 'POST',
      url: `${API}/ui/mail/test`,
      headers: { ...XHR, ...ADMIN_BASIC },
      payload: {
        to: 'ops@example.com',
        settings: {
          enabled: true,
          host: '127.0.0.1',
          port: 1,
          useSsl: false,
          useTls: false,
          username: '',
          password: '',
          from: '',
          subjectPrefix: '',
          externalUrl: '',
        },
      },
    });
    expect(refused.statusCode).toBe(502);
    expect(messages(refused)[0]).toMatch(/^Email wasn't sent/);
  });
});
