import type { TableName } from '../../db/schema.js';
export { deploymentsRoutes, pairingRoutes } from './deployments.routes.js';
export { registerDeploymentPolling } from './deployments.polling.js';
export { call as callDeployment, checkDeployment, deploymentToken, listDeployments } from './deployments.service.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['pairing_tokens', 'deployments'] as const satisfies readonly TableName[];
