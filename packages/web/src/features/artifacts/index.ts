/** What other features use of the artifacts feature: they import this module only. */
export { useTreeRepos } from './api/get-tree-repos';
export { SetMeUpModal } from './components/set-me-up-modal';
