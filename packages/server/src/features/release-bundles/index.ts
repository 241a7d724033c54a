import type { TableName } from '../../db/schema.js';
export { environmentsRoutes, releaseBundlesRoutes } from './release-bundles.routes.js';
export { defineDistributions as registerReleaseBundles } from './release-bundles.distribution.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'environments',
  'environment_repositories',
  'release_bundle_versions',
  'release_bundle_artifacts',
  'release_bundle_promotions',
  'release_bundle_distributions',
] as const satisfies readonly TableName[];
