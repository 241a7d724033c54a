import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_MESSAGES, ERROR_MESSAGES } from '@arca/contracts';
import { createHash } from 'node:crypto';
import { SESSION_COOKIE, authenticate, resolveSession, type Principal } from '../features/auth/auth.service.js';
import { onCredentialsChanged } from '../features/users/users.service.js';
import { findUserById } from '../features/users/users.store.js';
import { HttpError, errorBody } from './errors.js';

/**
 * What a route needs: `public` anyone (also when anonymous access is off), `user` a signed-in
 * user, `admin` an administrator. A route that declares nothing needs `admin`.
 */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Package clients send HTTP basic credentials with every request: a verified pair is remembered briefly. */
const BASIC_CACHE_MS = 60_000;
const basicCache = new Map<string, { userId: string; until: number }>();
// a changed password, removed rights or a deleted user end the cached verdicts at once
onCredentialsChanged((userId) => {
  for (const [key, entry] of basicCache) if (entry.userId === userId) basicCache.delete(key);
});

async function basicPrincipal(app: FastifyInstance, header: string): Promise<Principal> {
  const cacheKey = createHash('sha256').update(header).digest('hex');
  const now = Date.now();
  const cached = basicCache.get(cacheKey);
  if (cached && cached.until > now) {
    const user = await findUserById(app.db, cached.userId);
    if (user) return { kind: 'user', user, sessionId: null };
  }
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new HttpError(401, AUTH_MESSAGES.badCredentials);
  const user = await authenticate(app.db, app.config, decoded.slice(0, colon), decoded.slice(colon + 1));
  if (basicCache.size > 1000) basicCache.clear();
  basicCache.set(cacheKey, { userId: user.id, until: now + BASIC_CACHE_MS });
  return { kind: 'user', user, sessionId: null };
}

export function isAdmin(request: FastifyRequest): boolean {
  return request.principal.kind === 'user' && request.principal.user.admin === 1;
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
      const authorization = request.headers.authorization;
      if (authorization?.toLowerCase().startsWith('basic ')) {
        try {
          request.principal = await basicPrincipal(app, authorization);
        } catch (error) {
          const status = error instanceof HttpError ? error.statusCode : 401;
          reply.header('WWW-Authenticate', 'Basic realm="Arca"');
          return reply.status(status).send(errorBody(status, (error as Error).message));
        }
      } else {
        request.principal = await resolveSession(app.db, request.cookies[SESSION_COOKIE]);
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
