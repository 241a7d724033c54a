/** What other features use of the system feature: they import this module only. */
export { useNodes } from './api/get-nodes';
export { useVersion } from './api/get-version';
