export { securityRoutes } from './security.routes.js';
export { getSecuritySettings } from './security.service.js';
