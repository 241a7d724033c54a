export { canSee, readableRepositories } from './aql.service.js';
export { searchConsoleRoutes } from './search.console.js';
export { searchRestRoutes } from './search.routes.js';
