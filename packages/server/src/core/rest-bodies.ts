import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/** Everything of a JSON value but the object fields whose value is null, at every depth. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  return value;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A REST route where an explicit null means something (a property to remove): nulls reach it. */
    keepNulls?: boolean;
  }
}

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Artifactory's REST API (`/artifactory/api/…`, `/access/api/…`) takes a field sent as null as a
 * field not sent: client libraries serialise whole models (`"description": null`,
 * `"userNames": null`). The bodies of those calls lose their null fields before validation, so
 * that each call's schema sees only what was given.
 */
export const restBodiesPlugin = fp((app: FastifyInstance, _options: object, done: () => void) => {
  // only those routes get the hook: the others pay nothing for it
  app.addHook('onRoute', (route) => {
    if ((route.config as { keepNulls?: boolean } | undefined)?.keepNulls) return;
    if (!/^\/(artifactory|access)\/api\//.test(route.url)) return;
    // a read has no body: no hook either
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => BODILESS.has(m))) return;
    const dropBodyNulls: preValidationHookHandler = (request, _reply, next) => {
      if (request.body && typeof request.body === 'object') request.body = dropNulls(request.body);
      next();
    };
    const existing = route.preValidation;
    route.preValidation = existing
      ? [...(Array.isArray(existing) ? existing : [existing]), dropBodyNulls]
      : dropBodyNulls;
  });
  done();
});
