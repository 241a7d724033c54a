import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StreamDigest, type BinaryDigest, type PendingBinary } from './digest.js';

/** Why an upload in parts refused a call: it is not there (any more), or a part starts elsewhere. */
export class UploadRefusal extends Error {
  constructor(
    readonly reason: 'unknown' | 'offset',
    message: string,
  ) {
    super(message);
  }
}

const SESSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Refuses an id that is not one this store hands out. */
export function uploadId(id: string): string {
  if (!SESSION.test(id)) throw new UploadRefusal('unknown', `Unknown upload '${id}'.`);
  return id;
}

export const newUploadId = () => randomUUID();

/**
 * Uploads received in parts (the container registry's blob uploads, a form's file parts), kept by
 * the binary store so that whichever node receives the next part — or the last one — continues
 * the upload. Nothing of one is visible in any repository until it is deployed through the door.
 */
export interface PartUploads {
  /** Opens an upload for `owner` (who opened it, and for which repository): only they may continue it. */
  create(owner: string): Promise<string>;
  /** Refuses (`unknown`) unless the upload exists and was opened by `owner`. */
  verify(id: string, owner: string): Promise<void>;
  /** Bytes received so far. */
  size(id: string): Promise<number>;
  /** Appends a part; `start` (a Content-Range's) must be where the upload stands. Answers the new size. */
  append(id: string, body: Readable, start?: number): Promise<number>;
  /** The upload's bytes as a content of the store, to commit or discard. */
  toStore(id: string): Promise<PendingBinary>;
  /** The upload's bytes as they are now. */
  open(id: string): Readable;
  remove(id: string): Promise<void>;
  /** Removes uploads untouched for `maxAgeMs`; answers how many. */
  sweep(maxAgeMs: number, now?: number): Promise<number>;
}

/**
 * Uploads in parts on the file system: the bytes received so far in one file, appended to. The
 * process that receives the parts digests them as they arrive, so that completing the upload
 * moves the file into the store instead of reading and writing it again; when another process
 * received some part, the file is read once more.
 */
export class FilePartUploads implements PartUploads {
  private readonly digests = new Map<string, StreamDigest>();

  constructor(
    private readonly dir: string,
    private readonly store: {
      adopt(file: string, digest: BinaryDigest): Promise<PendingBinary>;
      write(source: Readable, sizeHint?: number): Promise<PendingBinary>;
    },
  ) {}

  private file(id: string): string {
    return path.join(this.dir, uploadId(id));
  }

  async create(owner: string): Promise<string> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const id = newUploadId();
    await fs.promises.writeFile(`${this.file(id)}.owner`, owner);
    await fs.promises.writeFile(this.file(id), '');
    return id;
  }

  async verify(id: string, owner: string): Promise<void> {
    const opener = await fs.promises.readFile(`${this.file(id)}.owner`, 'utf8').catch(() => undefined);
    if (opener !== owner) throw new UploadRefusal('unknown', `Unknown upload '${id}'.`);
  }

  async size(id: string): Promise<number> {
    try {
      return (await fs.promises.stat(this.file(id))).size;
    } catch {
      throw new UploadRefusal('unknown', `Unknown upload '${id}'.`);
    }
  }

  async append(id: string, body: Readable, start?: number): Promise<number> {
    const size = await this.size(id);
    if (start !== undefined && start !== size)
      throw new UploadRefusal('offset', `The part starts at ${start}; the upload has ${size} bytes.`);
    let digest = this.digests.get(id);
    if (digest && digest.size !== size) digest = undefined;
    if (!digest && size === 0) digest = new StreamDigest(true);
    this.digests.delete(id);
    try {
      await pipeline(
        body,
        digest ? digest.transform() : new PassThrough(),
        fs.createWriteStream(this.file(id), { flags: 'a', highWaterMark: 1024 * 1024 }),
      );
    } catch (error) {
      digest?.abort();
      throw error;
    }
    const written = await this.size(id);
    if (digest && digest.size === written) this.digests.set(id, digest);
    else digest?.abort();
    return written;
  }

  async toStore(id: string): Promise<PendingBinary> {
    const size = await this.size(id);
    const digest = this.digests.get(id);
    this.digests.delete(id);
    if (digest && digest.size === size) return this.store.adopt(this.file(id), await digest.result());
    digest?.abort();
    return this.store.write(this.open(id), size);
  }

  open(id: string): Readable {
    return fs.createReadStream(this.file(id));
  }

  async remove(id: string): Promise<void> {
    this.digests.get(id)?.abort();
    this.digests.delete(id);
    await fs.promises.rm(this.file(id), { force: true });
    await fs.promises.rm(`${this.file(id)}.owner`, { force: true });
  }

  async sweep(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.promises.readdir(this.dir).catch(() => [] as string[])) {
      const file = path.join(this.dir, name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs + maxAgeMs < now) {
        if (name.endsWith('.owner')) {
          // an owner file goes with its upload (or alone, when the upload is gone already)
          if (!fs.existsSync(file.slice(0, -'.owner'.length))) await fs.promises.rm(file, { force: true });
          continue;
        }
        await this.remove(name).catch(() => fs.promises.rm(file, { force: true }));
        removed += 1;
      }
    }
    return removed;
  }
}
