import type { TableName } from '../../db/schema.js';
export { vcsIntegrationsRoutes } from './vcs-integrations.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['vcs_integrations'] as const satisfies readonly TableName[];
