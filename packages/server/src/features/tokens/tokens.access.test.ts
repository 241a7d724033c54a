import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  basic,
  createRepo,
  createUser,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

/** The access service's token calls as Artifactory's clients make them: JSON or form, refresh, revoke, JWT claims. */
describe.each(ENGINES)('access tokens for automation on %s', (engine) => {
  let t: TestApp;
  let ann: Record<string, string>;
  const form = (url: string, fields: Record<string, string>, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const json = (url: string, body: unknown, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const claims = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  const read = (token: string) =>
    t.app.inject({ url: '/artifactory/libs/a.txt', headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local' });
    await put(t.app, '/artifactory/libs/a.txt', 'a');
    ann = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann-read',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs'], actions: { users: { ann: ['read'] } } } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('issues signed JWTs from a form or JSON body, verifiable offline with the published key', async () => {
    const byForm = await form('/access/api/v1/tokens', { expires_in: '600', description: 'ci' }, ann);
    expect(byForm.statusCode).toBe(200);
    const answer = byForm.json() as {
      access_token: string;
      expires_in: number;
      scope: string;
      token_type: string;
      token_id: string;
    };
    expect(answer).toMatchObject({ expires_in: 600, scope: 'applied-permissions/user', token_type: 'Bearer' });
    const c = claims(answer.access_token);
    expect(c).toMatchObject({
      sub: 'jfac@arca/users/ann',
      scp: 'applied-permissions/user',
      aud: '*@*',
      iss: 'jfac@arca',
      jti: answer.token_id,
    });
    expect(Number(c.exp) - Number(c.iat)).toBe(600);
    const pem = (await t.app.inject({ url: '/access/api/v1/cert/root' })).body;
    const [header, payload, signature] = answer.access_token.split('.');
    expect(
      verify(null, Buffer.from(`${header}.${payload}`), createPublicKey(pem), Buffer.from(signature!, 'base64url')),
    ).toBe(true);
    // a token whose claims were changed is refused
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...c, sub: 'jfac@arca/users/admin' })).toString('base64url')}.${signature}`;
    expect((await read(forged)).statusCode).toBe(401);
    expect((await read(answer.access_token)).statusCode).toBe(200);
    const byJson = await json(
      '/access/api/v1/tokens',
      { scope: 'applied-permissions/user', expires_in: 60, refreshable: null, description: null },
      ann,
    );
    expect(byJson.statusCode).toBe(200);
  });

  it('refreshes a refreshable token once: the old pair stops, the new one works', async () => {
    const first = (await form('/access/api/v1/tokens', { refreshable: 'true', expires_in: '300' }, ann)).json() as {
      access_token: string;
      refresh_token: string;
    };
    expect(first.refresh_token).toBeTruthy();
    // no credentials needed beyond the pair itself
    const refreshed = await form(
      '/access/api/v1/tokens',
      {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        access_token: first.access_token,
      },
      {},
    );
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json() as { access_token: string; refresh_token: string; expires_in: number };
    expect(second.expires_in).toBe(300);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await read(first.access_token)).statusCode).toBe(401);
    expect((await read(second.access_token)).statusCode).toBe(200);
    const again = await form(
      '/access/api/v1/tokens',
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      {},
    );
    expect(again.statusCode).toBe(401);
  });

  it('reads form flags in any letter case, as Artifactory does', async () => {
    for (const value of ['TRUE', 'True', ' true ']) {
      const answer = await form(
        '/access/api/v1/tokens',
        { refreshable: value, include_reference_token: value.toUpperCase(), expires_in: '60' },
        ann,
      );
      expect(answer.statusCode).toBe(200);
      expect((answer.json() as { refresh_token?: string }).refresh_token).toBeTruthy();
    }
    const no = await form('/access/api/v1/tokens', { refreshable: 'FALSE', expires_in: '60' }, ann);
    expect((no.json() as { refresh_token?: string }).refresh_token).toBeUndefined();
    const bad = await form('/access/api/v1/tokens', { refreshable: 'yes please' }, ann);
    expect(bad.statusCode).toBe(400);
  });

  it('answers an API key to its owner, stored sealed rather than as the key itself', async () => {
    const bob = await createUser(t.app, 'bob');
    const url = '/artifactory/api/security/apiKey';
    expect((await t.app.inject({ url, headers: bob })).json()).toEqual({});
    const made = (await t.app.inject({ method: 'POST', url, headers: bob })).json() as { apiKey: string };
    expect((await t.app.inject({ url, headers: bob })).json()).toEqual({ apiKey: made.apiKey });
    // nobody else reads it: the administrator gets his own (none)
    expect((await t.app.inject({ url, headers: ADMIN_BASIC })).json()).toEqual({});
    const row = await t.app.db
      .selectFrom('access_tokens')
      .select(['sealed', 'token_hash'])
      .where('kind', '=', 'api_key')
      .executeTakeFirstOrThrow();
    expect(row.sealed).toBeTruthy();
    expect(row.sealed).not.toContain(made.apiKey);
    // it authenticates as a header and as a password; regenerated, the old one stops and the new one reads back
    expect(
      (
        await t.app.inject({ url: '/artifactory/api/security/apiKey', headers: { 'x-jfrog-art-api': made.apiKey } })
      ).json(),
    ).toEqual({ apiKey: made.apiKey });
    expect((await t.app.inject({ url, headers: basic('bob', made.apiKey) })).statusCode).toBe(200);
    const again = (await t.app.inject({ method: 'PUT', url, headers: bob })).json() as { apiKey: string };
    expect((await t.app.inject({ url, headers: { 'x-jfrog-art-api': made.apiKey } })).statusCode).toBe(401);
    expect((await t.app.inject({ url, headers: bob })).json()).toEqual({ apiKey: again.apiKey });
    expect((await t.app.inject({ method: 'DELETE', url, headers: bob })).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: bob })).json()).toEqual({});
  });

  it('revokes by the token itself or by id; a revoked JWT is refused at once', async () => {
    const one = (await form('/access/api/v1/tokens', {}, ann)).json() as { access_token: string; token_id: string };
    const revoked = await form('/access/api/v1/tokens/revoke', { token: one.access_token }, ann);
    expect([revoked.statusCode, revoked.body]).toEqual([200, 'Token revoked']);
    expect((await read(one.access_token)).statusCode).toBe(401);
    const two = (await form('/access/api/v1/tokens', {}, ann)).json() as { access_token: string; token_id: string };
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/access/api/v1/tokens/${two.token_id}`, headers: ann })).statusCode,
    ).toBe(200);
    expect((await read(two.access_token)).statusCode).toBe(401);
  });

  it('gives admin-scoped tokens and tokens for others to administrators only', async () => {
    const mine = await form('/access/api/v1/tokens', { username: 'admin' }, ann);
    expect([mine.statusCode, (mine.json() as { errors: { message: string }[] }).errors[0]!.message]).toEqual([
      403,
      'Only administrators may create tokens for other users.',
    ]);
    expect((await form('/access/api/v1/tokens', { scope: 'applied-permissions/admin' }, ann)).statusCode).toBe(403);
    const forAnn = (await form('/access/api/v1/tokens', { username: 'ann' }, ADMIN_BASIC)).json() as {
      access_token: string;
    };
    expect(claims(forAnn.access_token).sub).toBe('jfac@arca/users/ann');
    const admin = (await form('/access/api/v1/tokens', { scope: 'applied-permissions/admin' }, ADMIN_BASIC)).json() as {
      access_token: string;
    };
    const users = await t.app.inject({
      url: '/artifactory/api/security/users',
      headers: { authorization: `Bearer ${admin.access_token}` },
    });
    expect(users.statusCode).toBe(200);
  });

  it("answers the token calls scripts make with Artifactory's base URL, and revokes by value as documented", async () => {
    // a client given http://host/artifactory as its base calls the access service under it
    const created = await form('/artifactory/access/api/v1/tokens', { username: 'ann' }, ADMIN_BASIC);
    expect(created.statusCode).toBe(200);
    const { access_token, token_id } = created.json() as { access_token: string; token_id: string };
    expect((await read(access_token)).statusCode).toBe(200);
    const listed = await t.app.inject({ url: '/artifactory/access/api/v1/tokens', headers: ADMIN_BASIC });
    expect((listed.json() as { tokens: { token_id: string }[] }).tokens.map((x) => x.token_id)).toContain(token_id);
    // revoke by value: DELETE with the token in the body answers the revoked token's id
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: '/access/api/v1/tokens/revoke',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: { token: access_token },
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ 'revoked-token-id': token_id });
    expect((await read(access_token)).statusCode).toBe(401);
    // the older revoke answers 200 for a token revoked already or unknown, as Artifactory's does
    for (const fields of [{ token: access_token }, { token_id }] as Record<string, string>[]) {
      expect((await form('/artifactory/api/security/token/revoke', fields, ADMIN_BASIC)).statusCode).toBe(200);
    }
  });

  it('answers the older /api/security/token call with member-of-groups scopes, and its revoke', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/groups/readers',
      headers: ADMIN_BASIC,
      payload: { userNames: ['ann'] },
    });
    const legacy = await form(
      '/artifactory/api/security/token',
      { username: 'ann', scope: 'member-of-groups:readers', expires_in: '120' },
      ADMIN_BASIC,
    );
    expect(legacy.statusCode).toBe(200);
    const token = legacy.json() as { access_token: string; scope: string; expires_in: number };
    // the fields Artifactory documents for this call, the scope in its words, and nothing else
    expect(Object.keys(token).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect([token.scope, token.expires_in]).toEqual(['api:* member-of-groups:readers', 120]);
    // the token carries only the group's rights (none on libs)
    expect((await read(token.access_token)).statusCode).toBe(403);
    expect(
      (await form('/artifactory/api/security/token/revoke', { token: token.access_token }, ADMIN_BASIC)).statusCode,
    ).toBe(200);
    expect((await read(token.access_token)).statusCode).toBe(401);
    expect((await form('/artifactory/api/security/token', { username: 'admin' }, basic('ann', 'x'))).statusCode).toBe(
      401,
    );
  });

  it('gives an encrypted password, accepted as the password until the password changes', async () => {
    const asked = await t.app.inject({ url: '/artifactory/api/security/encryptedPassword', headers: ann });
    expect(asked.statusCode).toBe(200);
    const encrypted = asked.body;
    // Artifactory's form: AP and Base58 only — no braces Maven would take for its own encryption
    expect(encrypted).toMatch(/^AP[1-9A-HJ-NP-Za-km-z]+$/);
    expect(encrypted).not.toContain('Ann');
    const withIt = basic('ann', encrypted);
    expect((await read(encrypted)).statusCode).toBe(401); // not a token
    expect((await t.app.inject({ url: '/artifactory/libs/a.txt', headers: withIt })).statusCode).toBe(200);
    // bound to its user: another name with it is refused
    expect(
      (await t.app.inject({ url: '/artifactory/libs/a.txt', headers: basic('admin', encrypted) })).statusCode,
    ).toBe(401);
    // a token cannot ask for it
    const token = (await form('/access/api/v1/tokens', {}, ann)).json() as { access_token: string };
    const byToken = await t.app.inject({
      url: '/artifactory/api/security/encryptedPassword',
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(byToken.statusCode).toBe(401);
    // a changed password ends it
    await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/users/ann',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify({ password: 'Another-password-42' }),
    });
    expect((await t.app.inject({ url: '/artifactory/libs/a.txt', headers: withIt })).statusCode).toBe(401);
  });
});
