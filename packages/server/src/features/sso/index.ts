import type { TableName } from '../../db/schema.js';
export { ssoRoutes } from './sso.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['sso_requests', 'saml_assertions'] as const satisfies readonly TableName[];
