/** What other features use of the artifacts feature: they import this module only. */
export { treeReposQuery, useTreeRepos } from './api/get-tree-repos';
export { SetMeUpModal } from './components/set-me-up-modal';
