import type { FastifyInstance } from 'fastify';
import { SigningKeys } from './signing.service.js';
import type { TableName } from '../../db/schema.js';

export { signingRestRoutes } from './signing.routes.js';
export { algorithmLabel } from './signing.service.js';
export type { Signer } from './signing.service.js';

/** Decorates `app.signing`: what signs repositories' metadata, for the formats that sign (Debian, RPM). */
export function registerSigning(app: FastifyInstance): SigningKeys {
  const keys = new SigningKeys(app.db);
  app.decorate('signing', keys);
  return keys;
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['signing_keys'] as const satisfies readonly TableName[];

declare module 'fastify' {
  interface FastifyInstance {
    /** The deployment's and repositories' OpenPGP signing keys. */
    signing: SigningKeys;
  }
}
