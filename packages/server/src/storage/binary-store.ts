import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StreamDigest, type BinaryDigest, type PendingBinary } from './digest.js';
import { FilePartUploads, type PartUploads } from './part-uploads.js';

/** Uploads announced larger than this hash SHA-1 and MD5 on a worker thread. */
const OFF_THREAD_FROM = 4 * 1024 * 1024;

export { StreamDigest, type BinaryDigest, type PendingBinary } from './digest.js';

/** What a store says of itself for the storage pages: where it is and, for a disk, its space. */
export interface StoreFigures {
  type: 'file-system' | 's3';
  location: string;
  totalBytes?: number;
  freeBytes?: number;
}

/**
 * Where binaries live, each content once under its SHA-256: a folder of the file system
 * (`FileBinaryStore`) or an S3-compatible object store (`S3BinaryStore`) that several nodes share.
 */
export interface BinaryStore {
  readonly kind: 'file' | 's3';
  /** Uploads received in parts, kept where every node can continue them. */
  readonly uploads: PartUploads;
  /**
   * Streams `source` to a temporary file, computing SHA-256, SHA-1 and MD5 in the same pass.
   * `sizeHint` (the announced length) lets large uploads hash on two threads.
   */
  write(source: Readable, sizeHint?: number): Promise<PendingBinary>;
  /**
   * Takes in a file written elsewhere on the store's file system whose digests the caller computed
   * while writing it (an upload received in parts): synced, then moved in on commit, never copied.
   * Only a store on the file system can.
   */
  adopt?(file: string, digest: BinaryDigest): Promise<PendingBinary>;
  /**
   * The file that holds a content, for a store on this machine's file system: bulk copies (a
   * backup) read it directly rather than through a stream each. Only a store on the file system has it.
   */
  pathOf?(sha256: string): string;
  /**
   * Writes content held in memory whose digests the caller computed from these very bytes (a
   * package a format checked before storing it), so that it is not hashed a second time.
   */
  writeKnown(content: Buffer, digest: Omit<BinaryDigest, 'size'>): Promise<PendingBinary>;
  exists(sha256: string): Promise<boolean>;
  /** Throws unless the store can be written now (readiness probes): a small file written and removed. */
  check(): Promise<void>;
  /** Reads a stored content, optionally a byte range (inclusive end). */
  read(sha256: string, range?: { start: number; end: number }): Readable;
  /**
   * The whole content of a small file (`size` ≤ SMALL_BINARY_BYTES) as one buffer, from a cache of
   * hot small contents when it is there: content is addressed by its checksum, so a cached copy
   * is never stale.
   */
  readSmall(sha256: string, size: number): Promise<Buffer>;
  /**
   * Removes a stored content, but only when it was last written or touched before `olderThan`
   * (epoch ms): a deploy of the same bytes that has just put it back in place keeps it.
   * Answers whether it was removed.
   */
  remove(sha256: string, olderThan?: number): Promise<boolean>;
  /** Marks a content as just used (a deploy by checksum); false when it is not stored. */
  touch(sha256: string): Promise<boolean>;
  /**
   * Removes temporary files left by interrupted uploads: all of this node's, and other nodes'
   * not written to since `olderThan` (epoch ms), so that their uploads in flight go on.
   */
  cleanTemporary(olderThan: number): Promise<number>;
  /** Every stored SHA-256 with when it was last written. */
  list(): AsyncIterable<{ sha256: string; modifiedMs: number }>;
  /** Where the store is and how much room it has. */
  figures(): Promise<StoreFigures>;
  /**
   * A short-lived address from which a client downloads a content straight from the store,
   * where the store has such addresses (an object store's presigned URLs).
   */
  downloadUrl?(sha256: string, options: { fileName: string; contentType: string; seconds: number }): Promise<string>;
  /** Lets go of connections; the store is not used afterwards. */
  close?(): void;
}

const SHA256 = /^[0-9a-f]{64}$/;
export const isSha256 = (value: string) => SHA256.test(value);

/** Files up to this size are answered from one read into a buffer (and cached) instead of a stream. */
export const SMALL_BINARY_BYTES = 64 * 1024;
/** Most bytes the cache of hot small contents holds per process. */
const SMALL_CACHE_BYTES = 64 * 1024 * 1024;

/** Least recently used small contents, by SHA-256 (a Map keeps insertion order). */
export class SmallBlobCache {
  private readonly blobs = new Map<string, Buffer>();
  private bytes = 0;

  get(sha256: string): Buffer | undefined {
    const blob = this.blobs.get(sha256);
    if (blob) {
      this.blobs.delete(sha256);
      this.blobs.set(sha256, blob);
    }
    return blob;
  }

  set(sha256: string, blob: Buffer): void {
    if (this.blobs.has(sha256)) return;
    this.blobs.set(sha256, blob);
    this.bytes += blob.length;
    for (const [key, old] of this.blobs) {
      if (this.bytes <= SMALL_CACHE_BYTES) break;
      this.blobs.delete(key);
      this.bytes -= old.length;
    }
  }

  delete(sha256: string): void {
    const blob = this.blobs.get(sha256);
    if (!blob) return;
    this.blobs.delete(sha256);
    this.bytes -= blob.length;
  }
}

/**
 * `<root>/ab/cd/<sha256>`, with temporary files under `<root>/_tmp/<node>`: each node of a
 * cluster sharing the store writes its uploads in its own folder, so that a node starting up
 * clears what its own previous run left without touching uploads other nodes are receiving.
 */
export class FileBinaryStore implements BinaryStore {
  readonly kind = 'file';
  readonly uploads: PartUploads;
  private readonly tmpRoot: string;
  private readonly tmpDir: string;

  constructor(
    private readonly root: string,
    nodeId = 'local',
  ) {
    this.tmpRoot = path.join(root, '_tmp');
    this.tmpDir = path.join(this.tmpRoot, nodeId.replace(/[^A-Za-z0-9._-]/g, '_'));
    // beside the contents, on the same file system: a completed upload is moved in, not copied
    this.uploads = new FilePartUploads(path.join(root, '_uploads'), this);
  }

  async check(): Promise<void> {
    const probe = path.join(this.tmpDir, `.ready-${process.pid}-${Date.now()}`);
    await fs.promises.mkdir(this.tmpDir, { recursive: true });
    await fs.promises.writeFile(probe, 'ready');
    await fs.promises.rm(probe, { force: true });
  }

  private made: Promise<unknown> | undefined;

  /** A temporary file's name in this node's folder, made when first needed (opening a store writes nothing). */
  private async temporaryFile(): Promise<string> {
    this.made ??= fsp.mkdir(this.tmpDir, { recursive: true });
    await this.made;
    return path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async write(source: Readable, sizeHint?: number): Promise<PendingBinary> {
    const tmp = await this.temporaryFile();
    const digest = new StreamDigest(sizeHint !== undefined && sizeHint >= OFF_THREAD_FROM);
    try {
      // flush: the data is fsynced before the stream closes
      await pipeline(
        source,
        digest.transform(),
        fs.createWriteStream(tmp, { highWaterMark: 1024 * 1024, flush: true }),
      );
    } catch (error) {
      digest.abort();
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    return this.pending(tmp, await digest.result());
  }

  async writeKnown(content: Buffer, digest: Omit<BinaryDigest, 'size'>): Promise<PendingBinary> {
    const tmp = await this.temporaryFile();
    const handle = await fsp.open(tmp, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    return this.pending(tmp, { ...digest, size: content.length });
  }

  async adopt(file: string, digest: BinaryDigest): Promise<PendingBinary> {
    this.made ??= fsp.mkdir(this.tmpDir, { recursive: true });
    await this.made;
    if ((await fsp.stat(file)).dev !== (await fsp.stat(this.tmpDir)).dev) {
      // another file system (the store mounted apart): copied, since it cannot be moved
      const tmp = await this.temporaryFile();
      await fsp.copyFile(file, tmp);
      await fsp.rm(file, { force: true });
      file = tmp;
    }
    const handle = await fsp.open(file, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return this.pending(file, digest);
  }

  private pending(tmp: string, result: BinaryDigest): PendingBinary {
    const target = this.pathOf(result.sha256);
    return {
      ...result,
      commit: async () => {
        // the content stored already (a redeploy, a file many paths share): touched, so that
        // garbage collection counts it as just written, and the copy dropped — no rename, no
        // folder flush. A stored copy of another size (damaged) is replaced.
        const stored = await fsp.stat(target).catch(() => undefined);
        if (stored?.size === result.size && (await this.touch(result.sha256))) {
          await fsp.rm(tmp, { force: true });
          return;
        }
        await fsp.mkdir(path.dirname(target), { recursive: true });
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

  private readonly small = new SmallBlobCache();

  async readSmall(sha256: string, size: number): Promise<Buffer> {
    const cached = this.small.get(sha256);
    if (cached) return cached;
    const blob = await fsp.readFile(this.pathOf(sha256));
    if (size <= SMALL_BINARY_BYTES && blob.length === size) this.small.set(sha256, blob);
    return blob;
  }

  async remove(sha256: string, olderThan?: number): Promise<boolean> {
    const file = this.pathOf(sha256);
    if (olderThan !== undefined) {
      const stat = await fsp.stat(file).catch(() => undefined);
      if (!stat) return false;
      if (stat.mtimeMs >= olderThan) return false;
    }
    await fsp.rm(file, { force: true });
    this.small.delete(sha256);
    return true;
  }

  async touch(sha256: string): Promise<boolean> {
    const now = new Date();
    try {
      await fsp.utimes(this.pathOf(sha256), now, now);
      return true;
    } catch {
      return false;
    }
  }

  async cleanTemporary(olderThan: number): Promise<number> {
    let removed = 0;
    const entries = await fsp.readdir(this.tmpRoot, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(this.tmpRoot, entry.name);
      if (entry.isDirectory()) {
        // this node's own folder: nothing in it is in flight while the node starts
        const own = full === this.tmpDir;
        for (const name of await fsp.readdir(full))
          removed += (await this.removeIdle(path.join(full, name), own ? Infinity : olderThan)) ? 1 : 0;
      } else {
        removed += (await this.removeIdle(full, olderThan)) ? 1 : 0;
      }
    }
    return removed;
  }

  private async removeIdle(file: string, olderThan: number): Promise<boolean> {
    const stat = await fsp.stat(file).catch(() => undefined);
    if (!stat || stat.mtimeMs >= olderThan) return false;
    await fsp.rm(file, { force: true });
    return true;
  }

  async figures(): Promise<StoreFigures> {
    const disk = await fsp.statfs(this.root).catch(() => undefined);
    return {
      type: 'file-system',
      location: this.root,
      ...(disk ? { totalBytes: disk.blocks * disk.bsize, freeBytes: disk.bavail * disk.bsize } : {}),
    };
  }

  async *list(): AsyncIterable<{ sha256: string; modifiedMs: number }> {
    for (const a of await fsp.readdir(this.root)) {
      if (a === '_tmp' || a.length !== 2) continue;
      for (const b of await fsp.readdir(path.join(this.root, a))) {
        for (const name of await fsp.readdir(path.join(this.root, a, b))) {
          if (!SHA256.test(name)) continue;
          const stat = await fsp.stat(path.join(this.root, a, b, name));
          yield { sha256: name, modifiedMs: stat.mtimeMs };
        }
      }
    }
  }
}
