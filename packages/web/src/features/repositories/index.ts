/** What other features use of the repositories feature: they import this module only. */
export { useRepositories } from './api/get-repositories';
export { repositoriesKeys } from './api/keys';
