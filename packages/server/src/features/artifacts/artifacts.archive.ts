import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { ARTIFACT_MESSAGES, VIEW_MAX_BYTES, type ArchiveEntry } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import type { BinaryStore } from '../../storage/binary-store.js';

type Kind = 'zip' | 'tgz' | 'tar';

const ZIP = /\.(zip|jar|war|ear|aar|nupkg|whl|apk|vsix)$/i;
const TGZ = /\.(tgz|tar\.gz)$/i;
const TAR = /\.tar$/i;

export function archiveKind(name: string): Kind | undefined {
  if (ZIP.test(name)) return 'zip';
  if (TGZ.test(name)) return 'tgz';
  if (TAR.test(name)) return 'tar';
  return undefined;
}

/** At most this many entries are listed. */
const MAX_ENTRIES = 10_000;

/** Reads of a stored content are made in blocks of this size, kept for the next reads. */
const ZIP_BLOCK_BYTES = 1024 * 1024;
/** Blocks kept per open archive. */
const ZIP_BLOCKS_KEPT = 8;

/**
 * A stored zip read at random through the store, whatever it is: reads go in aligned blocks of
 * 1 MiB, the last few kept, so that the central directory of a jar in an object store costs one or
 * two requests rather than one per entry.
 */
class StoredZipReader extends yauzl.RandomAccessReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();

  constructor(
    private readonly store: BinaryStore,
    private readonly sha256: string,
    private readonly size: number,
  ) {
    super();
  }

  private block(index: number): Promise<Buffer> {
    let block = this.blocks.get(index);
    if (block) {
      this.blocks.delete(index);
      this.blocks.set(index, block);
      return block;
    }
    const start = index * ZIP_BLOCK_BYTES;
    const end = Math.min(this.size, start + ZIP_BLOCK_BYTES) - 1;
    block = (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of this.store.read(this.sha256, { start, end }) as AsyncIterable<Buffer>)
        chunks.push(chunk);
      return Buffer.concat(chunks);
    })();
    this.blocks.set(index, block);
    for (const key of this.blocks.keys()) {
      if (this.blocks.size <= ZIP_BLOCKS_KEPT) break;
      this.blocks.delete(key);
    }
    return block;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.range(start, end));
  }

  private async *range(start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at < end;) {
      const index = Math.floor(at / ZIP_BLOCK_BYTES);
      const block = await this.block(index);
      const from = at - index * ZIP_BLOCK_BYTES;
      const to = Math.min(block.length, end - index * ZIP_BLOCK_BYTES);
      if (to <= from) throw new Error('The archive ends before its directory says.');
      yield block.subarray(from, to);
      at += to - from;
    }
  }
}

function openZip(store: BinaryStore, sha256: string, size: number): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromRandomAccessReader(
      new StoredZipReader(store, sha256, size),
      size,
      { lazyEntries: true, autoClose: true },
      (err, zip) => (err || !zip ? reject(err ?? new Error('zip')) : resolve(zip)),
    ),
  );
}

async function readStreamLimited(stream: Readable, limit: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      truncated = true;
      stream.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const buffer = Buffer.concat(chunks);
  if (buffer.includes(0)) throw badRequest(ARTIFACT_MESSAGES.notText);
  return { text: buffer.toString('utf8'), truncated };
}

/** An archive view reads at most this many decompressed bytes … */
export const ARCHIVE_MAX_BYTES = 256 * 1024 * 1024;
/** … and spends at most this long: a small compressed file can expand to gigabytes. */
export const ARCHIVE_MAX_MS = 5_000;

/** Passes bytes through until the byte or time budget is spent, then fails the stream. */
function budget(maxBytes: number, maxMs: number): Transform {
  const deadline = Date.now() + maxMs;
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBytes || Date.now() > deadline) callback(badRequest(ARTIFACT_MESSAGES.archiveTooLarge));
      else callback(null, chunk);
    },
  });
}

/**
 * Walks a tar stream, calling `visit` per entry; `visit` returns true to stop. A corrupt gzip or
 * tar stream, or one past the byte or time budget, rejects: it never escapes as an unhandled error.
 */
async function walkTar(
  source: Readable,
  gzip: boolean,
  visit: (header: tar.Header, stream: Readable) => Promise<boolean>,
): Promise<void> {
  const extract = tar.extract();
  let failure: unknown;
  const piping = pipeline([
    source,
    ...(gzip ? [createGunzip()] : []),
    budget(ARCHIVE_MAX_BYTES, ARCHIVE_MAX_MS),
    extract,
  ]).catch((error: unknown) => {
    failure ??= error;
  });
  let stopped = false;
  try {
    for await (const entry of extract) {
      if (await visit(entry.header, entry as unknown as Readable)) {
        stopped = true;
        break;
      }
      entry.resume();
    }
  } catch (error) {
    source.destroy();
    await piping;
    throw failure ?? error;
  }
  if (stopped) {
    source.destroy();
    await piping;
    return;
  }
  await piping;
  if (failure) throw failure;
}

/** Client errors pass through; anything else a broken archive raises becomes 'not an archive'. */
function asArchiveError(error: unknown): never {
  if (error instanceof Error && 'statusCode' in error) throw error;
  throw badRequest(ARTIFACT_MESSAGES.notArchive);
}

/** Lists the entries of a zip, jar, tgz or tar stored under `sha256`. */
export async function listArchive(
  store: BinaryStore,
  sha256: string,
  size: number,
  name: string,
  maxEntries = MAX_ENTRIES,
): Promise<ArchiveEntry[]> {
  const kind = archiveKind(name);
  if (!kind) throw badRequest(ARTIFACT_MESSAGES.notArchive);
  const entries: ArchiveEntry[] = [];
  try {
    if (kind === 'zip') {
      const zip = await openZip(store, sha256, size);
      await new Promise<void>((resolve, reject) => {
        zip.on('entry', (entry: yauzl.Entry) => {
          const folder = entry.fileName.endsWith('/');
          entries.push({ path: entry.fileName.replace(/\/$/, ''), size: folder ? 0 : entry.uncompressedSize, folder });
          if (entries.length >= maxEntries) zip.close();
          else zip.readEntry();
        });
        zip.on('end', resolve);
        zip.on('close', resolve);
        zip.on('error', reject);
        zip.readEntry();
      });
    } else {
      await walkTar(store.read(sha256), kind === 'tgz', async (header) => {
        entries.push({
          path: header.name.replace(/\/$/, ''),
          size: header.size ?? 0,
          folder: header.type === 'directory',
        });
        return entries.length >= maxEntries;
      });
    }
  } catch (error) {
    asArchiveError(error);
  }
  return entries;
}

/** The text of one entry of an archive (first 1 MiB). */
export async function readArchiveEntry(
  store: BinaryStore,
  sha256: string,
  size: number,
  name: string,
  entryPath: string,
): Promise<{ fileContent: string; truncated: boolean }> {
  const kind = archiveKind(name);
  if (!kind) throw badRequest(ARTIFACT_MESSAGES.notArchive);
  let result: { text: string; truncated: boolean } | undefined;
  try {
    result = await readEntry(store, sha256, size, kind, entryPath);
  } catch (error) {
    asArchiveError(error);
  }
  if (!result) throw notFound();
  return { fileContent: result.text, truncated: result.truncated };
}

async function readEntry(
  store: BinaryStore,
  sha256: string,
  size: number,
  kind: Kind,
  entryPath: string,
): Promise<{ text: string; truncated: boolean } | undefined> {
  let result: { text: string; truncated: boolean } | undefined;
  if (kind === 'zip') {
    const zip = await openZip(store, sha256, size);
    result = await new Promise((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== entryPath) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('entry'));
          readStreamLimited(stream, VIEW_MAX_BYTES).then((r) => {
            zip.close();
            resolve(r);
          }, reject);
        });
      });
      zip.on('end', () => resolve(undefined));
      zip.on('error', reject);
      zip.readEntry();
    });
  } else {
    await walkTar(store.read(sha256), kind === 'tgz', async (header, stream) => {
      if (header.name.replace(/^\.\//, '') !== entryPath.replace(/^\.\//, '')) return false;
      result = await readStreamLimited(stream, VIEW_MAX_BYTES);
      return true;
    });
  }
  return result;
}
