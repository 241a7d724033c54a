export { repositoriesConsoleRoutes, repositoriesRestRoutes } from './repositories.routes.js';
export {
  createRepository,
  deletionRefusal,
  ensureSystemRepository,
  findRepository,
  getRepository,
  listRepositories,
  parseMembers,
  quickSetup,
  recordRepositoryChange,
  recordRepositoryChangeAs,
  removeRepository,
  usageByRepository,
} from './repositories.service.js';
export type { RepositoryChange } from './repositories.service.js';
export {
  RemoteOffline,
  basicAuthOf,
  forgetRemoteState,
  reasonOf,
  sameHost,
  upstreamFetch,
} from './repositories.upstream.js';
import type { TableName } from '../../db/schema.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['repositories', 'remote_states'] as const satisfies readonly TableName[];
