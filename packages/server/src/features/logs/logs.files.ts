import fs from 'node:fs';
import path from 'node:path';
import { LOG_FILE_PATTERN, type LogData, type LogProduct } from '@arca/contracts';
import { LOG_FILES } from '../../core/logger.js';
import { notFound } from '../../core/errors.js';

/** The most one read answers: a first look at a large file shows its last lines. */
export const MAX_READ_BYTES = 256 * 1024;

/** A product's log files in a process's folder: its current files first, then rotated ones, newest first. */
export function listLogFiles(dir: string, product: LogProduct): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const current = LOG_FILES[product].filter((name) => names.includes(name));
  const rotated = names
    .filter((name) => name.startsWith(`${product}-`) && LOG_FILE_PATTERN.test(name) && !current.includes(name))
    .sort()
    .reverse();
  return [...current, ...rotated];
}

/**
 * What a log file holds after `offset`: complete lines only (a line being written comes with the
 * next read), at most MAX_READ_BYTES — from a first look (offset 0) at a larger file, its last
 * lines. A file shorter than `offset` was rotated: it is read from its start again.
 */
export function readLog(dir: string, product: LogProduct, file: string, offset: number, now = Date.now()): LogData {
  if (!file.startsWith(`${product}-`) || !LOG_FILE_PATTERN.test(file)) throw notFound(`Unknown log file '${file}'.`);
  const full = path.join(dir, file);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(full);
  } catch {
    throw notFound(`The log file '${file}' does not exist on this node.`);
  }
  let start = offset > stat.size ? 0 : offset;
  let trimHead = false;
  if (stat.size - start > MAX_READ_BYTES) {
    start = stat.size - MAX_READ_BYTES;
    trimHead = true;
  }
  const length = stat.size - start;
  const buffer = Buffer.alloc(length);
  if (length > 0) {
    const fd = fs.openSync(full, 'r');
    try {
      fs.readSync(fd, buffer, 0, length, start);
    } finally {
      fs.closeSync(fd);
    }
  }
  // from the first whole line when the head was cut, up to the last complete line
  const from = trimHead ? buffer.indexOf(0x0a) + 1 : 0;
  const lastNewline = buffer.lastIndexOf(0x0a);
  const to = lastNewline >= from ? lastNewline + 1 : from;
  return {
    log_content: buffer.subarray(from, to).toString('utf8'),
    file_size: start + to,
    last_update_modified: stat.mtimeMs,
    last_update_label: new Date(now).toISOString(),
  };
}
