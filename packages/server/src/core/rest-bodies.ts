import type { FastifyInstance } from 'fastify';
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

/**
 * Artifactory's REST API (`/artifactory/api/…`, `/access/api/…`) takes a field sent as null as a
 * field not sent: client libraries serialise whole models (`"description": null`,
 * `"userNames": null`). The bodies of those calls lose their null fields before validation, so
 * that each call's schema sees only what was given.
 */
export const restBodiesPlugin = fp((app: FastifyInstance, _options: object, done: () => void) => {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config.keepNulls) return;
    if (!/^\/(artifactory|access)\/api\//.test(request.routeOptions.url ?? '')) return;
    if (request.body && typeof request.body === 'object') request.body = dropNulls(request.body);
  });
  done();
});
