export { projectsRoutes } from './projects.routes.js';
export { getProjectRow } from './projects.service.js';
