/**
 * Console load: builds the console, prints the gzip size of the entry chunk and of the largest
 * lazy chunk, and the median of 5 cold loads in Chromium from navigation to an interactive login
 * form. Targets: entry ≤ 250 KB gzip, interactive ≤ 1 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, startServer } from '../../packages/web/e2e/harness.ts';
import { mustRun } from '../../scripts/run.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const dist = path.join(root, 'packages/web/dist');
const RUNS = 5;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await mustRun(path.join(root, 'node_modules/.bin/tsc'), ['-b', path.join(root, 'packages/server')]);
await mustRun(path.join(root, 'node_modules/.bin/vite'), [
  'build',
  path.join(root, 'packages/web'),
  '--logLevel',
  'warn',
]);

const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entryName = /<script type="module"[^>]*src="\/ui\/assets\/([^"]+\.js)"/.exec(html)?.[1];
if (!entryName) throw new Error('no entry script in index.html');
const assets = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const gz = (file: string) => gzipSync(fs.readFileSync(path.join(dist, 'assets', file)), { level: 9 }).length;
const entry = gz(entryName);
// the entry's static imports load with it: count them with the entry
const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/ui\/assets\/([^"]+\.js)"/g)].map(
  (m) => m[1]!,
);
const initial = entry + preloaded.reduce((sum, f) => sum + gz(f), 0);
const lazy = assets
  .filter((f) => f !== entryName && !preloaded.includes(f))
  .map((f) => ({ f, size: gz(f) }))
  .sort((a, b) => b.size - a.size)[0]!;

const server = await startServer({ ARCA_LOG_STDOUT: 'false' });
const { browser, close } = await launchBrowser();
const times: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/ui/`);
    const handle = await page.waitForFunction(
      () => {
        const input = document.querySelector<HTMLInputElement>('input#user');
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Log in');
        return input && !input.disabled && button && !button.disabled ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    times.push((await handle.jsonValue()) as number);
    await context.close();
  }
} finally {
  await close();
  await server.stop();
}

console.log(
  `console-load: entry chunk ${entryName} ${kb(entry)} gzip (with its ${preloaded.length} preloaded chunks ${kb(initial)}; target ≤ 250 KB)`,
);
console.log(`console-load: largest lazy chunk ${lazy.f} ${kb(lazy.size)} gzip`);
console.log(
  `console-load: navigation to interactive login form, median of ${RUNS} cold loads ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')}; target ≤ 1000 ms)`,
);
