import { generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import { SignJWT, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { freePort } from './free-port.js';

export const OIDC_CLIENT_ID = 'arca';
export const OIDC_CLIENT_SECRET = 'arca-client-secret';

/** Who the provider knows: their e-mail and groups (any password signs them in: it is a test provider). */
export const OIDC_ACCOUNTS: Record<string, { email: string; groups: string[] }> = {
  dana: { email: 'dana@acme.test', groups: ['platform', 'everyone'] },
  erin: { email: 'erin@acme.test', groups: ['everyone'] },
  frank: { email: 'frank@acme.test', groups: ['everyone'] },
  mallory: { email: 'mallory@acme.test', groups: [] },
};

/** How the provider's token answer is spoiled, to prove the client refuses it. */
export type Tamper = 'none' | 'signature' | 'audience';

export interface OidcTestProvider {
  issuer: string;
  tamper(mode: Tamper): void;
  /** What an account's `preferred_username` says from now on: a claim its user may change at many providers. */
  rename(sub: string, username: string): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (the `oidc-provider` library, certified) on a loopback port: its own
 * development login and consent pages, PKCE required, ID tokens signed RS256 with a key made
 * here. On request its token endpoint spoils the ID token — a broken signature, or a token
 * properly signed for another audience.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<OidcTestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as JWK), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let mode: Tamper = 'none';
  const usernames = new Map<string, string>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: (_ctx, sub) => {
      const account = OIDC_ACCOUNTS[sub];
      return account
        ? {
            accountId: sub,
            claims: () => ({
              sub,
              preferred_username: usernames.get(sub) ?? sub,
              email: account.email,
              groups: account.groups,
            }),
          }
        : undefined;
    },
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/token' && ctx.status === 200 && mode !== 'none') {
      const body = ctx.body as { id_token: string };
      if (mode === 'signature') {
        const [header, payload, signature] = body.id_token.split('.');
        body.id_token = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
      } else {
        const claims = decodeJwt(body.id_token);
        body.id_token = await new SignJWT({ ...claims, aud: 'someone-else' })
          .setProtectedHeader(decodeProtectedHeader(body.id_token) as { alg: string; kid: string })
          .sign(await importJWK(jwk, 'RS256'));
      }
    }
  });
  const server: Server = provider.listen(port);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    issuer,
    tamper: (next) => (mode = next),
    rename: (sub, username) => usernames.set(sub, username),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser without a screen: follows redirects by hand, keeps cookies per host, and fills the
 * provider's development login and consent forms.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  private store(url: URL, response: Response): void {
    const cookies = this.jar.get(url.host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(url.host, cookies);
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const cookies = [...(this.jar.get(target.host) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies ? { cookie: cookies } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    this.store(target, response);
    return response;
  }

  /**
   * Goes to `url` and follows redirects, signing in as `login` and consenting on the provider's
   * pages, until a page that is not the provider's (or no redirect) is reached; answers the
   * last response and the URL it came from.
   */
  async signInThrough(
    url: string,
    login: string,
    stopAt: string,
    /** Request the page at `stopAt` too (false: only say where it is). */
    visit = true,
  ): Promise<{ response: Response; url: string }> {
    let current = url;
    let response = await this.request(current);
    for (let step = 0; step < 20; step++) {
      if (response.status >= 300 && response.status < 400) {
        current = new URL(response.headers.get('location')!, current).href;
        if (current.startsWith(stopAt))
          return { response: visit ? await this.request(current) : response, url: current };
        response = await this.request(current);
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) return { response, url: current };
      const target = new URL(action.replace(/&amp;/g, '&'), current).href;
      response = /name="login"/.test(html)
        ? await this.request(target, { method: 'POST', form: { prompt: 'login', login, password: 'any' } })
        : await this.request(target, { method: 'POST', form: { prompt: 'consent' } });
      current = target;
    }
    throw new Error('the sign-in did not end');
  }
}
