export { vcsIntegrationsRoutes } from './vcs-integrations.routes.js';
