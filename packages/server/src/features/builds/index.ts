export { buildsConsoleRoutes, buildsPagesRoutes, buildsRestRoutes } from './builds.routes.js';
