export { tokensRestRoutes, tokensRoutes } from './tokens.routes.js';
export {
  TOKEN_SCOPE_ADMIN,
  createAccessToken,
  looksLikeToken,
  resolveToken,
  revokeTokensById,
  tokenCreated,
  tokenHash,
} from './tokens.service.js';
import type { TableName } from '../../db/schema.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['access_tokens'] as const satisfies readonly TableName[];
