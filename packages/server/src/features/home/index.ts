export { homeRoutes } from './home.routes.js';
