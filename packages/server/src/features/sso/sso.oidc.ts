import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import {
  OAUTH_REALM,
  OIDC_MESSAGES,
  formatMessage,
  oidcProviderBodySchema,
  type OidcProvider,
  type OidcProviderBody,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { OutboundRefused, policyFetch } from '../../core/outbound-policy.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { getSetting, putSetting, type StoredOidcProvider } from '../../core/settings.store.js';
import { groupNames } from '../groups/index.js';
import { findUserBySubject, findUsersByFoldedName, reflectExternalUser } from '../identity/index.js';
import { CONSOLE_API_PREFIX } from '../../core/console.plugin.js';

const SEAL_CONTEXT = (name: string) => `oidc-provider:${name}`;
/** How long a sign-in request waits for the provider's answer. */
const REQUEST_MS = 10 * 60_000;
/** How long a provider's discovered metadata is reused. */
const DISCOVERY_MS = 60 * 60_000;

/** Where the provider sends the browser back: what administrators register at the provider. */
export const redirectUriOf = (baseUrl: string, name: string) =>
  `${baseUrl.replace(/\/+$/, '')}${CONSOLE_API_PREFIX}/auth/oauth2/callback/${encodeURIComponent(name)}`;

const answerOf = ({ clientSecret, ...rest }: StoredOidcProvider, baseUrl: string): OidcProvider => ({
  ...rest,
  clientSecretSet: clientSecret !== '',
  redirectUri: redirectUriOf(baseUrl, rest.name),
});

async function stored(db: Db): Promise<StoredOidcProvider[]> {
  return getSetting(db, 'oidc.providers');
}

export async function listOidcProviders(db: Db, baseUrl: string): Promise<OidcProvider[]> {
  return (await stored(db)).map((p) => answerOf(p, baseUrl));
}

export async function findOidcProvider(db: Db, name: string): Promise<StoredOidcProvider> {
  const found = (await stored(db)).find((p) => p.name === name);
  if (!found) throw notFound(formatMessage(OIDC_MESSAGES.notFound, { name }));
  return found;
}

registerSecretSource('oidc', async (db) =>
  Promise.all(
    (await stored(db)).map(async (p) =>
      p.clientSecret ? ((await unseal(db, SEAL_CONTEXT(p.name), p.clientSecret)) ?? '') : '',
    ),
  ),
);

/** `provider-group = arca-group` lines as pairs; every Arca group named must exist. */
export async function mappingOf(db: Db, text: string): Promise<[string, string][]> {
  const pairs: [string, string][] = [];
  for (const line of text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))) {
    const [from, to, ...rest] = line.split('=').map((part) => part.trim());
    if (!from || !to || rest.length) throw badRequest(OIDC_MESSAGES.mappingInvalid, 'groupMapping');
    pairs.push([from, to]);
  }
  const known = new Set(await groupNames(db));
  const missing = pairs.find(([, to]) => !known.has(to));
  if (missing) throw badRequest(formatMessage(OIDC_MESSAGES.unknownGroup, { group: missing[1] }), 'groupMapping');
  return pairs;
}

export async function saveOidcProvider(
  request: FastifyRequest,
  body: OidcProviderBody,
  baseUrl: string,
  replaces?: string,
): Promise<OidcProvider> {
  const db = request.server.db;
  const parsed = oidcProviderBodySchema.parse(body);
  await mappingOf(db, parsed.groupMapping);
  const all = await stored(db);
  const before = replaces === undefined ? undefined : all.find((p) => p.name === replaces);
  if (replaces !== undefined && !before) throw notFound(formatMessage(OIDC_MESSAGES.notFound, { name: replaces }));
  const taken =
    (parsed.name !== replaces && all.some((p) => p.name === parsed.name)) ||
    (await getSetting(db, 'saml.providers')).some((p) => p.name === parsed.name);
  if (taken) throw conflict(formatMessage(OIDC_MESSAGES.nameTaken, { name: parsed.name }), 'name');
  const kept = before?.clientSecret ? ((await unseal(db, SEAL_CONTEXT(before.name), before.clientSecret)) ?? '') : '';
  const secret = parsed.clientSecret ?? kept;
  const { clientSecret: _given, ...fields } = parsed;
  const next: StoredOidcProvider = {
    ...fields,
    clientSecret: secret ? await seal(db, SEAL_CONTEXT(parsed.name), secret) : '',
    updatedAt: Date.now(),
  };
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'oidc.providers', before ? all.map((p) => (p.name === replaces ? next : p)) : [...all, next]);
    const settings = await getSetting(trx, 'sso');
    if (before && replaces !== parsed.name && settings.autoRedirectProvider === replaces) {
      await putSetting(trx, 'sso', { ...settings, autoRedirectProvider: parsed.name });
    }
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: before ? 'update' : 'create',
        target: `identity provider ${parsed.name}`,
        after: answerOf(next, baseUrl),
      },
    });
  });
  return answerOf(next, baseUrl);
}

export async function deleteOidcProvider(request: FastifyRequest, name: string): Promise<void> {
  const db = request.server.db;
  const all = await stored(db);
  if (!all.some((p) => p.name === name)) throw notFound(formatMessage(OIDC_MESSAGES.notFound, { name }));
  await db.transaction().execute(async (trx) => {
    await putSetting(
      trx,
      'oidc.providers',
      all.filter((p) => p.name !== name),
    );
    const settings = await getSetting(trx, 'sso');
    if (settings.autoRedirectProvider === name) await putSetting(trx, 'sso', { ...settings, autoRedirectProvider: '' });
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'delete', target: `identity provider ${name}` },
    });
  });
}

const discovered = new Map<string, { until: number; config: Promise<oidc.Configuration> }>();

/** The provider's configuration, discovered from its issuer (kept an hour, or until the provider changes). */
async function configurationOf(db: Db, provider: StoredOidcProvider): Promise<oidc.Configuration> {
  const key = `${provider.name}|${provider.updatedAt}`;
  const known = discovered.get(key);
  if (known && known.until > Date.now()) return known.config;
  const secret = provider.clientSecret
    ? ((await unseal(db, SEAL_CONTEXT(provider.name), provider.clientSecret)) ?? '')
    : '';
  const issuer = new URL(provider.issuerUrl);
  const config = oidc
    .discovery(
      issuer,
      provider.clientId,
      secret ? { client_secret: secret } : undefined,
      secret ? oidc.ClientSecretPost(secret) : oidc.None(),
      {
        // the ID token's signature is checked too, not only its claims (the library's default
        // trusts the TLS of the token endpoint); http only for a provider on this machine
        execute: [
          oidc.enableNonRepudiationChecks,
          ...(issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : []),
        ],
        timeout: 10,
        [oidc.customFetch]: policyFetcher(db),
      },
    )
    .catch((error: unknown) => {
      discovered.delete(key);
      // the library's own message is general; a refusal of the outbound policy says what happened
      const cause = (error as { cause?: unknown }).cause;
      const reason = cause instanceof OutboundRefused ? cause.message : (error as Error).message;
      throw badRequest(formatMessage(OIDC_MESSAGES.discoveryFailed, { issuer: provider.issuerUrl, reason }));
    });
  discovered.set(key, { until: Date.now() + DISCOVERY_MS, config });
  return config;
}

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');

/**
 * How the client library reaches the provider: through the outbound policy, the default proxy
 * and the trusted authorities, as every other request to an administrator's address.
 */
function policyFetcher(db: Db) {
  return async (
    url: string,
    options: { method: string; headers: Record<string, string>; body?: unknown; signal?: AbortSignal },
  ) => {
    const body =
      options.body instanceof URLSearchParams ? options.body.toString() : (options.body as string | undefined);
    const answer = await policyFetch(db, url, {
      method: options.method,
      headers: options.headers,
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return new Response(answer.body as ReadableStream | null, { status: answer.status, headers: answer.headers });
  };
}

/** Where the console goes after signing in: a path of the console only (no open redirect). */
export function safeRedirect(path: string | undefined): string {
  return path && /^\/ui\/(?!\/)/.test(path) && !path.includes('\\') ? path : '/ui/';
}

/**
 * Starts a sign-in: a PKCE verifier, a state and a nonce kept (the state hashed) until the
 * provider's answer, and the provider's authorisation URL to send the browser to.
 */
export async function startOidcSignIn(
  db: Db,
  name: string,
  baseUrl: string,
  redirect: string | undefined,
): Promise<{ url: string; state: string }> {
  const provider = await findOidcProvider(db, name);
  if (!provider.enabled) throw notFound(formatMessage(OIDC_MESSAGES.notFound, { name }));
  const config = await configurationOf(db, provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const now = Date.now();
  await db.deleteFrom('sso_requests').where('expires_at', '<', now).execute();
  await db
    .insertInto('sso_requests')
    .values({
      state_hash: stateHash(state),
      provider: name,
      data: JSON.stringify({ verifier, nonce, redirect: safeRedirect(redirect) }),
      expires_at: now + REQUEST_MS,
    })
    .execute();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(baseUrl, name),
    scope: provider.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url: url.href, state };
}

const claimText = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

/**
 * Finishes a sign-in: the request found by its state (once: a replay finds nothing), the code
 * exchanged with the PKCE verifier, the ID token's signature, issuer, audience and nonce
 * verified; the user made or brought in line with the claims.
 */
export async function finishOidcSignIn(
  db: Db,
  name: string,
  callbackUrl: URL,
  cookieState: string | undefined,
): Promise<{ user: UserRow; redirect: string }> {
  const error = callbackUrl.searchParams.get('error');
  if (error) {
    const described = callbackUrl.searchParams.get('error_description');
    throw new HttpError(
      401,
      formatMessage(OIDC_MESSAGES.providerError, { error: described ? `${error}: ${described}` : error }),
    );
  }
  const state = callbackUrl.searchParams.get('state') ?? '';
  // the browser that started the sign-in must be the one that finishes it
  if (!state || state !== cookieState) throw new HttpError(401, OIDC_MESSAGES.requestUnknown);
  const taken = await db
    .deleteFrom('sso_requests')
    .where('state_hash', '=', stateHash(state))
    .where('provider', '=', name)
    .where('expires_at', '>', Date.now())
    .returning('data')
    .executeTakeFirst();
  if (!taken) throw new HttpError(401, OIDC_MESSAGES.requestUnknown);
  const { verifier, nonce, redirect } = JSON.parse(taken.data) as { verifier: string; nonce: string; redirect: string };
  const provider = await findOidcProvider(db, name);
  const config = await configurationOf(db, provider);
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
    // what the ID token leaves out (groups, often) the userinfo endpoint may say
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
      if (info) claims = { ...info, ...claims };
    }
  } catch (failure) {
    // the library's message is general ("invalid response encountered"); its cause says what
    const cause = (failure as Error & { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
    const reason = [(failure as Error).message, detail].filter(Boolean).join(': ');
    throw new HttpError(401, formatMessage(OIDC_MESSAGES.tokenRefused, { reason }));
  }
  // an account is tied to the provider's subject: a claim the user may change never picks it
  const subject = `${claims.iss} ${claims.sub}`;
  const existing = await findUserBySubject(db, subject);
  let userName = existing?.name ?? '';
  if (!existing) {
    userName = claimText(claims[provider.usernameClaim]).trim();
    if (!userName)
      throw new HttpError(401, formatMessage(OIDC_MESSAGES.claimMissing, { claim: provider.usernameClaim }));
    const taken = (await findUsersByFoldedName(db, userName)).at(0);
    if (taken) {
      if (taken.realm !== OAUTH_REALM || taken.external_source !== name) {
        throw new HttpError(401, formatMessage(OIDC_MESSAGES.nameOfLocalUser, { name: taken.name }));
      }
      throw new HttpError(
        401,
        formatMessage(taken.external_subject ? OIDC_MESSAGES.nameOfOtherSubject : OIDC_MESSAGES.accountNotLinked, {
          name: taken.name,
        }),
      );
    }
    if (!provider.autoCreateUser) throw new HttpError(401, OIDC_MESSAGES.noAutoCreate);
  } else if (existing.realm !== OAUTH_REALM || existing.external_source !== name) {
    throw new HttpError(401, formatMessage(OIDC_MESSAGES.nameOfLocalUser, { name: existing.name }));
  }
  const mapping = await mappingOf(db, provider.groupMapping).catch(() => []);
  const said = claims[provider.groupsClaim];
  const groups = new Set(Array.isArray(said) ? said.map(claimText) : claimText(said) ? [claimText(said)] : []);
  const user = await reflectExternalUser(
    db,
    {
      name: userName,
      email: claimText(claims[provider.emailClaim]) || null,
      realm: OAUTH_REALM,
      source: name,
      governed: mapping.map(([, to]) => to),
      memberOf: mapping.filter(([from]) => groups.has(from)).map(([, to]) => to),
      subject,
    },
    existing,
  );
  return { user, redirect };
}
