export { registerSupportBundles, supportCreationRoutes, supportRoutes } from './support.routes.js';
