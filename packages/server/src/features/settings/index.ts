/** What the composition root uses of the general settings feature. */
export { settingsRestRoutes, settingsRoutes } from './settings.routes.js';
