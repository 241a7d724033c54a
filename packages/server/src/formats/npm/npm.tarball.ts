import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

/** Most bytes of the package.json read out of a tarball. */
const MAX_PACKAGE_JSON_BYTES = 4 * 1024 * 1024;
/** Most bytes of a README kept for the catalogue. */
const MAX_README_BYTES = 1024 * 1024;

export interface TarballFacts {
  /** The package.json at the top folder of the archive (`package/package.json` for npm pack). */
  packageJson: Record<string, unknown>;
  /** The README at the top folder (any case, any extension), at most 1 MiB of it. */
  readme?: string;
  fileCount: number;
  unpackedSize: number;
}

/**
 * Reads a package tarball through: a gzipped tar whose top folder holds a package.json.
 * Undefined when it is anything else (corrupt, not gzip, no package.json, unreadable JSON).
 */
export async function inspectTarball(tarball: Buffer | Readable): Promise<TarballFacts | undefined> {
  const extract = tar.extract();
  let packageJson: Record<string, unknown> | undefined;
  let readme: string | undefined;
  let fileCount = 0;
  let unpackedSize = 0;
  extract.on('entry', (header, stream, next) => {
    const parts = header.name.replace(/^\.?\//, '').split('/');
    if (header.type === 'file') {
      fileCount += 1;
      unpackedSize += header.size ?? 0;
    }
    const isManifest = header.type === 'file' && parts.length === 2 && parts[1] === 'package.json';
    const isReadme = header.type === 'file' && parts.length === 2 && /^readme(\.[a-z]+)?$/i.test(parts[1]!);
    if (isReadme && readme === undefined && (header.size ?? 0) <= MAX_README_BYTES) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        readme = Buffer.concat(chunks).toString('utf8');
        next();
      });
      return;
    }
    if (!isManifest || packageJson || (header.size ?? 0) > MAX_PACKAGE_JSON_BYTES) {
      stream.on('end', () => next());
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
          packageJson = parsed as Record<string, unknown>;
      } catch {
        // not JSON: no manifest
      }
      next();
    });
  });
  try {
    await pipeline(Buffer.isBuffer(tarball) ? Readable.from([tarball]) : tarball, createGunzip(), extract);
  } catch {
    return undefined;
  }
  return packageJson
    ? { packageJson, fileCount, unpackedSize, ...(readme !== undefined ? { readme } : {}) }
    : undefined;
}

/** The integrity string npm writes (`sha512-<base64>`) and the hex SHA-1 it calls shasum. */
export function digestsOf(tarball: Buffer): { integrity: string; shasum: string; sha256: string; md5: string } {
  return {
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    shasum: createHash('sha1').update(tarball).digest('hex'),
    // what the store keys and checks the content by: computed here once, not again while storing it
    sha256: createHash('sha256').update(tarball).digest('hex'),
    md5: createHash('md5').update(tarball).digest('hex'),
  };
}
