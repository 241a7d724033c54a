import type { TableName } from '../../db/schema.js';
export { certificatesRestRoutes, keysRoutes, trustedKeysRestRoutes } from './keys.routes.js';
export { certificateOf, signWithKeyPair, signatureHolds, type KeyPairSignature } from './keys.service.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['key_pairs', 'trusted_keys', 'certificates'] as const satisfies readonly TableName[];
