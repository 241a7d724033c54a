import type { TableName } from '../../db/schema.js';
export { projectsRoutes } from './projects.routes.js';
export { getProjectRow } from './projects.service.js';
export { countProjects } from './projects.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['projects', 'project_members'] as const satisfies readonly TableName[];
