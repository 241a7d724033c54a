import type { FastifyInstance } from 'fastify';
import { SigningKeys } from './signing.service.js';
import type { TableName } from '../../db/schema.js';

export { signingRestRoutes } from './signing.routes.js';
export { algorithmLabel } from './signing.service.js';
export type { Signer, SigningKeys } from './signing.service.js';

/** What signs repositories' metadata: handed to the door (for the formats that sign) and to the keys' routes. */
export function registerSigning(app: FastifyInstance): SigningKeys {
  return new SigningKeys(app.db);
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['signing_keys'] as const satisfies readonly TableName[];
