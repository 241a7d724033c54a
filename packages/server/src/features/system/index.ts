import type { TableName } from '../../db/schema.js';
export { artifactorySystemRoutes, systemRoutes, topologyRoutes } from './system.routes.js';
export { healthRoutes, readinessChecks } from './system.health.js';
export { metricsRoutes } from './system.metrics.js';
export { docsRoutes } from './system.docs.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['adoption_metrics'] as const satisfies readonly TableName[];
