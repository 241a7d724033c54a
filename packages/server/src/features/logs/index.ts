export { logRoutes, publicLogRoutes } from './logs.routes.js';
