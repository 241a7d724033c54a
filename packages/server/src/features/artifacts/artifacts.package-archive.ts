import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type * as XzModule from 'xz-decompress';

// a CommonJS module whose names Node's ESM loader cannot see: loaded as CommonJS
const { XzReadableStream } = createRequire(import.meta.url)('xz-decompress') as typeof XzModule;

/** An index or archive opened by its name's ending: gzip (`.gz`), xz (`.xz`), or as it is. */
export async function decompress(name: string, data: Buffer): Promise<Buffer> {
  if (name.endsWith('.gz')) return gunzipSync(data);
  if (name.endsWith('.xz')) {
    const stream = new XzReadableStream(new Blob([new Uint8Array(data)]).stream());
    return Buffer.from(await new Response(stream).arrayBuffer());
  }
  return data;
}

/** What a package archive holds: every entry's name and type, and the bytes of the entries asked for. */
export interface TarContents {
  entries: { name: string; type: string; size: number }[];
  files: Map<string, Buffer>;
}

/**
 * Reads a package that is a tar archive (gzipped unless `gzip` is false) — a crate, a chart, a
 * gem — keeping the bytes of the entries `want` names, each at most `maxEntryBytes`. Throws
 * when the archive cannot be read (not gzip, a broken tar, an entry cut short).
 */
export async function readTar(
  archive: Buffer,
  want: (name: string) => boolean,
  options: { gzip?: boolean; maxEntryBytes?: number } = {},
): Promise<TarContents> {
  const { gzip = true, maxEntryBytes = 16 * 1024 * 1024 } = options;
  const contents: TarContents = { entries: [], files: new Map() };
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const name = header.name.replace(/^\.\//, '');
    const size = header.size ?? 0;
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
  const source = Readable.from([archive]);
  await (gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract));
  return contents;
}
