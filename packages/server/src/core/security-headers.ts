import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import { databaseRateLimitStore } from './rate-limits.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { TERRAFORM_LOGIN_PORTS } from '@arca/contracts';

/** Where `terraform login` listens for the code: localhost and 127.0.0.1, ports 10000 to 10010. */
const TERRAFORM_LISTENERS = ['localhost', '127.0.0.1'].flatMap((host) =>
  Array.from(
    { length: TERRAFORM_LOGIN_PORTS[1] - TERRAFORM_LOGIN_PORTS[0] + 1 },
    (_, i) => `http://${host}:${TERRAFORM_LOGIN_PORTS[0] + i}`,
  ),
);

/**
 * The headers helmet sets for these options. They do not depend on the request, so they are
 * computed once at start and sent with every answer — helmet's middleware chain per request cost
 * about 3 % of a small download.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** The addresses of package clients and scripts: repository content, the registry, the REST APIs. */
const CONTENT_PREFIXES = ['/artifactory/', '/v2/', '/access/', '/event/'];

/**
 * Browser-facing protections on every answer, in two sets computed once. The console (`/ui/` and
 * the rest) gets helmet's: a content security policy (own scripts only; inline styles, which Ant
 * Design's CSS-in-JS needs; images also as data: URLs for QR codes), no framing, no MIME sniffing.
 * Repository content and the client APIs get what a browser opening a download needs — nothing
 * it serves may run or load anything (`sandbox`, `default-src 'none'`: an uploaded HTML file is
 * inert), no framing, no sniffing — without the legacy headers no package client reads. Also the
 * rate limiter that routes opt into with `config.rateLimit`; every answer carries its request id.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { secureCookie: boolean }) => {
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          // and `terraform login`'s listener on the user's own machine, which the console calls with the
          // code: exactly its ports, nothing else on the machine
          connectSrc: ["'self'", ...TERRAFORM_LISTENERS],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      // served over plain HTTP as often as behind a TLS proxy: only then tell browsers to insist on HTTPS
      strictTransportSecurity: options.secureCookie ? { maxAge: 31_536_000 } : false,
      // package clients and other origins fetch artifacts: no cross-origin resource restriction
      crossOriginResourcePolicy: false,
      xFrameOptions: { action: 'deny' },
    });
    const content: Record<string, string> = {
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; sandbox",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      ...(headers['strict-transport-security']
        ? { 'strict-transport-security': headers['strict-transport-security'] }
        : {}),
    };
    // one synchronous hook for every answer's constant headers: no promise per request
    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      reply.headers(CONTENT_PREFIXES.some((prefix) => url.startsWith(prefix)) ? content : headers);
      reply.header('x-request-id', request.id);
      done();
    });
    // counted in the database: a route's limit holds for the whole cluster, whichever node is asked
    await app.register(fastifyRateLimit, { global: false, store: databaseRateLimitStore(app.db) });
  },
  { name: 'arca-security-headers' },
);
