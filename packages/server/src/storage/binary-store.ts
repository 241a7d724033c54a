import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { OffThreadDigest } from './digest-worker.js';

/** Uploads announced larger than this hash SHA-1 and MD5 on a worker thread. */
const OFF_THREAD_FROM = 4 * 1024 * 1024;

/** The digests and size of a stored content. */
export interface BinaryDigest {
  sha256: string;
  sha1: string;
  md5: string;
  size: number;
}

/** A content written to a temporary file, not yet visible: commit it or discard it. */
export interface PendingBinary extends BinaryDigest {
  /** Moves the content into the store (idempotent for identical content). */
  commit(): Promise<void>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

/**
 * Where binaries live. The file-system store keeps each content once, under its SHA-256; an
 * S3-compatible store can implement the same interface for multi-node deployments.
 */
export interface BinaryStore {
  /**
   * Streams `source` to a temporary file, computing SHA-256, SHA-1 and MD5 in the same pass.
   * `sizeHint` (the announced length) lets large uploads hash on two threads.
   */
  write(source: Readable, sizeHint?: number): Promise<PendingBinary>;
  exists(sha256: string): Promise<boolean>;
  /** Reads a stored content, optionally a byte range (inclusive end). */
  read(sha256: string, range?: { start: number; end: number }): Readable;
  remove(sha256: string): Promise<void>;
  /** Removes temporary files left by interrupted uploads. */
  cleanTemporary(): Promise<number>;
  /** Every stored SHA-256 with the file's modification time. */
  list(): AsyncIterable<{ sha256: string; mtimeMs: number }>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** `<root>/ab/cd/<sha256>`, with temporary files under `<root>/_tmp`. */
export class FileBinaryStore implements BinaryStore {
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '_tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async write(source: Readable, sizeHint?: number): Promise<PendingBinary> {
    const tmp = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
    const sha256 = createHash('sha256');
    const offThread = sizeHint !== undefined && sizeHint >= OFF_THREAD_FROM ? new OffThreadDigest() : undefined;
    const sha1 = offThread ? undefined : createHash('sha1');
    const md5 = offThread ? undefined : createHash('md5');
    let size = 0;
    const digest = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sha256.update(chunk);
        size += chunk.length;
        if (offThread) {
          offThread.update(chunk).then(() => callback(null, chunk), callback);
          return;
        }
        sha1!.update(chunk);
        md5!.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      // flush: the data is fsynced before the stream closes
      await pipeline(source, digest, fs.createWriteStream(tmp, { highWaterMark: 1024 * 1024, flush: true }));
    } catch (error) {
      offThread?.abort();
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    const others = offThread ? await offThread.digest() : { sha1: sha1!.digest('hex'), md5: md5!.digest('hex') };
    const result = { sha256: sha256.digest('hex'), sha1: others.sha1, md5: others.md5, size };
    const target = this.pathOf(result.sha256);
    return {
      ...result,
      commit: async () => {
        await fsp.mkdir(path.dirname(target), { recursive: true });
        // identical content may already be there: renaming over it is harmless and atomic
        await fsp.rename(tmp, target);
        const dir = await fsp.open(path.dirname(target), 'r');
        try {
          await dir.sync();
        } finally {
          await dir.close();
        }
      },
      discard: () => fsp.rm(tmp, { force: true }),
    };
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      await fsp.access(this.pathOf(sha256));
      return true;
    } catch {
      return false;
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(sha256), { ...range, highWaterMark: 1024 * 1024 });
  }

  async remove(sha256: string): Promise<void> {
    await fsp.rm(this.pathOf(sha256), { force: true });
  }

  async cleanTemporary(): Promise<number> {
    const names = await fsp.readdir(this.tmpDir);
    await Promise.all(names.map((name) => fsp.rm(path.join(this.tmpDir, name), { force: true })));
    return names.length;
  }

  async *list(): AsyncIterable<{ sha256: string; mtimeMs: number }> {
    for (const a of await fsp.readdir(this.root)) {
      if (a === '_tmp' || a.length !== 2) continue;
      for (const b of await fsp.readdir(path.join(this.root, a))) {
        for (const name of await fsp.readdir(path.join(this.root, a, b))) {
          if (!SHA256.test(name)) continue;
          const stat = await fsp.stat(path.join(this.root, a, b, name));
          yield { sha256: name, mtimeMs: stat.mtimeMs };
        }
      }
    }
  }
}
