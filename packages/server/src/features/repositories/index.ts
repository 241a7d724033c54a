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
