export { appIntegrationsRoutes, oauthServerRoutes } from './app-integrations.routes.js';
