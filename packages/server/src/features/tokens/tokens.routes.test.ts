import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKEN_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  basic,
  countRows,
  createRepo,
  createUser,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('tokens and client credentials on %s', (engine) => {
  let t: TestApp;
  let ann: Record<string, string>;
  let cookie: string;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
    await put(t.app, '/artifactory/libs/a.txt', 'hello');
    ann = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann-libs',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs'], actions: { users: { ann: ['read', 'write'] } } } },
    });
    cookie = (await login(t.app, 'ann', 'ann-Passw0rd')).cookie;
  });
  afterEach(async () => {
    await t.close();
  });

  const download = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/artifactory/libs/a.txt', headers });

  async function createToken(payload: Record<string, unknown>, session = cookie) {
    return t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/tokens',
      headers: { ...XHR, cookie: session },
      payload,
    });
  }

  it('accepts an access token as Bearer and as the basic password, and stops at once when revoked', async () => {
    const created = await createToken({ description: 'CI', expiresIn: 3600 });
    expect(created.statusCode).toBe(200);
    const { token, id, expiresAt } = created.json() as { token: string; id: string; expiresAt: string };
    // a JWT naming its owner and its id, as Artifactory's tokens
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'jfac@arca/users/ann', jti: id, scp: 'applied-permissions/user' });
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(3500_000);
    expect((await download({ authorization: `Bearer ${token}` })).body).toBe('hello');
    expect((await download(basic('ann', token))).statusCode).toBe(200);
    expect((await download(basic('someone-else', token))).statusCode).toBe(401);
    // stored only as a hash
    const stored = await t.app.db.selectFrom('access_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    const list = await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/tokens', headers: { cookie } });
    expect(list.json()).toEqual([expect.objectContaining({ id, user: 'ann', description: 'CI' })]);
    expect(JSON.stringify(list.json())).not.toContain(token);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/tokens/${id}`,
      headers: { ...XHR, cookie },
    });
    expect(revoked.statusCode).toBe(204);
    const after = await download({ authorization: `Bearer ${token}` });
    expect(after.statusCode).toBe(401);
    expect(after.headers['www-authenticate']).toBe('Basic realm="Arca"');
    expect((await download(basic('ann', token))).statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const { token, id } = (await createToken({ description: 'short', expiresIn: 60 })).json() as {
      token: string;
      id: string;
    };
    await t.app.db
      .updateTable('access_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', id)
      .execute();
    const res = await download({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(401);
    expect(messages(res)).toEqual([TOKEN_MESSAGES.expired]);
  });

  it('limits a token scoped to groups to those groups’ permissions', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/groups/readers',
      headers: ADMIN_BASIC,
      payload: { userNames: ['ann'] },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/readers-libs',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs'], actions: { groups: { readers: ['read'] } } } },
    });
    const refused = await createToken({ description: 'x', expiresIn: 0, scope: 'applied-permissions/groups:admins' });
    expect(messages(refused)).toEqual(["You are not a member of group 'admins'."]);
    const { token } = (
      await createToken({ description: 'read only', expiresIn: 0, scope: 'applied-permissions/groups:readers' })
    ).json() as { token: string };
    const bearer = { authorization: `Bearer ${token}` };
    expect((await download(bearer)).statusCode).toBe(200);
    const deploy = await put(t.app, '/artifactory/libs/b.txt', 'b', bearer);
    expect(deploy.statusCode).toBe(403);
    // leaving the group takes its rights from the token at once
    await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/groups/readers',
      headers: ADMIN_BASIC,
      payload: { userNames: [] },
    });
    expect((await download(bearer)).statusCode).toBe(403);
  });

  it('generates, uses, regenerates and revokes an API key (X-JFrog-Art-Api and basic)', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/apiKey', headers: { ...XHR, cookie } });
    const key1 = (first.json() as { apiKey: string }).apiKey;
    expect(key1).toMatch(/^AKC/);
    expect((await download({ 'x-jfrog-art-api': key1 })).statusCode).toBe(200);
    expect((await download(basic('ann', key1))).statusCode).toBe(200);
    // clients send the JSON content type with no body at all
    const second = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/apiKey',
      headers: { ...ann, 'content-type': 'application/json' },
    });
    const key2 = (second.json() as { apiKey: string }).apiKey;
    expect((await download({ 'x-jfrog-art-api': key1 })).statusCode).toBe(401);
    expect((await download({ 'x-jfrog-art-api': key2 })).statusCode).toBe(200);
    const state = await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/apiKey', headers: { cookie } });
    expect(state.json()).toMatchObject({ exists: true });
    // an administrator revokes anyone's key
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/security/apiKey/ann',
      headers: ADMIN_BASIC,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await download({ 'x-jfrog-art-api': key2 })).statusCode).toBe(401);
  });

  it('lets administrators see and revoke everyone’s tokens, and no one else', async () => {
    const { id } = (await createToken({ description: 'mine', expiresIn: 0 })).json() as { id: string };
    const bob = await createUser(t.app, 'bob');
    const bobCookie = (await login(t.app, 'bob', 'bob-Passw0rd')).cookie;
    expect(
      (await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/tokens?all=true', headers: { cookie: bobCookie } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/ui/api/v1/ui/tokens/${id}`,
          headers: { ...XHR, cookie: bobCookie },
        })
      ).statusCode,
    ).toBe(404);
    const all = await t.app.inject({ method: 'GET', url: '/access/api/v1/tokens', headers: ADMIN_BASIC });
    expect((all.json() as { tokens: { subject: string }[] }).tokens.map((x) => x.subject)).toEqual(['ann']);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/access/api/v1/tokens/${id}`, headers: ADMIN_BASIC })).statusCode,
    ).toBe(200);
    expect(await countRows(t.app, 'access_tokens')).toBe(0);
    expect(bob).toBeDefined();
  });

  it('lets administrators generate a token for another user, refreshable, and no one else', async () => {
    const adminCookie = (await login(t.app)).cookie;
    const made = await createToken(
      { description: 'ci for ann', expiresIn: 3600, username: 'ann', refreshable: true },
      adminCookie,
    );
    expect(made.statusCode).toBe(200);
    const token = made.json() as { user: string; token: string; refreshToken?: string };
    expect(token.user).toBe('ann');
    expect(token.refreshToken).toMatch(/\S{20,}/);
    expect((await download({ authorization: `Bearer ${token.token}` })).statusCode).toBe(200);
    const bob = await createUser(t.app, 'bob');
    expect(bob).toBeDefined();
    const forSomeoneElse = await createToken({ description: 'x', expiresIn: 60, username: 'bob' });
    expect(forSomeoneElse.statusCode).toBe(403);
    expect((await createToken({ description: 'x', expiresIn: 60, username: 'nobody' }, adminCookie)).statusCode).toBe(
      404,
    );
    expect(await countRows(t.app, 'access_tokens')).toBe(1);
  });

  it('creates tokens over the access REST call and refuses bad input', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: ann,
      payload: { description: 'build', expires_in: 600 },
    });
    const body = res.json() as { access_token: string; token_type: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect((await download({ authorization: `Bearer ${body.access_token}` })).statusCode).toBe(200);
    const bad = await createToken({ description: '', expiresIn: -1 });
    expect(bad.statusCode).toBe(400);
    const badScope = await createToken({ description: 'x', expiresIn: 0, scope: 'everything' });
    expect(messages(badScope)).toEqual([TOKEN_MESSAGES.badScope]);
    expect(await countRows(t.app, 'access_tokens')).toBe(1);
  });

  it('verifies a password once per minute for clients, and locks out at once', async () => {
    expect((await download(ann)).statusCode).toBe(200);
    // the stored hash is not consulted again while the verdict is cached (the store changed behind its back)
    await t.app.db.updateTable('users').set({ password_hash: 'scrypt$broken' }).where('name', '=', 'ann').execute();
    expect((await download(ann)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) await download(basic('ann', 'wrong-password'));
    const locked = await download(ann);
    expect(locked.statusCode).toBe(429);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/audit?category=auth&outcome=failure',
      headers: ADMIN_BASIC,
    });
    const failures = audit.json() as { total: number; events: { action: string; target: string }[] };
    expect(failures.events[0]).toMatchObject({ action: 'client sign-in', target: 'ann', sourceIp: '127.0.0.1' });
    expect(failures.total).toBe(6);
  });

  it('re-authenticates for the profile and records token changes in the audit trail', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userProfile',
      headers: { ...XHR, cookie },
      payload: { password: 'nope' },
    });
    expect(wrong.statusCode).toBe(400);
    const right = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userProfile',
      headers: { ...XHR, cookie },
      payload: { password: 'ann-Passw0rd' },
    });
    expect(right.json()).toMatchObject({ user: { name: 'ann' }, apiKey: { exists: false } });
    await t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/apiKey', headers: { ...XHR, cookie } });
    const audit = await t.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/audit?category=token',
      headers: ADMIN_BASIC,
    });
    expect(audit.json()).toMatchObject({
      total: 1,
      events: [{ actor: 'ann', action: 'create API key', target: 'ann' }],
    });
    const signIns = await t.app.inject({
      method: 'GET',
      url: '/ui/api/v1/ui/audit?category=auth',
      headers: ADMIN_BASIC,
    });
    expect(signIns.json()).toMatchObject({ events: [{ actor: 'ann', action: 'sign-in', outcome: 'success' }] });
  });

  it('issues an identity token for oneself, and for others only to administrators', async () => {
    const mine = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/ann',
      headers: { ...XHR, cookie },
      payload: { expiresIn: 600 },
    });
    const { token } = mine.json() as { token: string };
    expect((await download({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const other = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/userIdentifyToken/admin',
      headers: { ...XHR, cookie },
      payload: { expiresIn: 600 },
    });
    expect(other.statusCode).toBe(403);
  });
});
