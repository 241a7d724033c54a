/** What other features use of the auth feature: they import this module only. */
export { currentUserKey, useCurrentUser } from './api/get-current-user';
export { footerKey, useFooter } from './api/get-footer';
export { globalStateKey } from './api/get-global-state';
export { authKeys } from './api/keys';
