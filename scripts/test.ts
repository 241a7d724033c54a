/**
 * `npm test`: every check. The system packages the browser tests need are ensured and the server
 * and console are built; then three lanes run side by side, so that both cores stay busy:
 *
 * - checks: typecheck, then ESLint and Prettier;
 * - server: the contracts, server (SQLite and, when ARCA_TEST_DATABASE_URL is set, PostgreSQL) and
 *   console unit projects, their files in parallel workers;
 * - browser: the end-to-end project (Chromium against real servers), one file at a time.
 *
 * Each lane's lines carry its name. The run ends with the slowest files, each project's wall time
 * and one plain totals line, `N passed, N failed`.
 *
 * `npm test -- <file or filter> …` runs just the matching test files (building first when one of
 * them starts the built server), with the same summary.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { mustRun } from './run.ts';
import { summarize } from './test-report.ts';

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, '.vitest-reports');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitest = path.join(root, 'node_modules/.bin/vitest');

/** Runs a command with each line of its output marked with the lane's name; resolves with its exit code. */
function runMarked(label: string, command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    const mark = `${label.padEnd(7)} │ `;
    readline.createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${mark}${line}\n`));
    readline.createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${mark}${line}\n`));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs the steps of a lane in order, all of them even when one fails; resolves with whether all passed. */
async function lane(label: string, steps: [string, string[]][]): Promise<boolean> {
  let passed = true;
  for (const [command, args] of steps) {
    const code = await runMarked(label, command, args);
    if (code !== 0) {
      passed = false;
      process.stdout.write(
        `${label.padEnd(7)} │ ${path.basename(command)} ${args.join(' ')} failed (exit code ${code})\n`,
      );
    }
  }
  return passed;
}

function vitestRun(report: string, args: string[]): [string, string[]] {
  return [vitest, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args]];
}

/**
 * Temporary files of the run (data directories, clients' homes, browser profiles) go to memory
 * when the machine has a tmpfs with room: the suites write many small files and fsync often.
 */
function temporaryRoot(): string | undefined {
  const shm = '/dev/shm';
  try {
    const { bavail, bsize } = fs.statfsSync(shm);
    if (bavail * bsize < 4 * 1024 ** 3) return undefined;
    return fs.mkdtempSync(path.join(shm, 'arca-test-'));
  } catch {
    return undefined;
  }
}

const started = Date.now();
const filters = process.argv.slice(2);
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });
const temporary = process.env.TMPDIR ? undefined : temporaryRoot();
if (temporary) process.env.TMPDIR = temporary;

await mustRun('bash', [path.join(root, 'scripts/ensure-system-packages.sh')]);
if (!process.env.ARCA_TEST_DATABASE_URL) {
  console.log('ARCA_TEST_DATABASE_URL is not set: the server suites run on SQLite only (.ci/run adds PostgreSQL).');
}

let passed: boolean;
let written: string[];
if (filters.length > 0) {
  // the browser tests and the server's crash tests start the built server
  const built = fs.existsSync(path.join(root, 'packages/server/dist/main.js'));
  if (!built || filters.some((f) => f.includes('e2e') || f.includes('crash'))) await mustRun(npm, ['run', 'build']);
  written = [path.join(reports, 'focused.json')];
  passed = await lane('test', [vitestRun(written[0]!, filters)]);
} else {
  await mustRun(npm, ['run', 'build']);
  written = [path.join(reports, 'server.json'), path.join(reports, 'browser.json')];
  const lanes = await Promise.all([
    lane('checks', [
      [npm, ['run', 'typecheck']],
      [npm, ['run', 'lint']],
    ]),
    lane('server', [vitestRun(written[0]!, ['--project', 'contracts', '--project', 'server', '--project', 'web'])]),
    lane('browser', [vitestRun(written[1]!, ['--project', 'e2e'])]),
  ]);
  passed = lanes.every(Boolean);
}

if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
const totals = summarize(written);
if (!passed && totals.failed === 0) totals.failed = 1;
const wall = Math.round((Date.now() - started) / 1000);
console.log(`\nnpm test took ${Math.floor(wall / 60)} min ${wall % 60} s.`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(passed ? 0 : 1);
