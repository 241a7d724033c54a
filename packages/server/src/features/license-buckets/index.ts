import type { TableName } from '../../db/schema.js';
export { licenseBucketsRoutes } from './license-buckets.routes.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'license_buckets',
  'license_bucket_licenses',
  'license_bucket_usage',
] as const satisfies readonly TableName[];
