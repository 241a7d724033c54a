import type { TableName } from '../../db/schema.js';
export type { BundleMaker } from './support.service.js';
export { registerSupportBundles, supportCreationRoutes, supportNodeRoutes, supportRoutes } from './support.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['support_bundles'] as const satisfies readonly TableName[];
