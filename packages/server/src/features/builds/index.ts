import type { TableName } from '../../db/schema.js';
export { buildsConsoleRoutes, buildsPagesRoutes } from './builds.console.routes.js';
export { buildsRestRoutes } from './builds.routes.js';
export { mayOnBuild } from './builds.service.js';
export { artifactSha1s, runOf } from './builds.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['builds', 'build_files', 'build_promotions'] as const satisfies readonly TableName[];
