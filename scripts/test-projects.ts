/**
 * End-to-end files that drive package clients and no browser (the Vitest project `clients`):
 * `npm test` runs them in the server lane, so that the two lanes end together — the browser lane
 * is the longer one. A new end-to-end file that opens no browser may join them.
 */
export const CLIENT_FILES = [
  'cargo-clients',
  'debian-clients',
  'gems-clients',
  'go-clients',
  'pypi-clients',
  'rpm-clients',
  'scan-blocking',
  'readme',
].map((name) => `packages/web/e2e/${name}.test.ts`);

/** The Vitest projects of units and server files: the server lane of `npm test` and of `test:changed`. */
export const UNIT_PROJECTS = ['contracts', 'server', 'web'];

/** `--project` arguments for the given projects. */
export const projectArgs = (projects: string[]): string[] => projects.flatMap((p) => ['--project', p]);
