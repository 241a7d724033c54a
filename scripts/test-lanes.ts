/**
 * What `npm test` and `npm run test:changed` share: lanes of commands run side by side with their
 * lines marked, Vitest runs that write a JSON report, a temporary root in memory, and the ending
 * (slowest files, each project's wall time, totals).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { summarize } from './test-report.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const reports = path.join(root, '.vitest-reports');
const vitest = path.join(root, 'node_modules/.bin/vitest');

export type Step = [command: string, args: string[]];

/** Runs a command with each line of its output marked with the lane's name; resolves with its exit code. */
function runMarked(label: string, [command, args]: Step): Promise<number> {
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
export async function lane(label: string, steps: Step[]): Promise<boolean> {
  let passed = true;
  for (const step of steps) {
    const code = await runMarked(label, step);
    if (code !== 0) {
      passed = false;
      console.log(`${label.padEnd(7)} │ ${path.basename(step[0])} ${step[1].join(' ')} failed (exit code ${code})`);
    }
  }
  return passed;
}

const written: string[] = [];

/** A Vitest run with the given arguments that writes its JSON report for the ending. */
export function vitestRun(name: string, args: string[]): Step {
  const report = path.join(reports, `${name}.json`);
  written.push(report);
  return [vitest, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args]];
}

/**
 * Temporary files of the run (data directories, clients' homes, browser profiles) go to memory
 * when the machine has a tmpfs with room and TMPDIR does not say otherwise: the suites write
 * many small files and sync often.
 */
function temporaryRoot(): string | undefined {
  if (process.env.TMPDIR) return undefined;
  try {
    const { bavail, bsize } = fs.statfsSync('/dev/shm');
    if (bavail * bsize < 4 * 1024 ** 3) return undefined;
    return fs.mkdtempSync('/dev/shm/arca-test-');
  } catch {
    return undefined;
  }
}

/** Runs `work` (which starts lanes) with fresh reports and a temporary root; prints the ending and exits. */
export async function runTests(work: () => Promise<boolean>): Promise<never> {
  const started = Date.now();
  fs.rmSync(reports, { recursive: true, force: true });
  fs.mkdirSync(reports, { recursive: true });
  const temporary = temporaryRoot();
  if (temporary) process.env.TMPDIR = temporary;
  let passed = false;
  try {
    passed = await work();
  } finally {
    if (temporary) fs.rmSync(temporary, { recursive: true, force: true });
  }
  const totals = summarize(written);
  if (!passed && totals.failed === 0) totals.failed = 1;
  const wall = Math.round((Date.now() - started) / 1000);
  console.log(`\nThe run took ${Math.floor(wall / 60)} min ${wall % 60} s.`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(passed ? 0 : 1);
}
