import type { TableName } from '../../db/schema.js';
export { registerAuthJobs } from './auth.jobs.js';
export { authPlugin } from './auth.plugin.js';
export { authRoutes } from './auth.routes.js';
export { authenticate, ensureAdminUser } from './auth.service.js';
export { signInFlowRoutes } from './flows.routes.js';
export { verifyCurrentOtp } from './flows.service.js';
export { REGISTRY_TOKEN_SECONDS, issueRegistryToken } from './registry-token.js';
export { webLoginRoutes } from './web-login.routes.js';
export { clientLoginRoutes } from './client-login.routes.js';
export { openWebLogin, pollWebLogin } from './web-login.service.js';
export { clientSignIn } from './client-sign-in.js';
export { SESSION_COOKIE, openSession } from './auth.service.js';
export { cookieOptions } from './sign-in.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['sessions', 'web_logins'] as const satisfies readonly TableName[];
