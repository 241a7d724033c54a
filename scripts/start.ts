/**
 * `npm start`: builds what is not built yet (contracts and server incrementally, the console when
 * its sources are newer than its build), then runs the server in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mustRun } from './run.ts';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function consoleIsStale(): boolean {
  const index = path.join(root, 'packages/web/dist/index.html');
  if (!fs.existsSync(index)) return true;
  const built = fs.statSync(index).mtimeMs;
  const sources = [path.join(root, 'packages/web/src'), path.join(root, 'packages/contracts/src')];
  return sources.some((dir) => newestMtime(dir) > built);
}

await mustRun(bin('tsc'), ['-b', path.join(root, 'packages/server')]);
if (consoleIsStale()) {
  console.log('Building the console…');
  await mustRun(bin('vite'), ['build', path.join(root, 'packages/web'), '--logLevel', 'warn']);
}
const { main } = (await import(path.join(root, 'packages/server/dist/main.js'))) as { main: () => Promise<void> };
await main();
