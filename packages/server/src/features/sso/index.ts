export { ssoRoutes } from './sso.routes.js';
