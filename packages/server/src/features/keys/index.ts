export { certificatesRestRoutes, keysRoutes, trustedKeysRestRoutes } from './keys.routes.js';
export { certificateOf } from './keys.service.js';
