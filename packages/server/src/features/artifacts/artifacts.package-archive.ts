import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type * as XzModule from 'xz-decompress';

// a CommonJS module whose names Node's ESM loader cannot see: loaded as CommonJS
const { XzReadableStream } = createRequire(import.meta.url)('xz-decompress') as typeof XzModule;

/** How much a decompressed index may hold unless the caller says otherwise (Debian's largest `Packages` is ~60 MB). */
export const DECOMPRESSED_MAX_BYTES = 256 * 1024 * 1024;

/** Decompressed data that would pass its limit: what a small archive inflating without end ("a bomb") raises. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`it inflates to more than ${formatLimit(limit)}`);
  }
}

const formatLimit = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;

/**
 * An index or archive opened by its name's ending: gzip (`.gz`), xz (`.xz`), or as it is; never
 * more than `maxBytes` decompressed (`TooLarge` past it, found while inflating, not after).
 */
export async function decompress(name: string, data: Buffer, maxBytes = DECOMPRESSED_MAX_BYTES): Promise<Buffer> {
  if (name.endsWith('.gz')) return gunzipCapped(data, maxBytes);
  if (name.endsWith('.xz')) {
    const reader = new XzReadableStream(new Blob([new Uint8Array(data)]).stream()).getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new TooLarge(maxBytes);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  }
  if (data.length > maxBytes) throw new TooLarge(maxBytes);
  return data;
}

/** gzip data inflated, at most `maxBytes` of it (`TooLarge` past it). */
export function gunzipCapped(data: Buffer, maxBytes: number): Buffer {
  try {
    return gunzipSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge(maxBytes);
    throw error;
  }
}

/** What a package archive holds: every entry's name and type, and the bytes of the entries asked for. */
export interface TarContents {
  entries: { name: string; type: string; size: number }[];
  files: Map<string, Buffer>;
}

/** How many entries a package archive may hold unless the caller says otherwise. */
export const TAR_MAX_ENTRIES = 100_000;

/** An archive with more entries than its reader takes. */
export class TooManyEntries extends Error {
  constructor(readonly limit: number) {
    super(`it holds more than ${limit} entries`);
  }
}

/**
 * Reads a package that is a tar archive (gzipped unless `gzip` is false) — a crate, a chart, a
 * gem, an image's layer (streamed from the store) — keeping the bytes of the entries `want` names, each at most `maxEntryBytes`. Streamed:
 * at most `maxEntries` entries and `maxBytes` of tar are read (`TooManyEntries`, `TooLarge`).
 * Throws when the archive cannot be read (not gzip, a broken tar, an entry cut short).
 */
export async function readTar(
  archive: Buffer | Readable,
  want: (name: string) => boolean,
  options: { gzip?: boolean; maxEntryBytes?: number; maxEntries?: number; maxBytes?: number } = {},
): Promise<TarContents> {
  const {
    gzip = true,
    maxEntryBytes = 16 * 1024 * 1024,
    maxEntries = TAR_MAX_ENTRIES,
    maxBytes = 1024 * 1024 * 1024,
  } = options;
  const contents: TarContents = { entries: [], files: new Map() };
  const extract = tar.extract();
  let tarBytes = 0;
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^\.\//, '');
    const size = header.size ?? 0;
    tarBytes += 512 + size;
    if (contents.entries.length >= maxEntries) return extract.destroy(new TooManyEntries(maxEntries));
    if (tarBytes > maxBytes) return extract.destroy(new TooLarge(maxBytes));
    contents.entries.push({ name, type: header.type ?? 'file', size });
    if (header.type !== 'file' || !want(name) || size > maxEntryBytes) {
      stream.on('end', () => next());
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      contents.files.set(name, Buffer.concat(chunks));
      next();
    });
  });
  const source = Buffer.isBuffer(archive) ? Readable.from([archive]) : archive;
  await (gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract));
  return contents;
}
