import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function readVersion(): string {
  const file = path.join(import.meta.dirname, '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

function readRevision(): string {
  if (process.env.ARCA_REVISION) return process.env.ARCA_REVISION;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: import.meta.dirname,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

/** Version of this build and the source revision it was built from. */
export const BUILD = { version: readVersion(), revision: readRevision() };
