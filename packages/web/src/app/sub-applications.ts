/**
 * Paths that belong to sub-applications of the platform (their own services): the console answers
 * them with a "service not found" page in its frame rather than a 404.
 */
export const SUB_APPLICATION_PREFIXES = [
  '/bundle',
  '/bundles',
  '/pipelines',
  '/admin/pipelines',
  '/distribution',
  '/xray',
  '/security',
  '/insight',
  '/access',
];
