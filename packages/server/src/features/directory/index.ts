import type { FastifyInstance } from 'fastify';
import { useDirectoryLog } from './directory.service.js';

export { DirectoryError } from './directory.client.js';
export { directoryAccessRoutes, directoryRoutes } from './directory.routes.js';
export { directorySignIn, type DirectoryOutcome } from './directory.service.js';

/** Directory sign-in notes the servers it could not ask in the app's log. */
export function registerDirectory(app: FastifyInstance): void {
  useDirectoryLog(app.log);
}
