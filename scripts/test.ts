/**
 * `npm test`: every check. The system packages the browser tests need are ensured and the server
 * and console are built; then three lanes run side by side, so that both cores stay busy:
 *
 * - checks: typecheck, then ESLint and Prettier;
 * - server: the contracts, server (SQLite and, when ARCA_TEST_DATABASE_URL is set, PostgreSQL) and
 *   console unit projects, and the end-to-end files that drive package clients without a browser
 *   (the `clients` project);
 * - browser: the end-to-end project (Chromium against real servers, real package clients).
 *
 * Each lane's lines carry its name. The run ends with the slowest files, each project's wall time
 * and one plain totals line, `N passed, N failed`.
 *
 * `npm test -- <file or filter> …` runs just the matching test files (building first when one of
 * them starts the built server), with the same ending.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mustRun } from './run.ts';
import { UNIT_PROJECTS, projectArgs } from './test-projects.ts';
import { lane, npm, root, runTests, vitestRun } from './test-lanes.ts';

const filters = process.argv.slice(2);

await runTests(async () => {
  await mustRun('bash', [path.join(root, 'scripts/ensure-system-packages.sh')]);
  if (!process.env.ARCA_TEST_DATABASE_URL) {
    console.log('ARCA_TEST_DATABASE_URL is not set: the server suites run on SQLite only (.ci/run adds PostgreSQL).');
  }
  if (filters.length > 0) {
    // the browser tests and the server's crash tests start the built server
    const built = fs.existsSync(path.join(root, 'packages/server/dist/main.js'));
    if (!built || filters.some((f) => f.includes('e2e') || f.includes('crash'))) await mustRun(npm, ['run', 'build']);
    return lane('test', [vitestRun('focused', filters)]);
  }
  await mustRun(npm, ['run', 'build']);
  const lanes = await Promise.all([
    lane('checks', [
      [npm, ['run', 'typecheck']],
      [npm, ['run', 'lint']],
    ]),
    lane('server', [vitestRun('server', projectArgs([...UNIT_PROJECTS, 'clients']))]),
    lane('browser', [vitestRun('browser', ['--project', 'e2e'])]),
  ]);
  return lanes.every(Boolean);
});
