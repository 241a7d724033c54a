/** `npm run bench -- NAME` runs bench/NAME/run.ts; without a name, every benchmark. */
import fs from 'node:fs';
import path from 'node:path';
import { mustRun } from '../scripts/run.ts';

const here = import.meta.dirname;
const all = fs
  .readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const name of names) {
  if (!all.includes(name)) throw new Error(`no benchmark '${name}'; known: ${all.join(', ')}`);
  await mustRun(path.join(here, '..', 'node_modules/.bin/tsx'), [path.join(here, name, 'run.ts')]);
}
