export { canSee, readableRepositories } from './aql.service.js';
export { searchConsoleRoutes } from './search.console.js';
export { searchRestRoutes } from './search.routes.js';
export { compileCriteria, pinsOneRepository, wildcard } from './aql.compile.js';
export { AqlError, parseAql } from './aql.parser.js';
