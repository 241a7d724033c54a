/** What other features use of the release bundles feature: they import this module only. */
export { useReleaseBundleNames } from './api/release-bundles';
