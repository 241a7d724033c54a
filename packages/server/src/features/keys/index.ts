export { certificatesRestRoutes, keysRoutes, trustedKeysRestRoutes } from './keys.routes.js';
