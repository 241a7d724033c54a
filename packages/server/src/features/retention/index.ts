export { policyRoutes, retentionConsoleRoutes } from './retention.routes.js';
export { registerRetention } from './retention.jobs.js';
