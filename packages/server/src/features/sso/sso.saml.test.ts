import { X509Certificate, verify } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAML_MESSAGES, formatMessage } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, messages, startTestApp, type TestApp } from '../../test/harness.js';
import { TestBrowser } from '../../test/oidc-provider.js';
import { startSamlIdp, type SamlTestIdp } from '../../test/saml-idp.js';

const API = '/ui/api/v1/ui/saml';
const admin = { ...ADMIN_BASIC, ...XHR };

describe.each(ENGINES)('SAML sign-in on %s', (engine) => {
  let t: TestApp;
  let idp: SamlTestIdp;
  let base: string;

  beforeAll(async () => {
    // the identity provider of the test runs on this host
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    idp = await startSamlIdp();
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/groups/auditors-group',
      headers: ADMIN_BASIC,
      payload: { description: 'Auditors' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  /**
   * The browser's way: Arca's login link, the provider's form (signing in as `user`), and the
   * response its page posts to Arca. Answers Arca's answer to the post, and what was posted.
   */
  async function signIn(browser: TestBrowser, user: string) {
    const start = await browser.request(`${base}/ui/api/v1/auth/saml/login/acme-saml?redirect=/ui/builds`);
    expect(start.status).toBe(302);
    const login = await browser.request(start.headers.get('location')!);
    const html = await login.text();
    const hidden = Object.fromEntries(
      [...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, '&')]),
    );
    const posted = await browser.request(`${idp.url}/sso/login`, { method: 'POST', form: { ...hidden, user } });
    const page = await posted.text();
    const acs = /action="([^"]+)"/.exec(page)![1]!;
    const form = {
      SAMLResponse: /name="SAMLResponse" value="([^"]+)"/.exec(page)![1]!,
      RelayState: /name="RelayState" value="([^"]*)"/.exec(page)![1]!,
    };
    return { answer: await browser.request(acs, { method: 'POST', form }), acs, form };
  }
  const refusal = (response: Response) => decodeURIComponent(response.headers.get('location') ?? '');

  it('speaks SAML only at the address configured for the deployment, never one from the request', async () => {
    await t.app.inject({
      method: 'POST',
      url: `${API}/providers`,
      headers: admin,
      payload: { name: 'early-saml', displayName: 'Early', metadataXml: idp.metadataXml },
    });
    const start = await new TestBrowser().request(`${base}/ui/api/v1/auth/saml/login/early-saml`);
    expect(refusal(start)).toBe(`/ui/login?ssoError=${SAML_MESSAGES.baseUrlRequired}`);
    const metadata = await fetch(`${base}/ui/api/v1/auth/saml/metadata/early-saml`, {
      headers: { host: 'attacker.example.com' },
    });
    expect(metadata.status).toBe(400);
    expect(JSON.stringify(await metadata.json())).toContain('Custom URL Base');
    await t.app.inject({ method: 'DELETE', url: `${API}/providers/early-saml`, headers: admin });
    // what every test below signs in at
    const general = (await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/generalConfig', headers: admin })).json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/generalConfig',
      headers: admin,
      payload: { ...general, customUrlBase: base },
    });
    expect(saved.statusCode).toBe(200);
  });

  it('imports the identity provider’s metadata and publishes Arca’s; refuses metadata it cannot use', async () => {
    const refused = async (payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `${API}/providers`, headers: admin, payload });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ name: 'acme-saml', displayName: 'Acme SSO' })).toBe(SAML_MESSAGES.metadataMissing);
    // an administrator's URL is held to the outbound policy: not the cloud metadata address, not this host
    for (const [url, shown] of [
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a loopback or link-local address'],
      [idp.metadataUrl.replace('127.0.0.1', '127.0.0.2'), '127.0.0.2 is a loopback or link-local address'],
    ]) {
      expect(await refused({ name: 'acme-saml', displayName: 'Acme SSO', metadataUrl: url })).toContain(shown);
    }
    expect(await refused({ name: 'acme-saml', displayName: 'Acme SSO', metadataXml: '<nope/>' })).toMatch(
      /^The identity provider's metadata could not be read/,
    );
    expect(
      await refused({
        name: 'acme-saml',
        displayName: 'Acme SSO',
        metadataXml: idp.metadataXml.replace(/<md:KeyDescriptor[\s\S]+?<\/md:KeyDescriptor>/, ''),
      }),
    ).toBe(SAML_MESSAGES.metadataIncomplete);
    expect((await t.app.inject({ method: 'GET', url: `${API}/providers`, headers: admin })).json()).toEqual([]);

    const saved = await t.app.inject({
      method: 'POST',
      url: `${API}/providers`,
      headers: admin,
      payload: {
        name: 'acme-saml',
        displayName: 'Acme SSO',
        metadataUrl: idp.metadataUrl,
        groupMapping: 'auditors = auditors-group',
      },
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({
      idpEntityId: `${idp.url}/idp`,
      ssoUrl: `${idp.url}/sso`,
      logoutUrl: `${idp.url}/slo`,
      certificates: 1,
      acsUrl: `${base}/ui/api/v1/auth/saml/acs/acme-saml`,
    });
    const metadata = await fetch(`${base}/ui/api/v1/auth/saml/metadata/acme-saml`);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${base}/ui/api/v1/auth/saml/metadata/acme-saml"`);
    expect(xml).toContain(`Location="${base}/ui/api/v1/auth/saml/acs/acme-saml"`);
    const buttons = (await (await fetch(`${base}/ui/api/v1/ui/oauth2/loginRequestPlatform`)).json()) as {
      type: string;
    }[];
    expect(buttons).toEqual([
      { name: 'acme-saml', displayName: 'Acme SSO', type: 'saml', url: '/ui/api/v1/auth/saml/login/acme-saml' },
    ]);
  });

  it('signs its authentication requests with an RSA key pair of Keys Management when one is named', async () => {
    const pair = async (pairName: string, pairType: 'RSA' | 'GPG') =>
      t.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/security/keyPairs',
        headers: admin,
        payload: { pairName, pairType, alias: 'arca-saml' },
      });
    const rsa = await pair('saml-signing', 'RSA');
    expect(rsa.statusCode).toBe(201);
    expect((await pair('saml-gpg', 'GPG')).statusCode).toBe(201);
    const save = (signingKeyPair: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/providers`,
        headers: admin,
        payload: { name: 'signed-saml', displayName: 'Signed', metadataXml: idp.metadataXml, signingKeyPair },
      });
    for (const name of ['no-such-pair', 'saml-gpg']) {
      const refused = await save(name);
      expect(refused.statusCode).toBe(400);
      expect(messages(refused)[0]).toBe(formatMessage(SAML_MESSAGES.signingKeyInvalid, { name }));
    }
    expect((await save('saml-signing')).statusCode).toBe(201);

    // HTTP-Redirect binding: the query's SAMLRequest, RelayState and SigAlg, signed with the pair's key
    const start = await new TestBrowser().request(`${base}/ui/api/v1/auth/saml/login/signed-saml?redirect=/ui/builds`);
    expect(start.status).toBe(302);
    const query = new URL(start.headers.get('location')!).search.slice(1);
    const parts = Object.fromEntries(query.split('&').map((p) => [p.split('=')[0]!, p.slice(p.indexOf('=') + 1)]));
    expect(decodeURIComponent(parts.SigAlg!)).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    const signed = ['SAMLRequest', 'RelayState', 'SigAlg']
      .filter((name) => parts[name] !== undefined)
      .map((name) => `${name}=${parts[name]}`)
      .join('&');
    const publicKey = rsa.json().publicKey as string;
    expect(
      verify('sha256', Buffer.from(signed), publicKey, Buffer.from(decodeURIComponent(parts.Signature!), 'base64')),
    ).toBe(true);
    // the metadata says so, with a certificate of the same key for the provider to check them
    const xml = await (await fetch(`${base}/ui/api/v1/auth/saml/metadata/signed-saml`)).text();
    expect(xml).toContain('AuthnRequestsSigned="true"');
    const der = /<(?:ds:)?X509Certificate>([^<]+)</.exec(xml)![1]!.replace(/\s+/g, '');
    const certificate = new X509Certificate(Buffer.from(der, 'base64'));
    expect(certificate.publicKey.export({ type: 'spki', format: 'pem' }).toString()).toBe(publicKey);
    expect(certificate.subject).toBe('CN=arca-saml');
    // the same certificate every time the metadata is read
    const again = await (await fetch(`${base}/ui/api/v1/auth/saml/metadata/signed-saml`)).text();
    expect(/<(?:ds:)?X509Certificate>([^<]+)</.exec(again)![1]!.replace(/\s+/g, '')).toBe(der);
    await t.app.inject({ method: 'DELETE', url: `${API}/providers/signed-saml`, headers: admin });
  });

  it('signs a user in with a signed assertion, once: a replayed response is refused', async () => {
    const browser = new TestBrowser();
    const { answer, acs, form } = await signIn(browser, 'frank');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/ui/builds');
    const session = browser.cookie(new URL(base).host, 'arca_session');
    expect(session).toBeTruthy();
    const user = await t.app.db.selectFrom('users').selectAll().where('name', '=', 'frank').executeTakeFirst();
    expect(user).toMatchObject({ realm: 'saml', email: 'frank@acme.test', external_source: 'acme-saml' });
    const groups = await t.app.db
      .selectFrom('group_members')
      .select('group_name')
      .where('user_id', '=', user!.id)
      .execute();
    expect(groups.map((g) => g.group_name)).toEqual(['auditors-group']);
    const logout = await fetch(`${base}/ui/api/v1/ui/auth/samlLogoutUrl`, {
      headers: { cookie: `arca_session=${session}` },
    });
    expect(await logout.json()).toEqual({ logoutUrl: `${idp.url}/slo` });

    const replay = await new TestBrowser().request(acs, { method: 'POST', form });
    expect(refusal(replay)).toMatch(/^\/ui\/login\?ssoError=The identity provider’s SAML response was refused: /);
    expect(refusal(replay)).toMatch(/InResponseTo/);
  });

  it('takes an assertion once: an IdP-initiated one bound to fresh requests is refused the second time', async () => {
    idp.tamper('idp-initiated');
    const { answer, acs, form } = await signIn(new TestBrowser(), 'frank');
    idp.tamper('none');
    // unsolicited: refused as it is
    expect(refusal(answer)).toMatch(/InResponseTo/);
    const original = Buffer.from(form.SAMLResponse, 'base64').toString('utf8');
    expect(original).not.toMatch(/InResponseTo/);
    /** The response bound (outside its signed assertion) to a sign-in request the browser just started. */
    const boundToFreshRequest = async (browser: TestBrowser) => {
      const fresh = await browser.request(`${base}/ui/api/v1/auth/saml/login/acme-saml`);
      const authn = inflateRawSync(
        Buffer.from(new URL(fresh.headers.get('location')!).searchParams.get('SAMLRequest')!, 'base64'),
      ).toString('utf8');
      const id = /ID="([^"]+)"/.exec(authn)![1]!;
      const rewritten = original.replace(/<samlp:Response /, `<samlp:Response InResponseTo="${id}" `);
      return browser.request(acs, {
        method: 'POST',
        form: { SAMLResponse: Buffer.from(rewritten).toString('base64'), RelayState: '' },
      });
    };
    const first = new TestBrowser();
    expect((await boundToFreshRequest(first)).status).toBe(302);
    expect(first.cookie(new URL(base).host, 'arca_session')).toBeTruthy();
    const attacker = new TestBrowser();
    expect(refusal(await boundToFreshRequest(attacker))).toBe(
      `/ui/login?ssoError=${formatMessage(SAML_MESSAGES.responseRefused, { reason: SAML_MESSAGES.replayed })}`,
    );
    expect(attacker.cookie(new URL(base).host, 'arca_session')).toBeUndefined();
  });

  it('refuses an unsigned response, one signed by another key, and one for another audience', async () => {
    for (const [mode, reason] of [
      ['unsigned', /signature/i],
      ['foreign-key', /signature/i],
      ['audience', /audience/i],
      ['recipient', /was sent to https:\/\/other-deployment\.example\.com/],
    ] as const) {
      idp.tamper(mode);
      const browser = new TestBrowser();
      const { answer } = await signIn(browser, 'gina');
      expect(refusal(answer)).toMatch(/^\/ui\/login\?ssoError=The identity provider’s SAML response was refused: /);
      expect(refusal(answer)).toMatch(reason);
      expect(browser.cookie(new URL(base).host, 'arca_session')).toBeUndefined();
    }
    idp.tamper('none');
    expect(
      await t.app.db.selectFrom('users').select('name').where('name', '=', 'gina').executeTakeFirst(),
    ).toBeUndefined();
    // a name other providers already use is refused
    const clash = await t.app.inject({
      method: 'POST',
      url: `${API}/providers`,
      headers: admin,
      payload: { name: 'acme-saml', displayName: 'Again', metadataXml: idp.metadataXml },
    });
    expect(messages(clash)[0]).toBe(formatMessage(SAML_MESSAGES.nameTaken, { name: 'acme-saml' }));
  });
});
