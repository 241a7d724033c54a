export { deploymentsRoutes, pairingRoutes } from './deployments.routes.js';
export { registerDeploymentPolling } from './deployments.polling.js';
export { call as callDeployment, checkDeployment, deploymentToken } from './deployments.service.js';
