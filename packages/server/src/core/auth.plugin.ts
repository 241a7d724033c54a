import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_MESSAGES, ERROR_MESSAGES } from '@arca/contracts';
import { SESSION_COOKIE, resolveSession, type Principal } from '../features/auth/auth.service.js';
import { errorBody } from './errors.js';

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
      request.principal = await resolveSession(app.db, request.cookies[SESSION_COOKIE]);
      const access = request.routeOptions.config.access ?? 'admin';
      if (access === 'public' || request.is404) return;
      if (request.principal.kind === 'anonymous') {
        return reply.status(401).send(errorBody(401, AUTH_MESSAGES.loginRequired));
      }
      if (access === 'admin' && !isAdmin(request)) {
        return reply.status(403).send(errorBody(403, AUTH_MESSAGES.adminRequired));
      }
    });
  },
  { name: 'arca-auth', dependencies: ['arca-context', '@fastify/cookie'] },
);
