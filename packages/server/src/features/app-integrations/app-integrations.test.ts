import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_INTEGRATION_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createUser,
  login,
  messages,
  startListeningApp,
  type TestApp,
} from '../../test/harness.js';

const API = '/ui/api/v1/access/integration';
const CALLBACK = 'https://ci.example.com/oauth/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

describe.each(ENGINES)('application integrations on %s', (engine) => {
  let t: TestApp & { url: string };
  let annCookie: string;
  let as: oauth.AuthorizationServer;
  let app: { id: string; clientId: string; secret: string };
  const admin = { ...ADMIN_BASIC, ...XHR };

  beforeAll(async () => {
    t = await startListeningApp(engine);
    await createUser(t.app, 'ann');
    annCookie = (await login(t.app, 'ann', 'ann-Passw0rd')).cookie;
    // the application discovers the authorisation server as any OAuth client library does
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What the consent page does when ann approves: validate, then authorise; answers where the browser goes. */
  async function consent(clientId: string, authUrl: URL, as_ = 'ann', cookie = annCookie) {
    const validated = await t.app.inject({
      url: `${API}/validate/${clientId}?auth_url=${encodeURIComponent(authUrl.searchParams.get('redirect_uri') ?? '')}`,
      headers: { cookie },
    });
    expect(validated.statusCode).toBe(200);
    return t.app.inject({
      method: 'POST',
      url: `${API}/authorize/${clientId}/${as_}`,
      headers: { ...XHR, cookie },
      payload: { url: authUrl.toString() },
    });
  }

  /** The application's side: PKCE, the authorisation URL, then (after consent) the code exchanged. */
  async function signIn(options: { verifier?: string; secret?: string } = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authUrl = new URL(as.authorization_endpoint!);
    authUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: CALLBACK,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    }).toString();
    const approved = await consent(app.clientId, authUrl);
    expect(approved.statusCode).toBe(200);
    const client: oauth.Client = { client_id: app.clientId };
    const params = oauth.validateAuthResponse(as, client, new URL(approved.json().redirectUri), state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(options.secret ?? app.secret),
      params,
      CALLBACK,
      options.verifier ?? verifier,
      insecure,
    );
    return { response, params, verifier };
  }

  it('registers an application: validation, then its client id and a secret answered once', async () => {
    const refused = async (payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: API, headers: admin, payload });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    const body = { name: 'ci-bot', type: 'ci', description: 'CI', callbackUrl: CALLBACK, platformBaseUrl: t.url };
    expect(await refused({ ...body, name: 'ci bot' })).toBe(`name: ${APP_INTEGRATION_MESSAGES.nameRule}`);
    expect(await refused({ ...body, name: '' })).toBe(`name: ${APP_INTEGRATION_MESSAGES.mandatory}`);
    expect(await refused({ ...body, callbackUrl: 'ci.example.com/cb' })).toBe(
      `callbackUrl: ${APP_INTEGRATION_MESSAGES.callbackUrl}`,
    );
    const created = await t.app.inject({ method: 'POST', url: API, headers: admin, payload: body });
    expect(created.statusCode).toBe(201);
    app = created.json();
    expect(app.clientId).toMatch(/^arca-[0-9a-f]{24}$/);
    expect(app.secret.length).toBeGreaterThanOrEqual(43);
    const listed = (await t.app.inject({ url: API, headers: admin })).json();
    expect(listed).toEqual([expect.objectContaining({ name: 'ci-bot', clientId: app.clientId, users: 0 })]);
    expect(JSON.stringify(listed)).not.toContain(app.secret);
    // a regular user cannot list or register applications
    expect((await t.app.inject({ url: API, headers: { cookie: annCookie } })).statusCode).toBe(403);
  });

  it('signs a user in with the authorisation code and PKCE, and the token acts for that user', async () => {
    const { response } = await signIn();
    const result = await oauth.processAuthorizationCodeResponse(as, { client_id: app.clientId }, response);
    expect(result).toMatchObject({ token_type: 'bearer', scope: 'applied-permissions/user' });
    const me = await t.app.inject({
      url: '/access/api/v1/tokens',
      headers: { authorization: `Bearer ${result.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    const authorizations = await t.app.inject({ url: `${API}/authorization/ann`, headers: { cookie: annCookie } });
    expect(authorizations.json()).toEqual([expect.objectContaining({ username: 'ann', name: 'ci-bot' })]);
  });

  it('refuses a wrong verifier, a used code, a wrong secret, another redirect, and consent for someone else', async () => {
    const wrongVerifier = await signIn({ verifier: oauth.generateRandomCodeVerifier() });
    expect(wrongVerifier.response.status).toBe(400);
    expect(await wrongVerifier.response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The code verifier does not match the code challenge.',
    });

    const good = await signIn();
    expect(good.response.status).toBe(200);
    const replay = await oauth.authorizationCodeGrantRequest(
      as,
      { client_id: app.clientId },
      oauth.ClientSecretBasic(app.secret),
      good.params,
      CALLBACK,
      good.verifier,
      insecure,
    );
    expect(((await replay.json()) as { error?: string }).error).toBe('invalid_grant');

    const badSecret = await signIn({ secret: 'not-the-secret' });
    expect(badSecret.response.status).toBe(401);
    expect(((await badSecret.response.json()) as { error?: string }).error).toBe('invalid_client');

    const elsewhere = new URL(as.authorization_endpoint!);
    elsewhere.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: 'https://evil.example.com/cb',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    const validated = await t.app.inject({
      url: `${API}/validate/${app.clientId}?auth_url=${encodeURIComponent('https://evil.example.com/cb')}`,
      headers: { cookie: annCookie },
    });
    expect(messages(validated)[0]).toBe(APP_INTEGRATION_MESSAGES.callbackMismatch);
    const forOther = await t.app.inject({
      method: 'POST',
      url: `${API}/authorize/${app.clientId}/admin`,
      headers: { ...XHR, cookie: annCookie },
      payload: { url: elsewhere.toString() },
    });
    expect(messages(forOther)[0]).toBe(APP_INTEGRATION_MESSAGES.otherUser);
  });

  it('revokes: a user taking back the grant ends its tokens, deleting the application ends the rest', async () => {
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: app.clientId },
      (await signIn()).response,
    );
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await t.app.inject({ url: '/access/api/v1/tokens', headers: bearer(first.access_token) })).statusCode).toBe(
      200,
    );
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `${API}/authorization/${app.clientId}/ann`,
      headers: { ...XHR, cookie: annCookie },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/access/api/v1/tokens', headers: bearer(first.access_token) })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ url: `${API}/authorization/ann`, headers: { cookie: annCookie } })).json()).toEqual(
      [],
    );

    const second = await oauth.processAuthorizationCodeResponse(
      as,
      { client_id: app.clientId },
      (await signIn()).response,
    );
    expect((await t.app.inject({ method: 'DELETE', url: `${API}/${app.id}`, headers: admin })).statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: '/access/api/v1/tokens', headers: bearer(second.access_token) })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: API, headers: admin })).json()).toEqual([]);
  });
});
