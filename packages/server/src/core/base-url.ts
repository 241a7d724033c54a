import type { FastifyRequest } from 'fastify';

/**
 * The address clients reach this deployment at, for links and redirects in answers:
 * `ARCA_BASE_URL` when it is set (behind a proxy, the request's Host may be anyone's), otherwise
 * the scheme and host of the request. Content kept across requests never holds the second kind.
 */
export function baseUrlOf(request: FastifyRequest): string {
  return request.server.config.baseUrl ?? `${request.protocol}://${request.host}`;
}
