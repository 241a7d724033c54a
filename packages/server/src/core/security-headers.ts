import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Browser-facing protections: a content security policy for the console (its own scripts only;
 * inline styles, which Ant Design's CSS-in-JS needs; images also as data: URLs for QR codes), no
 * framing by other sites, no MIME sniffing; and the rate limiter that routes opt into with
 * `config.rateLimit`.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { secureCookie: boolean }) => {
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
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
    await app.register(fastifyRateLimit, { global: false });
  },
  { name: 'arca-security-headers' },
);
