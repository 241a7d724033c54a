export { certificatesRestRoutes, keysRoutes } from './keys.routes.js';
