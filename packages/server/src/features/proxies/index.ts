/** What the composition root uses of the proxies feature. */
export { proxiesRoutes } from './proxies.routes.js';
