/**
 * `npm test`: every check, in order — system packages the browser tests need, typecheck, lint,
 * build, then every Vitest project (contracts, server on SQLite and, when ARCA_TEST_DATABASE_URL
 * is set, PostgreSQL; web; browser end-to-end). Ends with one plain totals line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mustRun, run } from './run.ts';

const root = path.resolve(import.meta.dirname, '..');
const report = path.join(root, '.vitest-report.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

await mustRun('bash', [path.join(root, 'scripts/ensure-system-packages.sh')]);
if (!process.env.ARCA_TEST_DATABASE_URL) {
  console.log('ARCA_TEST_DATABASE_URL is not set: the server suites run on SQLite only (.ci/run adds PostgreSQL).');
}
await mustRun(npm, ['run', 'typecheck']);
await mustRun(npm, ['run', 'lint']);
await mustRun(npm, ['run', 'build']);

fs.rmSync(report, { force: true });
const code = await run(path.join(root, 'node_modules/.bin/vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);
let passed = 0;
let failed = 0;
if (fs.existsSync(report)) {
  const totals = JSON.parse(fs.readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed = totals.numPassedTests;
  failed = totals.numFailedTests;
}
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 ? 0 : 1);
