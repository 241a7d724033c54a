import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getSetting } from './settings.store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Custom URL Base of the general settings when set, read as the request began. */
    customUrlBase: string;
  }
}

/** Paths that make no links: the console's files and the probes. */
const NO_LINKS =
  /^\/(?:ui\/(?!api\/)|livez|readyz|metrics|router\/api\/v1\/system\/health|artifactory\/api\/system\/ping)/;

/**
 * Reads the general settings' Custom URL Base once per request (a cached setting: no query
 * unless configuration changed), so that `baseUrlOf` answers without waiting.
 */
export function registerUrlBase(app: FastifyInstance): void {
  app.decorateRequest('customUrlBase', '');
  app.addHook('onRequest', async (request) => {
    if (NO_LINKS.test(request.url)) return;
    // a database that does not answer fails the calls that need it, not this one: links then
    // follow ARCA_BASE_URL or the request
    request.customUrlBase = await getSetting(app.db, 'general').then(
      (general) => general.customUrlBase ?? '',
      () => '',
    );
  });
}

/**
 * The address an administrator configured for this deployment (the Custom URL Base, else
 * `ARCA_BASE_URL`); undefined when none is: what must never come from a request's Host.
 */
export function configuredBaseUrl(request: FastifyRequest): string | undefined {
  return request.customUrlBase || request.server.config.baseUrl || undefined;
}

/**
 * The address clients reach this deployment at, for links and redirects in answers: the general
 * settings' Custom URL Base, else `ARCA_BASE_URL` (behind a proxy, the request's Host may be
 * anyone's), else the scheme and host of the request. Content kept across requests never holds
 * the last kind.
 */
export function baseUrlOf(request: FastifyRequest): string {
  return request.customUrlBase || request.server.config.baseUrl || `${request.protocol}://${request.host}`;
}
