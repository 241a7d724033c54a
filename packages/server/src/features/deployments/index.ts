export { deploymentsRoutes, pairingRoutes } from './deployments.routes.js';
export { registerDeploymentPolling } from './deployments.polling.js';
