import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { serveThreadCalls } from '../../core/threads.js';

/** A run of small contents to copy: each from its file in the store to its place in the backup. */
export interface CopyRun {
  files: { from: string; to: string; sha256: string }[];
}

/** The copying thread's name. */
export const COPYING_THREAD = 'backup-copies';

export const missingMessage = (sha256: string) => `The binary ${sha256} the database lists is missing from the store.`;
export const damagedMessage = (sha256: string, digest: string) =>
  `The stored binary ${sha256} is damaged: its content hashes to ${digest}.`;

/**
 * Copies small contents one after the other with the file system's plain calls, on a thread of
 * its own: a copy is a handful of calls that take microseconds each, and handing every one of
 * them to the event loop's thread pool and back cost several times the calls themselves. Each
 * content is checked against its SHA-256 and written under a temporary name first, so a copy cut
 * midway never passes for a whole one.
 */
serveThreadCalls<CopyRun, number>(COPYING_THREAD, async ({ files }) => {
  const made = new Set<string>();
  for (const file of files) {
    let body: Buffer;
    try {
      body = fs.readFileSync(file.from);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') throw new Error(missingMessage(file.sha256));
      throw error;
    }
    const digest = createHash('sha256').update(body).digest('hex');
    if (digest !== file.sha256) throw new Error(damagedMessage(file.sha256, digest));
    const folder = path.dirname(file.to);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    fs.writeFileSync(`${file.to}.part`, body);
    fs.renameSync(`${file.to}.part`, file.to);
  }
  return { result: files.length };
});
