export { permissionsRestRoutes, permissionsRoutes } from './permissions.routes.js';
