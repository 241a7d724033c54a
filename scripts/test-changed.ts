/**
 * `npm run test:changed [-- <git revision>]`: the tests a change touches, for daily work. What
 * changed is the working tree against HEAD (with new files), or against the revision given.
 *
 * - server lane: Vitest's related-files mode (`--changed`): every contracts, server and console
 *   test file that imports a changed file, directly or not;
 * - browser lane: the end-to-end files that changed, and those of the features the change touches
 *   (they reach the product over HTTP, so no import leads to them): a server or console feature
 *   folder or a package format names its files below; the console's shell (app, components, api,
 *   styles) the route walk and the console test; the browser harness every file.
 *
 * `npm test` stays the one command that proves everything.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { mustRun } from './run.ts';
import { UNIT_PROJECTS, projectArgs } from './test-projects.ts';
import { lane, npm, root, runTests, vitestRun } from './test-lanes.ts';

/** Feature folders and formats whose browser tests are not named after them. */
const BROWSER_FILES: Record<string, string[]> = {
  auth: ['sign-in', 'access'],
  identity: ['sign-in', 'access'],
  users: ['access'],
  groups: ['access'],
  permissions: ['access'],
  security: ['access'],
  tokens: ['access', 'dashboard'],
  directory: ['sso'],
  keys: ['onboarding'],
  signing: ['onboarding', 'debian-clients', 'rpm-clients'],
  ssh: ['onboarding'],
  settings: ['onboarding'],
  proxies: ['onboarding'],
  overview: ['dashboard'],
  home: ['dashboard'],
  storage: ['dashboard'],
  federation: ['deployments', 'mission-control'],
  replications: ['deployments'],
  topology: ['mission-control'],
  backup: ['operations', 'cluster'],
  system: ['operations'],
  support: ['operations'],
  logs: ['operations'],
  mail: ['operations'],
  license: ['operations'],
  repositories: ['artifacts', 'console'],
  'app-integrations': ['integrations'],
  'vcs-integrations': ['integrations'],
  generic: ['artifacts'],
  helm: ['packages'],
  terraform: ['packages'],
  gems: ['gems-clients'],
  oci: ['oci-clients'],
};

const e2eDir = path.join(root, 'packages/web/e2e');
const e2eFiles = fs
  .readdirSync(e2eDir)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => f.replace(/\.test\.ts$/, ''));

function git(args: string[]): string[] {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The browser test files (names without `.test.ts`) a changed path calls for. */
function browserFilesFor(file: string): string[] {
  const e2e = /^packages\/web\/e2e\/(.+)$/.exec(file);
  if (e2e) return e2e[1]!.endsWith('.test.ts') ? [e2e[1]!.replace(/\.test\.ts$/, '')] : e2eFiles;
  const folder = /^packages\/(?:server|web)\/src\/(?:features|formats)\/([^/]+)\//.exec(file)?.[1];
  if (folder) {
    const named = e2eFiles.filter((f) => f === folder || f === `${folder}-clients` || f.startsWith(`${folder}.`));
    return [...named, ...(BROWSER_FILES[folder] ?? [])];
  }
  if (/^packages\/web\/src\/(app|components|api|lib)\/|^packages\/web\/src\/[^/]+\.(css|tsx?)$/.test(file))
    return ['every-route', 'console'];
  return [];
}

const base = process.argv[2];
const changed = [
  ...git(['diff', '--name-only', base ?? 'HEAD']),
  ...(base ? [] : git(['ls-files', '--others', '--exclude-standard'])),
];
const browser = [...new Set(changed.flatMap(browserFilesFor))].filter((f) => e2eFiles.includes(f)).sort();

await runTests(async () => {
  if (changed.length === 0) {
    console.log('Nothing changed: no test to run (npm test runs them all).');
    return true;
  }
  console.log(`Changed: ${changed.length} files. Browser tests they call for: ${browser.join(', ') || 'none'}.`);
  await mustRun(npm, ['run', 'build']);
  const lanes: Promise<boolean>[] = [
    lane('server', [
      vitestRun('server', [`--changed${base ? `=${base}` : ''}`, '--passWithNoTests', ...projectArgs(UNIT_PROJECTS)]),
    ]),
  ];
  if (browser.length > 0) {
    const files = browser.map((f) => `packages/web/e2e/${f}.test.ts`);
    lanes.push(lane('browser', [vitestRun('browser', [...projectArgs(['e2e', 'clients']), ...files])]));
  }
  return (await Promise.all(lanes)).every(Boolean);
});
