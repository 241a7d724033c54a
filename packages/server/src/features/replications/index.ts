export { replicationManifestRoutes, replicationsRoutes } from './replications.routes.js';
export { registerReplications } from './replications.service.js';
