/** What other features use of the keys feature: they import this module only. */
export { useCertificates, useKeyPairs } from './api/keys';
