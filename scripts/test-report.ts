/**
 * What a test run cost, read from the Vitest JSON reports its lanes wrote: the slowest files
 * (with their test counts) and each project's wall time, so that the price of every new test is
 * seen in every run; and the totals.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_FILES } from './test-projects.ts';

interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
  status: string;
  assertionResults: { status: string }[];
}

interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: FileResult[];
}

export interface Totals {
  passed: number;
  failed: number;
  skipped: number;
}

const root = path.resolve(import.meta.dirname, '..');

/** The Vitest project a test file belongs to, by where it lives. */
function projectOf(file: string): string {
  const relative = path.relative(root, file);
  if (relative.startsWith('packages/web/e2e/')) return CLIENT_FILES.includes(relative) ? 'clients' : 'e2e';
  if (relative.startsWith('packages/web/')) return 'web';
  if (relative.startsWith('packages/server/')) return 'server';
  if (relative.startsWith('packages/contracts/')) return 'contracts';
  return 'other';
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Prints the slowest files and each project's wall time; answers the totals of every report. */
export function summarize(reports: string[], slowest = 10): Totals {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0 };
  const files: (FileResult & { project: string })[] = [];
  for (const file of reports) {
    if (!fs.existsSync(file)) continue;
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    for (const result of report.testResults) files.push({ ...result, project: projectOf(result.name) });
  }
  if (files.length === 0) return totals;

  const rows = [...files]
    .sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))
    .slice(0, slowest)
    .map((f) => [
      seconds(f.endTime - f.startTime),
      String(f.assertionResults.length),
      f.project,
      path.relative(root, f.name),
    ]);
  console.log(`\nThe ${rows.length} slowest test files:`);
  printTable(['seconds', 'tests', 'project', 'file'], rows);

  const projects = new Map<string, { start: number; end: number; busy: number; files: number; tests: number }>();
  for (const f of files) {
    const p = projects.get(f.project) ?? { start: Infinity, end: 0, busy: 0, files: 0, tests: 0 };
    p.start = Math.min(p.start, f.startTime);
    p.end = Math.max(p.end, f.endTime);
    p.busy += f.endTime - f.startTime;
    p.files += 1;
    p.tests += f.assertionResults.length;
    projects.set(f.project, p);
  }
  console.log('\nEach project:');
  printTable(
    ['wall s', 'file s', 'files', 'tests', 'project'],
    [...projects].map(([name, p]) => [
      seconds(p.end - p.start),
      seconds(p.busy),
      String(p.files),
      String(p.tests),
      name,
    ]),
  );
  return totals;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  // numbers to the right, the last column (names) to the left
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
