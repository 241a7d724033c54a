import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSha256 } from './binary-store.js';

/**
 * Large contents read from an object store, kept on this node's disk (`ARCA_STORE_CACHE_DIR`) up
 * to a number of bytes, the least recently read going first. A content never changes under its
 * SHA-256, so a cached copy is never stale; a copy is only used once it was written whole.
 */
export class DiskReadCache {
  /** Cached contents by SHA-256 and size; a Map keeps the order of last use. */
  private readonly entries = new Map<string, number>();
  private bytes = 0;

  private constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Opens the cache folder, taking in what an earlier run left (least recently read first). */
  static open(dir: string, maxBytes: number): DiskReadCache {
    const cache = new DiskReadCache(dir, maxBytes);
    fs.mkdirSync(dir, { recursive: true });
    const found = fs
      .readdirSync(dir)
      .flatMap((name) => {
        const file = path.join(dir, name);
        if (!isSha256(name)) {
          fs.rmSync(file, { force: true }); // a copy cut short
          return [];
        }
        const stat = fs.statSync(file);
        return [{ name, size: stat.size, used: stat.atimeMs }];
      })
      .sort((a, b) => a.used - b.used);
    for (const entry of found) for (const file of cache.add(entry.name, entry.size)) fs.rmSync(file, { force: true });
    return cache;
  }

  /** Whether a content is kept here (whole). */
  has(sha256: string): boolean {
    return this.entries.has(sha256);
  }

  get usedBytes(): number {
    return this.bytes;
  }

  /** Counts a content in; answers the files of those that went out to make room. */
  private add(sha256: string, size: number): string[] {
    this.entries.set(sha256, size);
    this.bytes += size;
    const out: string[] = [];
    for (const [old, oldSize] of this.entries) {
      if (this.bytes <= this.maxBytes || old === sha256) break;
      this.entries.delete(old);
      this.bytes -= oldSize;
      out.push(path.join(this.dir, old));
    }
    return out;
  }

  /**
   * The cached content (or a range of it) when it is here, else undefined. The processes of a node
   * share the folder: a copy another one wrote is taken in, one another removed is forgotten.
   */
  read(sha256: string, range?: { start: number; end: number }): Readable | undefined {
    const file = path.join(this.dir, sha256);
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      const size = this.entries.get(sha256);
      if (size !== undefined) {
        this.entries.delete(sha256);
        this.bytes -= size;
      }
      return undefined;
    }
    const size = this.entries.get(sha256);
    if (size === undefined) {
      for (const old of this.add(sha256, fs.fstatSync(fd).size)) fs.rmSync(old, { force: true });
    } else {
      this.entries.delete(sha256);
      this.entries.set(sha256, size);
    }
    return fs.createReadStream(file, { fd, ...range, highWaterMark: 1024 * 1024 });
  }

  /**
   * Passes `source` on to `out` and keeps a copy as it goes; the copy counts once it is whole (and
   * when `keep` says so at the end), and is dropped when the reader goes away first.
   */
  async fill(sha256: string, source: Readable, out: Writable, keep: () => boolean = () => true): Promise<void> {
    const partial = path.join(this.dir, `.${sha256}.${randomBytes(4).toString('hex')}`);
    const copy = fs.createWriteStream(partial);
    let size = 0;
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (copy.write(chunk)) callback(null, chunk);
        else copy.once('drain', () => callback(null, chunk));
      },
    });
    try {
      await pipeline(source, tee, out);
      await new Promise<void>((resolve, reject) =>
        copy.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      if (!keep()) {
        await fs.promises.rm(partial, { force: true });
        return;
      }
      await fs.promises.rename(partial, path.join(this.dir, sha256));
      if (!this.entries.has(sha256)) {
        for (const file of this.add(sha256, size)) await fs.promises.rm(file, { force: true });
      }
    } catch (error) {
      copy.destroy();
      await fs.promises.rm(partial, { force: true });
      throw error;
    }
  }

  async delete(sha256: string): Promise<void> {
    const size = this.entries.get(sha256);
    if (size === undefined) return;
    this.entries.delete(sha256);
    this.bytes -= size;
    await fs.promises.rm(path.join(this.dir, sha256), { force: true });
  }
}
