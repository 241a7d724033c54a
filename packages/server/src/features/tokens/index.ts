export { tokensRestRoutes, tokensRoutes } from './tokens.routes.js';
export { createAccessToken, looksLikeToken, resolveToken, tokenCreated, tokenHash } from './tokens.service.js';
