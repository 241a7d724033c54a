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
