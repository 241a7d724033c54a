import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_LOGIN_MESSAGES } from '@arca/contracts';
import { ENGINES, XHR, login, messages, startTestApp, type TestApp } from '../../test/harness.js';

const BASE = '/access/api/v2/authentication/jfrog_client_login';
const CLI = { 'user-agent': 'jfrog-cli-go/2.52.8' };

describe.each(ENGINES)('CLI web login on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    cookie = (await login(t.app)).cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  // the command line runs on another machine than the browser that approves
  const request = (session: string) =>
    t.app.inject({
      method: 'POST',
      url: `${BASE}/request`,
      headers: CLI,
      payload: { session },
      remoteAddress: '203.0.113.9',
    });
  const poll = (session: string) => t.app.inject({ url: `${BASE}/token/${session}`, headers: CLI });
  const decide = (session: string, decision: 'approve' | 'deny') =>
    t.app.inject({
      method: 'POST',
      url: `/ui/api/v1/ui/auth/web-login/${session}/${decision}`,
      headers: { ...XHR, cookie },
    });

  it('gives the client a token once the signed-in user approves, exactly once', async () => {
    const session = randomUUID();
    expect((await request(session)).statusCode).toBe(200);
    const early = await poll(session);
    expect([early.statusCode, messages(early)[0]]).toEqual([400, WEB_LOGIN_MESSAGES.pending]);

    // the console shows who asks; the browser compares the code the command line prints
    const shown = await t.app.inject({ url: `/ui/api/v1/ui/auth/web-login/${session}`, headers: { cookie } });
    // where the request came from and when, next to the browser's own address: a phished approval shows
    const described = shown.json();
    expect(described).toMatchObject({
      client: 'jfrog-cli-go',
      status: 'pending',
      sourceIp: '203.0.113.9',
      viewerIp: '127.0.0.1',
    });
    expect(Date.now() - Date.parse(described.createdAt)).toBeLessThan(60_000);
    expect((await decide(session, 'approve')).statusCode).toBe(204);

    const answered = await poll(session);
    expect(answered.statusCode).toBe(200);
    const body = answered.json();
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'applied-permissions/user', expires_in: 365 * 86_400 });
    const me = await t.app.inject({
      url: '/access/api/v1/tokens',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    // once only; and the session cannot open a second request
    expect((await poll(session)).statusCode).toBe(404);
    const again = await request(session);
    expect([again.statusCode, messages(again)[0]]).toEqual([409, WEB_LOGIN_MESSAGES.sessionTaken]);
  });

  it('refuses a denied, expired, unknown or malformed session', async () => {
    const denied = randomUUID();
    await request(denied);
    await decide(denied, 'deny');
    expect((await poll(denied)).statusCode).toBe(403);

    const expired = randomUUID();
    await request(expired);
    await t.app.db
      .updateTable('web_logins')
      .set({ expires_at: Date.now() - 1 })
      .where('approved_at', 'is', null)
      .execute();
    expect((await decide(expired, 'approve')).statusCode).toBe(404);
    expect((await poll(expired)).statusCode).toBe(404);

    expect((await poll(randomUUID())).statusCode).toBe(404);
    const malformed = await request('short');
    expect(malformed.statusCode).toBe(400);
  });
});
