/** What other features use of the profile feature: they import this module only. */
export { useCreateToken } from './api/tokens';
