import type { TableName } from '../db/schema.js';

/**
 * The tables the core owns: the nodes, settings, outbox, audit trail, rate limits and the work
 * kernel. Only core modules name them; features call the core's functions (db/ownership.test.ts).
 */
export const CORE_TABLES = [
  'nodes',
  'rate_limits',
  'work_tasks',
  'work_history',
  'settings',
  'events',
  'event_receipts',
  'outbox_consumers',
  'generations',
  'audit_events',
] as const satisfies readonly TableName[];
