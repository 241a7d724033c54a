import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, ERROR_MESSAGES } from '@arca/contracts';
import { hashPassword } from '../../core/passwords.js';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  XHR,
  createUser,
  login,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { insertUser } from '../identity/index.js';

describe.each(ENGINES)('session and login on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers the anonymous user before login', async () => {
    const res = await t.app.inject({ url: '/ui/api/v1/ui/auth/current' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'anonymous', admin: false, anonAccessEnabled: false });
  });

  it('logs the admin in with a session cookie and answers the user data', async () => {
    const { res, cookie } = await login(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'admin', admin: true, disableUIAccess: false });
    const set = res.cookies.find((c) => c.name === 'arca_session')!;
    expect(set.httpOnly).toBe(true);
    expect(set.sameSite).toBe('Lax');
    expect(set.maxAge).toBeUndefined();
    const current = await t.app.inject({ url: '/ui/api/v1/ui/auth/current', headers: { cookie } });
    expect(current.json()).toMatchObject({ name: 'admin', admin: true });
    expect(current.json().lastLoggedIn).not.toBeNull();
  });

  it('makes a persistent cookie with remember-me', async () => {
    const { res } = await login(t.app, 'admin', ADMIN_PASSWORD, true);
    const set = res.cookies.find((c) => c.name === 'arca_session')!;
    expect(set.maxAge).toBe(14 * 24 * 3600);
  });

  it('refuses a wrong password with a clear message and no cookie', async () => {
    const { res, cookie } = await login(t.app, 'admin', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(messages(res)).toEqual([AUTH_MESSAGES.badCredentials]);
    expect(cookie).toBe('');
  });

  it('refuses a login body without a user name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      headers: XHR,
      payload: { password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(messages(res).join()).toContain('user');
  });

  it('locks a user for five minutes after five failures within five minutes', async () => {
    for (let i = 0; i < 4; i++) expect((await login(t.app, 'admin', 'wrong')).res.statusCode).toBe(401);
    const fifth = await login(t.app, 'admin', 'wrong');
    expect(fifth.res.statusCode).toBe(429);
    expect(messages(fifth.res)).toEqual([AUTH_MESSAGES.locked.replace('{minutes}', '5')]);
    // even the right password is refused while locked, and no session is made
    const locked = await login(t.app);
    expect(locked.res.statusCode).toBe(429);
    expect(locked.cookie).toBe('');
    // once the lock has passed the right password works again
    await t.app.db
      .updateTable('login_failures')
      .set({ locked_until: Date.now() - 1 })
      .execute();
    expect((await login(t.app)).res.statusCode).toBe(200);
    expect(await t.app.db.selectFrom('login_failures').selectAll().execute()).toEqual([]);
  });

  it('warns at the last attempt, shows the lock on the users list and lets an administrator release it', async () => {
    await createUser(t.app, 'ann');
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await login(t.app, 'ann', 'wrong'));
    expect(attempts.map((a) => messages(a.res)[0])).toEqual([
      AUTH_MESSAGES.badCredentials,
      AUTH_MESSAGES.badCredentials,
      AUTH_MESSAGES.badCredentials,
      AUTH_MESSAGES.lastAttempt.replace('{minutes}', '5'),
      AUTH_MESSAGES.locked.replace('{minutes}', '5'),
    ]);
    const admin = { ...XHR, cookie: (await login(t.app)).cookie };
    const list = async () =>
      (await t.app.inject({ url: '/ui/api/v1/ui/users', headers: admin })).json() as {
        name: string;
        lockedUntil: string | null;
      }[];
    const ann = (await list()).find((u) => u.name === 'ann')!;
    expect(Date.parse(ann.lockedUntil!) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect((await list()).find((u) => u.name === 'admin')!.lockedUntil).toBeNull();

    // an unknown name refuses the whole request and releases nobody
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/unlockUsers',
      headers: ADMIN_BASIC,
      payload: ['ann', 'nobody'],
    });
    expect(unknown.statusCode).toBe(404);
    expect((await list()).find((u) => u.name === 'ann')!.lockedUntil).not.toBeNull();

    const released = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/unlockUsers',
      headers: ADMIN_BASIC,
      payload: ['ann'],
    });
    expect([released.statusCode, released.body]).toEqual([200, 'Completed unlocking users']);
    expect((await list()).find((u) => u.name === 'ann')!.lockedUntil).toBeNull();
    expect((await login(t.app, 'ann', 'ann-Passw0rd')).res.statusCode).toBe(200);
    const trail = await t.app.db.selectFrom('audit_events').selectAll().where('action', '=', 'unlock').execute();
    expect(trail.map((e) => e.target)).toEqual(['ann']);
  });

  it('refuses console state changes without the CSRF header, login included', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      payload: { user: 'admin', password: ADMIN_PASSWORD, type: 'login' },
    });
    expect(res.statusCode).toBe(403);
    expect(messages(res)).toEqual([ERROR_MESSAGES.csrf]);
    expect(res.cookies).toEqual([]);
    expect(await t.app.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('logs out: the session row is gone and the cookie no longer works', async () => {
    const { cookie } = await login(t.app);
    const out = await t.app.inject({ url: '/ui/api/v1/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(await t.app.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    const current = await t.app.inject({ url: '/ui/api/v1/ui/auth/current', headers: { cookie } });
    expect(current.json().name).toBe('anonymous');
  });

  it('ends a session that was idle too long', async () => {
    const { cookie } = await login(t.app);
    await t.app.db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now() - t.config.session.idleTimeoutMs - 1 })
      .execute();
    const current = await t.app.inject({ url: '/ui/api/v1/ui/users', headers: { cookie } });
    expect(current.statusCode).toBe(401);
    expect(await t.app.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('refuses console login to a user whose UI access is disabled', async () => {
    await insertUser(t.app.db, {
      id: 'u-ci',
      name: 'ci-bot',
      email: 'ci@example.com',
      password_hash: await hashPassword('bot-password'),
      admin: 0,
      disable_ui_access: 1,
      must_change_password: 0,
      realm: 'internal',
      created_at: Date.now(),
      last_login_at: null,
    });
    const { res, cookie } = await login(t.app, 'ci-bot', 'bot-password');
    expect(res.statusCode).toBe(403);
    expect(messages(res)).toEqual([AUTH_MESSAGES.uiAccessDisabled]);
    expect(cookie).toBe('');
  });

  it('answers login-related data, footer and global state', async () => {
    const related = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/loginRelatedData',
      headers: XHR,
      payload: { dummy: 1 },
    });
    expect(related.json()).toEqual({ forgotPassword: false, canRememberMe: true });
    const footer = await t.app.inject({ url: '/ui/api/v1/ui/auth/screen/footer' });
    expect(footer.json()).toMatchObject({ license: 'OSS', licenseLabel: 'Open Source', version: '0.1.0' });
    const state = await t.app.inject({ url: '/ui/api/v1/ui/auth/screen/globalState' });
    expect(state.json()).toMatchObject({ licenseEdition: 'OSS', licenseRank: 1, anonAccessEnabled: false });
  });

  it('lets only admins list users', async () => {
    expect((await t.app.inject({ url: '/ui/api/v1/ui/users' })).statusCode).toBe(401);
    await insertUser(t.app.db, {
      id: 'u-dev',
      name: 'dev',
      email: 'dev@example.com',
      password_hash: await hashPassword('dev-password'),
      admin: 0,
      disable_ui_access: 0,
      must_change_password: 0,
      realm: 'internal',
      created_at: Date.now(),
      last_login_at: null,
    });
    const dev = await login(t.app, 'dev', 'dev-password');
    const refused = await t.app.inject({ url: '/ui/api/v1/ui/users', headers: { cookie: dev.cookie } });
    expect(refused.statusCode).toBe(403);
    expect(messages(refused)).toEqual([AUTH_MESSAGES.adminRequired]);
    const admin = await login(t.app);
    const list = await t.app.inject({ url: '/ui/api/v1/ui/users', headers: { cookie: admin.cookie } });
    expect(list.json().map((u: { name: string }) => u.name)).toEqual(['admin', 'dev']);
    expect(list.json()[1]).toMatchObject({ email: 'dev@example.com', admin: false });
    expect(list.json()[1].lastLoggedIn).not.toBeNull();
  });
});
