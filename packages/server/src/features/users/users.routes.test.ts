import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USER_MESSAGES } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, login, messages, startTestApp, type TestApp } from '../../test/harness.js';

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe.each(ENGINES)('user administration REST on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', name: string, payload?: object, headers = ADMIN_BASIC) =>
    t.app.inject({ method, url: `/artifactory/api/security/users/${name}`, headers, ...(payload ? { payload } : {}) });

  it('creates, reads, updates, lists and deletes a user the Artifactory way', async () => {
    const created = await call('PUT', 'alice', {
      email: 'alice@example.com',
      password: 'alice-password',
      disableUIAccess: false,
    });
    expect(created.statusCode).toBe(201);
    expect((await call('GET', 'alice')).json()).toMatchObject({
      name: 'alice',
      email: 'alice@example.com',
      admin: false,
      realm: 'internal',
    });
    expect((await call('POST', 'alice', { email: 'a@example.com' })).statusCode).toBe(200);
    expect((await call('GET', 'alice')).json().email).toBe('a@example.com');
    const list = (await t.app.inject({ url: '/artifactory/api/security/users', headers: ADMIN_BASIC })).json();
    expect(list.map((u: { name: string }) => u.name)).toEqual(['admin', 'alice']);
    // the new user signs in to the console
    expect((await login(t.app, 'alice', 'alice-password')).res.statusCode).toBe(200);
    const removed = await call('DELETE', 'alice');
    expect(removed.body).toBe("User 'alice' has been removed successfully.");
    expect((await call('GET', 'alice')).statusCode).toBe(404);
  });

  it.each([
    ['a bad name', 'bad name!', { password: 'long-enough' }, USER_MESSAGES.nameFormat],
    ['no password', 'bob', { email: 'bob@example.com' }, USER_MESSAGES.passwordRequired],
    ['a short password', 'bob', { password: 'short' }, 'The password must be at least 8 characters long.'],
    ['a bad e-mail', 'bob', { password: 'long-enough', email: 'not-an-email' }, USER_MESSAGES.invalidEmail],
    ['the anonymous name', 'anonymous', { password: 'long-enough' }, "The user name 'anonymous' is reserved."],
  ])('refuses %s and creates nothing', async (_name, name, body, message) => {
    const res = await call('PUT', encodeURIComponent(name), body);
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([message]);
    expect(await t.app.db.selectFrom('users').select('name').execute()).toEqual([{ name: 'admin' }]);
  });

  it('keeps at least one administrator and refuses deleting oneself', async () => {
    expect(messages(await call('POST', 'admin', { admin: false }))).toEqual([USER_MESSAGES.lastAdmin]);
    expect(messages(await call('DELETE', 'admin'))).toEqual([USER_MESSAGES.deleteSelf]);
  });

  it('drops a verified password at once when it changes or the user is deleted', async () => {
    await call('PUT', 'ci', { password: 'first-password', admin: true });
    expect(
      (await t.app.inject({ url: '/artifactory/api/security/users', headers: basic('ci', 'first-password') }))
        .statusCode,
    ).toBe(200);
    await call('POST', 'ci', { password: 'second-password' });
    expect(
      (await t.app.inject({ url: '/artifactory/api/security/users', headers: basic('ci', 'first-password') }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: '/artifactory/api/security/users', headers: basic('ci', 'second-password') }))
        .statusCode,
    ).toBe(200);
    await call('DELETE', 'ci');
    expect(
      (await t.app.inject({ url: '/artifactory/api/security/users', headers: basic('ci', 'second-password') }))
        .statusCode,
    ).toBe(401);
  });

  it('answers 401 with a Basic challenge without credentials and 403 to a user without the right', async () => {
    const anonymous = await t.app.inject({ url: '/artifactory/api/security/users/admin' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="Arca"');
    await call('PUT', 'dev', { password: 'dev-password' });
    expect(
      (await t.app.inject({ url: '/artifactory/api/security/users/admin', headers: basic('dev', 'dev-password') }))
        .statusCode,
    ).toBe(403);
  });

  it('creates, edits and bulk-deletes users through the console calls, all or nothing', async () => {
    const headers = { ...XHR, cookie: (await login(t.app)).cookie };
    const create = (payload: object) => t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/users', headers, payload });
    expect((await create({ name: 'u1', email: 'u1@example.com', password: 'password-1' })).json()).toMatchObject({
      name: 'u1',
      admin: false,
    });
    expect((await create({ name: 'u2', password: 'password-2', admin: true })).statusCode).toBe(200);
    expect((await create({ name: 'u1', password: 'password-1' })).statusCode).toBe(409);
    const edit = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/users/u1',
      headers,
      payload: { email: 'new@example.com', disableUIAccess: true },
    });
    expect(edit.json()).toMatchObject({ email: 'new@example.com', disableUIAccess: true });
    const partly = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users/delete',
      headers,
      payload: { names: ['u1', 'ghost'] },
    });
    expect(partly.statusCode).toBe(404);
    expect((await t.app.db.selectFrom('users').select('name').orderBy('name').execute()).map((u) => u.name)).toEqual([
      'admin',
      'u1',
      'u2',
    ]);
    const self = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/users/delete',
      headers,
      payload: { names: ['admin'] },
    });
    expect(messages(self)).toEqual(['You cannot delete your own user.']);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/users/delete',
          headers,
          payload: { names: ['u1', 'u2'] },
        })
      ).statusCode,
    ).toBe(204);
    expect((await t.app.db.selectFrom('users').select('name').execute()).map((u) => u.name)).toEqual(['admin']);
  });
});
