export { appIntegrationsRoutes, oauthServerRoutes } from './app-integrations.routes.js';
export { terraformConsoleRoutes, terraformLoginRoutes } from './terraform-login.js';
