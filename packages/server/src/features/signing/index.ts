import type { FastifyInstance } from 'fastify';
import { SigningKeys } from './signing.service.js';

export { signingRestRoutes } from './signing.routes.js';
export { algorithmLabel } from './signing.service.js';
export type { Signer } from './signing.service.js';

/** Decorates `app.signing`: what signs repositories' metadata, for the formats that sign (Debian, RPM). */
export function registerSigning(app: FastifyInstance): void {
  app.decorate('signing', new SigningKeys(app.db));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The deployment's and repositories' OpenPGP signing keys. */
    signing: SigningKeys;
  }
}
