import type { TableName } from '../../db/schema.js';
export { policyRoutes, retentionConsoleRoutes } from './retention.routes.js';
export { registerRetention, type Archive } from './retention.jobs.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'archive_policies',
  'archive_executions',
  'archive_execution_items',
  'archived_items',
  'cold_binaries',
  'archive_samples',
] as const satisfies readonly TableName[];
