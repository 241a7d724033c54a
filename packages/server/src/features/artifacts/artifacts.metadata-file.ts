import { Readable } from 'node:stream';
import { HttpError } from '../../core/errors.js';
import type { RepoContent } from './artifacts.content.js';
import type { Resolved } from './artifacts.resolve.js';
import type { RepositoryRow } from '../../db/schema.js';

/**
 * Deploys bytes the caller holds whole (a file a format makes, a package it read through) at
 * `path` of the write target, through the door: only if the file there has the SHA-256
 * `ifCurrent` (null: only if there is none; absent: whatever is there).
 */
export function deployBytes(
  content: RepoContent,
  target: RepositoryRow,
  path: string,
  body: Buffer,
  options: { properties?: Record<string, string[]>; ifCurrent?: string | null } = {},
) {
  return content.deploy({
    repoKey: target.key,
    target,
    path,
    properties: options.properties ?? {},
    body: Readable.from([body]),
    contentLength: body.length,
    checksums: {},
    checksumDeploy: false,
    ...(options.ifCurrent !== undefined ? { ifCurrent: options.ifCurrent } : {}),
  });
}

/** How often a metadata change is tried again when another writer changed the file meanwhile. */
const WRITE_ATTEMPTS = 5;

/**
 * Changes a metadata file that several writers update (an npm packument, a Python project's
 * page) through the door: reads it, lets `update` make the next version from it, and deploys that
 * only if the file is still the one read (`ifCurrent`); when another writer won, all over again
 * from a fresh read, a few times. Answers what was written.
 */
export async function changeMetadataFile<T>(
  content: RepoContent,
  target: RepositoryRow,
  path: string,
  parse: (found: Resolved) => Promise<T | undefined>,
  update: (current: T | undefined) => T | Promise<T>,
  /**
   * How the file is written (JSON by default), when the next version needs no write, and what the
   * caller read of it already (so that the first attempt does not read it again).
   */
  format: {
    serialize?: (value: T) => string;
    same?: (current: T, next: T) => boolean;
    read?: { found: Resolved | undefined; current: T | undefined };
  } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const given = attempt === 1 ? format.read : undefined;
    const found = given ? given.found : await content.resolve(target, path);
    const current = given ? given.current : found ? await parse(found) : undefined;
    const next = await update(current);
    if (current !== undefined && format.same?.(current, next)) return current;
    const body = Buffer.from(format.serialize ? format.serialize(next) : JSON.stringify(next));
    try {
      await deployBytes(content, target, path, body, { ifCurrent: found?.item.sha256 ?? null });
      return next;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 409 || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}
