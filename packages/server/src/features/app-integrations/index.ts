import type { TableName } from '../../db/schema.js';
export { appIntegrationsRoutes, oauthServerRoutes } from './app-integrations.routes.js';
export { terraformConsoleRoutes, terraformLoginRoutes } from './terraform-login.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'oauth_clients',
  'oauth_grants',
  'oauth_codes',
  'oauth_client_tokens',
] as const satisfies readonly TableName[];
