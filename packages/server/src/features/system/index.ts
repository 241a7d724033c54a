export { artifactorySystemRoutes, systemRoutes, topologyRoutes } from './system.routes.js';
export { healthRoutes, readinessChecks } from './system.health.js';
export { metricsRoutes } from './system.metrics.js';
export { docsRoutes } from './system.docs.js';
