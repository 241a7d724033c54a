import type { Format } from '../format.js';
import { genericRoutes } from './generic.routes.js';

/**
 * Generic files: any file at any path, deployed with PUT and fetched with GET under
 * `/artifactory/{repo}/{path}` as Artifactory answers curl, wget and CI tools (checksum headers,
 * `;key=value` properties, ranges, conditional requests, folder indexes). No package metadata: a
 * remote repository's cached files never expire, a virtual repository's first member that has a
 * file answers.
 */
export const genericFormat: Format = {
  types: ['generic'],
  routes: genericRoutes,
};
