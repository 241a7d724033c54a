import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_MESSAGES, ERROR_MESSAGES } from '@arca/contracts';
import { createHmac, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, authenticate, resolveSession } from './auth.service.js';
import { onCredentialsChanged } from '../../core/credentials.js';
import { findUserById } from '../users/users.store.js';
import { isAdmin, principalNames, type Principal } from '../../core/principals.js';
import { looksLikeToken, resolveToken } from '../tokens/tokens.service.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, errorBody } from '../../core/errors.js';
import { recordAudit } from '../audit/audit.service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Package clients send credentials with every request. A verified password is remembered briefly,
 * keyed by an HMAC of the header under a key that lives only in this process, so that the scrypt
 * check runs once per minute, not per request; tokens are looked up by their SHA-256.
 */
const BASIC_CACHE_MS = 60_000;
const cacheKeySecret = randomBytes(32);
const basicCache = new Map<string, { userId: string; until: number }>();
// a changed password, lockout, removed rights or a deleted user end the cached verdicts at once
onCredentialsChanged((userId) => {
  for (const [key, entry] of basicCache) if (entry.userId === userId) basicCache.delete(key);
});

async function basicPrincipal(app: FastifyInstance, header: string): Promise<Principal> {
  const cacheKey = createHmac('sha256', cacheKeySecret).update(header).digest('hex');
  const now = Date.now();
  const cached = basicCache.get(cacheKey);
  if (cached && cached.until > now) {
    const user = await findUserById(app.db, cached.userId);
    if (user) return { kind: 'user', user, sessionId: null };
  }
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
  const user = await authenticate(app.db, app.config, name, secret);
  if (basicCache.size > 1000) basicCache.clear();
  basicCache.set(cacheKey, { userId: user.id, until: now + BASIC_CACHE_MS });
  return { kind: 'user', user, sessionId: null };
}

function tokenPrincipal(user: UserRow, scopeGroups: string[] | undefined): Principal {
  // a token scoped to groups carries only those groups' rights, never administration
  return scopeGroups
    ? { kind: 'user', user: { ...user, admin: 0 }, sessionId: null, scopeGroups }
    : { kind: 'user', user, sessionId: null };
}

/** Who is calling, from (in order) a bearer token, an API key header, basic credentials or the session. */
async function resolvePrincipal(app: FastifyInstance, request: FastifyRequest): Promise<Principal> {
  const authorization = request.headers.authorization;
  const apiKey = request.headers['x-jfrog-art-api'];
  let principal: Principal;
  if (authorization?.toLowerCase().startsWith('bearer ')) {
    const { user, scopeGroups } = await resolveToken(app.db, authorization.slice(7).trim(), 'token');
    principal = tokenPrincipal(user, scopeGroups);
  } else if (typeof apiKey === 'string' && apiKey) {
    const { user } = await resolveToken(app.db, apiKey, 'api_key');
    principal = tokenPrincipal(user, undefined);
  } else if (authorization?.toLowerCase().startsWith('basic ')) {
    principal = await basicPrincipal(app, authorization);
  } else {
    principal = await resolveSession(app.db, request.cookies[SESSION_COOKIE]);
  }
  // members of a group with administrator privileges are administrators
  if (principal.kind === 'user' && principal.user.admin !== 1 && !principal.scopeGroups) {
    if ((await principalNames(app.db, principal)).adminViaGroup) principal.user = { ...principal.user, admin: 1 };
  }
  return principal;
}

/** The user name of basic credentials, or what kind of token was presented. */
function claimedUser(authorization: string | undefined): string {
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    return decoded.slice(0, Math.max(0, decoded.indexOf(':'))) || '(no user name)';
  }
  return authorization ? '(access token)' : '(API key)';
}

/** Sessions, the console's CSRF rule and each route's declared access, in that order. */
export const authPlugin = fp(
  (app: FastifyInstance) => {
    app.decorateRequest('principal', null as never);

    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/ui/api/') && !SAFE_METHODS.has(request.method)) {
        if (request.headers['x-requested-with'] !== 'XMLHttpRequest') {
          return reply.status(403).send(errorBody(403, ERROR_MESSAGES.csrf));
        }
      }
      try {
        request.principal = await resolvePrincipal(app, request);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
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
        reply.header('WWW-Authenticate', 'Basic realm="Arca"');
        return reply.status(error.statusCode).send(errorBody(error.statusCode, error.message));
      }
      const access = request.routeOptions.config.access ?? 'admin';
      if (access === 'public' || request.is404) return;
      if (request.principal.kind === 'anonymous') {
        if (!request.url.startsWith('/ui/')) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
        return reply.status(401).send(errorBody(401, AUTH_MESSAGES.loginRequired));
      }
      if (access === 'admin' && !isAdmin(request)) {
        return reply.status(403).send(errorBody(403, AUTH_MESSAGES.adminRequired));
      }
    });
  },
  { name: 'arca-auth', dependencies: ['arca-context', '@fastify/cookie'] },
);
