import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERRAFORM_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { zipOf } from '../../test/zip.js';

/** Terraform's local listener: the first free port of its range, as `terraform login` picks one. */
async function listener(ports: [number, number]) {
  const arrived: URL[] = [];
  const server = http.createServer((req, res) => {
    arrived.push(new URL(req.url ?? '/', 'http://localhost'));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('The login server has closed.');
  });
  for (let port = ports[0]; ; port++) {
    if (port > ports[1]) throw new Error('no free port in the range');
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) break;
  }
  const port = (server.address() as AddressInfo).port;
  return { port, arrived, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(ENGINES)('terraform login on %s', (engine) => {
  let t: TestApp;
  /** The console's call behind the authorise screen: a POST with the request's parameters. */
  const authorize = (fields: Record<string, string>, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/oauth2/authorize', headers, payload: fields });
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await createUser(t.app, 'tf-user');
    cookie = (await login(t.app, 'tf-user', 'tf-user-Passw0rd')).cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('follows the steps terraform login takes: discovery, PKCE, the local listener, the token', async () => {
    // 1. service discovery
    const discovery = (await t.app.inject({ url: '/.well-known/terraform.json' })).json();
    expect(discovery['modules.v1']).toBe('/artifactory/api/terraform/v1/modules/');
    expect(discovery['providers.v1']).toBe('/artifactory/api/terraform/v1/providers/');
    const login1 = discovery['login.v1'];
    expect(login1).toEqual({
      client: 'terraform-cli',
      grant_types: ['authz_code'],
      authz: '/ui/terraform/oauth2/authorize',
      token: '/access/api/v1/terraform/oauth2/token',
      ports: [10000, 10010],
    });
    // 2. a verifier, its S256 challenge, a state, and the listener on a port of the range
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(16).toString('hex');
    const local = await listener(login1.ports);
    try {
      const redirect = `http://localhost:${local.port}/login`;
      const query = new URLSearchParams({
        client_id: login1.client,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        redirect_uri: redirect,
        response_type: 'code',
        state,
      });
      // 3. the browser opens the authorise screen, which asks the console's call for the redirect
      const granted = await authorize(Object.fromEntries(query), { cookie, ...XHR });
      // without the console's CSRF header (a link, a form of another site) no code is made
      expect((await authorize(Object.fromEntries(query), { cookie })).statusCode).toBe(403);
      expect(granted.statusCode).toBe(200);
      const back = new URL(granted.json().redirectUri);
      expect(`${back.origin}${back.pathname}`).toBe(redirect);
      // 4. the browser lands on Terraform's listener with the code and the state
      await fetch(back.toString().replace('localhost', '127.0.0.1'));
      const arrived = local.arrived[0]!;
      expect(arrived.searchParams.get('state')).toBe(state);
      // 5. the code and the verifier for a token
      const exchange = (verifierSent: string, code = arrived.searchParams.get('code')!) =>
        t.app.inject({
          method: 'POST',
          url: login1.token,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            grant_type: 'authorization_code',
            client_id: login1.client,
            code,
            redirect_uri: redirect,
            code_verifier: verifierSent,
          }).toString(),
        });
      const wrong = await exchange(randomBytes(32).toString('base64url'));
      expect([wrong.statusCode, wrong.json().error]).toEqual([400, 'invalid_grant']);
      // a failed exchange spends nothing: a new code for the next attempt
      const again = new URL((await authorize(Object.fromEntries(query), { cookie, ...XHR })).json().redirectUri);
      const token = await exchange(verifier, again.searchParams.get('code')!);
      expect(token.statusCode).toBe(200);
      const { access_token: accessToken, token_type: tokenType } = token.json();
      expect(tokenType.toLowerCase()).toBe('bearer');
      const me = await t.app.inject({
        url: '/access/api/v1/tokens',
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(me.statusCode).toBe(200);
      // 6. the token reads the module registry, as terraform init then does
      await createRepo(t.app, 'tf-modules', { rclass: 'local', packageType: 'terraform' });
      await put(t.app, '/artifactory/tf-modules/modules/acme/net/aws/0.1.0.zip', zipOf({ 'main.tf': '' }));
      const granted2 = await t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/security/permissions/tf-readers',
        headers: ADMIN_BASIC,
        payload: { name: 'tf-readers', repositories: ['tf-modules'], principals: { users: { 'tf-user': ['r'] } } },
      });
      expect(granted2.statusCode).toBe(201);
      const versions = await t.app.inject({
        url: `${discovery['modules.v1']}tf-modules__acme/net/aws/versions`,
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(versions.json()).toEqual({ modules: [{ versions: [{ version: '0.1.0' }] }] });
    } finally {
      await local.close();
    }
  });

  it("sends codes only to Terraform's own listener, and only for its client", async () => {
    const base = {
      client_id: 'terraform-cli',
      code_challenge: createHash('sha256').update('x'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
      response_type: 'code',
    };
    const ask = (extra: Record<string, string>) => authorize({ ...base, ...extra }, { ...XHR, cookie });
    expect(messages(await ask({ redirect_uri: 'https://evil.example.com/login' }))[0]).toBe(
      TERRAFORM_MESSAGES.redirect,
    );
    expect(messages(await ask({ redirect_uri: 'http://localhost:9999/login' }))[0]).toBe(TERRAFORM_MESSAGES.redirect);
    expect(messages(await ask({ redirect_uri: 'http://localhost:10001/login', client_id: 'other' }))[0]).toBe(
      TERRAFORM_MESSAGES.error,
    );
    // signed out: no code at all
    const anonymous = await authorize({ ...base, redirect_uri: 'http://localhost:10001/login' }, XHR);
    expect(anonymous.statusCode).toBeGreaterThanOrEqual(401);
    // Terraform's client is none of the registered applications
    const admin = { authorization: `Basic ${Buffer.from('admin:Adm1n-test-password').toString('base64')}`, ...XHR };
    expect((await t.app.inject({ url: '/ui/api/v1/access/integration', headers: admin })).json()).toEqual([]);
  });
});
