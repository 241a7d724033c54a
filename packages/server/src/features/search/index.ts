import type { TableName } from '../../db/schema.js';
export { canSee, readableRepositories, runAql } from './aql.service.js';
export { searchConsoleRoutes } from './search.console.js';
export { searchRestRoutes } from './search.routes.js';
export { compileCriteria, pinsOneRepository, wildcard } from './aql.compile.js';
export { AqlError, parseAql } from './aql.parser.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['items_name_search'] as const satisfies readonly TableName[];
