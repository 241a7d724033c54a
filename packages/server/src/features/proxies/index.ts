import type { TableName } from '../../db/schema.js';
/** What the composition root uses of the proxies feature. */
export { proxiesRoutes } from './proxies.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['proxies'] as const satisfies readonly TableName[];
