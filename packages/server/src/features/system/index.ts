export { artifactorySystemRoutes, systemRoutes } from './system.routes.js';
