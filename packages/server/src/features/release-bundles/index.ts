import type { TableName } from '../../db/schema.js';
export { environmentsRoutes, releaseBundlesRoutes } from './release-bundles.routes.js';
export { defineDistributions as registerReleaseBundles } from './release-bundles.distribution.js';
import type { FastifyRequest } from 'fastify';
import { readableVersion } from './release-bundles.service.js';
import { artifactsOf } from './release-bundles.store.js';

/** The files of a release bundle version the caller may read (404 otherwise), in manifest order. */
export async function bundleFiles(request: FastifyRequest, name: string, version: string) {
  const row = await readableVersion(request, name, version);
  return (await artifactsOf(request.server.db, row.id)).map((a) => ({
    repo_key: a.repo_key,
    path: a.path,
    sha256: a.sha256,
  }));
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'environments',
  'environment_repositories',
  'release_bundle_versions',
  'release_bundle_artifacts',
  'release_bundle_promotions',
  'release_bundle_distributions',
] as const satisfies readonly TableName[];
