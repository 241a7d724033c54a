export { buildsConsoleRoutes, buildsPagesRoutes } from './builds.console.routes.js';
export { buildsRestRoutes } from './builds.routes.js';
