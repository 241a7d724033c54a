export { registerSupportBundles, supportCreationRoutes, supportNodeRoutes, supportRoutes } from './support.routes.js';
