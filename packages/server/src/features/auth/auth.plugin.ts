import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_MESSAGES, ERROR_MESSAGES } from '@arca/contracts';
import { createHmac, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, authenticate, resolveSession } from './auth.service.js';
import { onCredentialsChanged } from '../../core/credentials.js';
import { configCurrent, onConfigChanged } from '../../core/config-cache.js';
import { isAdmin, principalNames, type Principal } from '../../core/principals.js';
import { REGISTRY_TOKEN_PREFIX, registryTokenPrincipal } from './registry-token.js';
import { decryptPassword, findUserByName, looksEncrypted } from '../identity/index.js';
import { looksLikeToken, resolveToken, tokenHash } from '../tokens/index.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, errorBody } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { hitLimit, openLimits, type LimitState } from '../../core/rate-limits.js';
import type { Db } from '../../db/database.js';
import { getSecuritySettings } from '../security/index.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Package clients send credentials with every request. A verified password is remembered briefly,
 * keyed by an HMAC of the header under a key that lives only in this process, so that the scrypt
 * check (or the directory's) runs once per `ARCA_CREDENTIALS_CACHE_SECONDS` (a minute), not per
 * request; tokens are looked up by their SHA-256.
 */
const cacheKeySecret = randomBytes(32);
type Verdicts = Map<string, { user: UserRow; until: number }>;
/** One cache per database: two apps in one process (the tests') never share a user row. */
const basicCaches = new WeakMap<Db, Verdicts>();
const liveCaches = new Set<Verdicts>();
function basicCacheOf(db: Db): Verdicts {
  let cache = basicCaches.get(db);
  if (!cache) {
    cache = new Map();
    basicCaches.set(db, cache);
    liveCaches.add(cache);
  }
  return cache;
}
// a changed password, lockout, removed rights or a deleted user end the cached verdicts at once
onCredentialsChanged((userId) => {
  for (const cache of liveCaches) for (const [key, entry] of cache) if (entry.user.id === userId) cache.delete(key);
});
// … and so does any change recorded by another worker or node (a password, a lock, rights)
onConfigChanged(() => liveCaches.forEach((cache) => cache.clear()));

/**
 * A package client sends the same credentials with every request of a keep-alive connection: the
 * digest that keys them is computed once per connection, not per request.
 */
const connectionDigests = new WeakMap<object, { kind: string; header: string; digest: string }>();

function credentialDigest(request: FastifyRequest, kind: string, header: string, digest: () => string): string {
  const socket = request.raw.socket;
  const known = connectionDigests.get(socket);
  if (known && known.kind === kind && known.header === header) return known.digest;
  const value = digest();
  connectionDigests.set(socket, { kind, header, digest: value });
  return value;
}

async function basicPrincipal(app: FastifyInstance, request: FastifyRequest, header: string): Promise<Principal> {
  const cacheKey = credentialDigest(request, 'basic', header, () =>
    createHmac('sha256', cacheKeySecret).update(header).digest('hex'),
  );
  // a verdict another process's change ended is dropped before it is used
  await configCurrent(app.db);
  const now = Date.now();
  const basicCache = basicCacheOf(app.db);
  const cached = basicCache.get(cacheKey);
  // the user row is kept with the verdict: every change to a user (password, lock, second factor,
  // groups, deletion) is a recorded change whose generation clears this cache on every process
  if (cached && cached.until > now) return { kind: 'user', user: cached.user, sessionId: null, via: 'password' };
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new HttpError(401, AUTH_MESSAGES.badCredentials);
  const name = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (looksLikeToken(secret)) {
    const { user, scopeGroups } = await resolveToken(app.db, secret, 'any');
    // the user part must name the token's owner (or be empty, as some clients send)
    if (name && name !== user.name) throw new HttpError(401, AUTH_MESSAGES.badCredentials);
    return tokenPrincipal(user, scopeGroups);
  }
  let password = secret;
  if (looksEncrypted(secret)) {
    // an encrypted password (from /api/security/encryptedPassword): the password inside is checked as
    // any; a secret of that form that opens with nothing here is checked as the password it may be
    const owner = await findUserByName(app.db, name);
    const inside = owner && (await decryptPassword(app.db, owner.id, secret));
    if (inside) password = inside;
  }
  const user = await authenticate(app.db, app.config, name, password);
  // the password alone is not enough for a user with a second factor: clients use tokens
  if (user.mfa_enrolled_at !== null) throw new HttpError(401, AUTH_MESSAGES.mfaUseToken);
  if (basicCache.size > 1000) basicCache.clear();
  if (app.config.credentialsCacheMs > 0) basicCache.set(cacheKey, { user, until: now + app.config.credentialsCacheMs });
  return { kind: 'user', user, sessionId: null, via: 'password' };
}

function tokenPrincipal(user: UserRow, scopeGroups: string[] | undefined): Principal {
  // a token scoped to groups carries only those groups' rights, never administration
  return scopeGroups
    ? { kind: 'user', user: { ...user, admin: 0 }, sessionId: null, scopeGroups, via: 'token' }
    : { kind: 'user', user, sessionId: null, via: 'token' };
}

/**
 * Who is calling, from (in order) a bearer token, an API key header, basic credentials or the
 * session. The session cookie counts only on console routes: REST clients authenticate with
 * Basic, Bearer or an API key, so a page elsewhere cannot make a browser act on them.
 */
async function resolvePrincipal(
  app: FastifyInstance,
  request: FastifyRequest,
  consoleRoute: boolean,
): Promise<Principal> {
  const sent = request.headers.authorization;
  const authorization =
    sent && request.routeOptions.config?.bareToken && !/^[A-Za-z]+ /.test(sent) ? `Bearer ${sent.trim()}` : sent;
  const apiKey = request.headers['x-jfrog-art-api'];
  let principal: Principal;
  if (authorization?.toLowerCase().startsWith('bearer ') && authorization.includes(REGISTRY_TOKEN_PREFIX)) {
    // made by the registry's token flow for the registry: every other door refuses it
    if (!routedPath(request).startsWith('/v2/')) throw new HttpError(401, AUTH_MESSAGES.registryTokenElsewhere);
    principal = await registryTokenPrincipal(app.db, authorization.slice(7).trim());
  } else if (authorization?.toLowerCase().startsWith('bearer ')) {
    const secret = authorization.slice(7).trim();
    const hash = credentialDigest(request, 'bearer', secret, () => tokenHash(secret));
    const { user, scopeGroups } = await resolveToken(app.db, secret, 'token', Date.now(), hash);
    principal = tokenPrincipal(user, scopeGroups);
  } else if (typeof apiKey === 'string' && apiKey) {
    const { user } = await resolveToken(app.db, apiKey, 'api_key');
    principal = tokenPrincipal(user, undefined);
  } else if (authorization?.toLowerCase().startsWith('basic ')) {
    principal = await basicPrincipal(app, request, authorization);
  } else if (consoleRoute) {
    principal = await resolveSession(app.db, request.cookies[SESSION_COOKIE]);
    if (principal.kind === 'user') principal.via = 'session';
  } else {
    principal = { kind: 'anonymous' };
  }
  // members of a group with administrator privileges are administrators
  if (principal.kind === 'user' && principal.user.admin !== 1 && !principal.scopeGroups) {
    if ((await principalNames(app.db, principal)).adminViaGroup) principal.user = { ...principal.user, admin: 1 };
  }
  return principal;
}

/** The window refused credentials are counted over. */
const REFUSAL_WINDOW_MS = 60_000;
/** How often a process takes in what the other nodes counted, at most (when requests come). */
const REFUSAL_SYNC_MS = 1_000;

/** By database: the app and its encapsulated route contexts share one counter. */
const counters = new WeakMap<Db, ReturnType<typeof refusalCounter>>();

/** The refused-credentials counter of an app: REST credentials and console sign-ins count on the same one. */
export function clientRefusals(app: FastifyInstance): ReturnType<typeof refusalCounter> {
  let counter = counters.get(app.db);
  if (!counter) {
    counter = refusalCounter(app.db, (error) => app.log.warn({ err: error }, 'refusal counts could not be read'));
    counters.set(app.db, counter);
  }
  return counter;
}

/**
 * Whether a client (its real address: behind a trusted proxy, the one the proxy names) has had as
 * many credentials refused within the minute as the security settings allow.
 */
export async function clientThrottled(app: FastifyInstance, ip: string): Promise<boolean> {
  const refused = clientRefusals(app).recent(ip);
  return refused > 0 && refused >= (await getSecuritySettings(app.db, app.config)).clientFailuresPerMinute;
}

/**
 * Counts refused credentials per client address over one-minute windows, for the whole cluster:
 * each refusal is counted in the database (refusals are rare: a request that pays for one write is
 * one that failed), and each process reads the open counts at most once a second, when requests
 * come, so that the check on every request stays in memory. Past the security settings' limit an
 * address is answered 429 by every node.
 */
function refusalCounter(db: Db, warn: (error: unknown) => void) {
  const refused = new Map<string, { count: number; since: number }>();
  let syncedAt = 0;
  const merge = (ip: string, state: LimitState) => {
    const local = refused.get(ip);
    if (!local || local.since !== state.windowStart || local.count < state.hits) {
      if (refused.size > 10_000) refused.clear();
      refused.set(ip, { count: state.hits, since: state.windowStart });
    }
  };
  return {
    recent(ip: string, now = Date.now()): number {
      if (now - syncedAt >= REFUSAL_SYNC_MS) {
        syncedAt = now;
        openLimits(db, 'refused:', REFUSAL_WINDOW_MS, now).then(
          (states) => states.forEach((state, address) => merge(address, state)),
          warn,
        );
      }
      const entry = refused.get(ip);
      return !entry || entry.since + REFUSAL_WINDOW_MS <= now ? 0 : entry.count;
    },
    /** Whole seconds until the address's window ends. */
    retryAfter(ip: string, now = Date.now()): number {
      const entry = refused.get(ip);
      return entry ? Math.max(1, Math.ceil((entry.since + REFUSAL_WINDOW_MS - now) / 1000)) : 1;
    },
    /** Counts a refusal here at once, and in the database for the other nodes. */
    async count(ip: string, now = Date.now()): Promise<void> {
      const entry = refused.get(ip);
      if (entry && entry.since + REFUSAL_WINDOW_MS > now) entry.count += 1;
      else {
        if (refused.size > 10_000) refused.clear();
        refused.set(ip, { count: 1, since: now });
      }
      // a database that cannot count leaves the local count: the request is answered all the same
      await hitLimit(db, `refused:${ip}`, REFUSAL_WINDOW_MS, now).then((state) => merge(ip, state), warn);
    },
  };
}

const hasCredentials = (request: FastifyRequest) =>
  request.headers.authorization !== undefined || request.headers['x-jfrog-art-api'] !== undefined;

/** The path the router matched (its pattern), or the decoded request path when no route matched. */
function routedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern) return pattern;
  const raw = (request.raw.url ?? '/').split('?')[0]!;
  try {
    return decodeURIComponent(raw).replace(/\/{2,}/g, '/');
  } catch {
    return raw;
  }
}

/** The user name of basic credentials, or what kind of token was presented. */
function claimedUser(authorization: string | undefined): string {
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || '(no user name)';
  }
  return authorization ? '(access token)' : '(API key)';
}

/**
 * What a refused client is told to authenticate with: the container registry's routes ask for a
 * bearer token from their token endpoint (Docker's token flow), the rest for basic credentials.
 */
function challengeOf(request: FastifyRequest): string {
  return request.routeOptions.config.challenge?.(request) ?? 'Basic realm="Arca"';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `WWW-Authenticate` challenge of a route whose clients do not use basic credentials. */
    challenge?: (request: FastifyRequest) => string;
    /**
     * A credential of the route's own (the metrics scrape token): a request that carries it is
     * admitted as it is, before any user credential is looked at.
     */
    ownCredential?: (request: FastifyRequest) => boolean;
    /**
     * The route's clients send an access token as the whole `Authorization` header, with no scheme
     * (cargo, gem): such a header is read as `Bearer {token}`.
     */
    bareToken?: boolean;
    /**
     * A read outside the console that an administrator opens in the browser (`/metrics`): the
     * console session counts for its safe methods, as on console routes.
     */
    consoleSession?: boolean;
  }
}

/** Sessions, the console's CSRF rule and each route's declared access, in that order. */
export const authPlugin = fp(
  (app: FastifyInstance) => {
    app.decorateRequest('principal', null as never);
    app.addHook('onClose', async () => {
      const cache = basicCaches.get(app.db);
      if (cache) liveCaches.delete(cache);
    });
    const refusals = clientRefusals(app);

    /** Whether the route admits the request's principal; otherwise answers it (401 or 403). */
    const admitted = (request: FastifyRequest, reply: FastifyReply): boolean => {
      const access = request.routeOptions.config.access ?? 'admin';
      if (access === 'public' || request.is404) return true;
      if (request.principal.kind === 'anonymous') {
        if (!request.url.startsWith('/ui/')) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
        reply.status(401).send(errorBody(401, AUTH_MESSAGES.loginRequired));
        return false;
      }
      if (access === 'admin' && !isAdmin(request)) {
        reply.status(403).send(errorBody(403, AUTH_MESSAGES.adminRequired));
        return false;
      }
      return true;
    };

    /** A request with credentials or a session: resolved against the database (answered when refused). */
    const authenticate = async (request: FastifyRequest, reply: FastifyReply, consoleRoute: boolean) => {
      // a client past its limit is still let in with valid credentials: its address may be shared
      // (a proxy not listed as trusted, a NAT), and the failures someone else's; each identity has
      // its own lockout. What it is refused is any answer on whether a wrong guess was close.
      const throttled = hasCredentials(request) && (await clientThrottled(app, request.ip));
      try {
        request.principal = await resolvePrincipal(app, request, consoleRoute);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        await refusals.count(request.ip);
        if (throttled) {
          reply.header('Retry-After', String(refusals.retryAfter(request.ip)));
          return reply.status(429).send(errorBody(429, AUTH_MESSAGES.tooManyFailures));
        }
        // a refused client credential is a failed sign-in (successful ones are every request: not recorded)
        const name = claimedUser(request.headers.authorization);
        await recordAudit(
          app.db,
          { actor: name, sourceIp: request.ip },
          {
            category: 'auth',
            action: 'client sign-in',
            target: name,
            outcome: 'failure',
            message: error.message,
          },
        );
        reply.header('WWW-Authenticate', challengeOf(request));
        return reply.status(error.statusCode).send(errorBody(error.statusCode, error.message));
      }
      return admitted(request, reply) ? undefined : reply;
    };

    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.ownCredential?.(request)) {
        request.principal = { kind: 'anonymous' };
        done();
        return;
      }
      // the router's decoded, normalised route, never the raw URL ('/ui/%61pi/…' is '/ui/api/…')
      const consoleRoute =
        routedPath(request).startsWith('/ui/') ||
        (request.routeOptions.config.consoleSession === true && SAFE_METHODS.has(request.method));
      if (consoleRoute && !SAFE_METHODS.has(request.method)) {
        if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
          reply.status(403).send(errorBody(403, ERROR_MESSAGES.csrf));
          return;
        }
      }
      // no credentials and no session to look up: anonymous, decided without a query or a promise
      if (!consoleRoute && !hasCredentials(request)) {
        request.principal = { kind: 'anonymous' };
        if (admitted(request, reply)) done();
        return;
      }
      authenticate(request, reply, consoleRoute).then((answered) => {
        if (!answered) done();
      }, done);
    });
  },
  { name: 'arca-auth', dependencies: ['arca-context', '@fastify/cookie'] },
);
