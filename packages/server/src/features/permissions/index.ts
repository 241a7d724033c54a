import type { TableName } from '../../db/schema.js';
export { permissionsRestRoutes, permissionsRoutes } from './permissions.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['permission_targets', 'permission_grants'] as const satisfies readonly TableName[];
