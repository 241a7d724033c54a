import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Whether a request carries the configured scrape token as `Authorization: Bearer <token>`. */
function carriesScrapeToken(request: FastifyRequest): boolean {
  const token = request.server.config.metricsToken;
  const header = request.headers.authorization;
  if (!token || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics` in Prometheus's text format: for administrators (credentials or their console
 * session), for the scrape token
 * (`ARCA_METRICS_TOKEN`), or for anyone with `ARCA_METRICS_PUBLIC=true`.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  if (!app.config.metricsEnabled) return;
  app.get(
    '/metrics',
    {
      config: {
        access: app.config.metricsPublic ? 'public' : 'admin',
        ownCredential: carriesScrapeToken,
        // an administrator signed in to the console opens it in the browser
        consoleSession: true,
      },
      schema: { summary: 'Prometheus metrics (text format): administrators, the scrape token, or anyone when public' },
    },
    async (_request, reply) => reply.type(app.metrics.contentType).send(await app.metrics.scrape()),
  );
};
