import type { TableName } from '../../db/schema.js';
export { registerCatalogueIndexer, type CatalogueIndexer } from './packages.indexer.js';
export { packagesRoutes } from './packages.routes.js';
export { catalogueVersionOf, catalogueVersions, versionLeadPath, type CatalogueVersion } from './packages.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['package_versions'] as const satisfies readonly TableName[];
