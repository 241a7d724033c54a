import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Readable } from 'node:stream';
import { StreamDigest, type BinaryDigest, type BinaryStore, type PendingBinary } from '../../storage/binary-store.js';
import { HttpError } from '../../core/errors.js';

/** An upload that does not exist (any more): 404 with the registry's code, which other clients ignore. */
const unknownUpload = (id: string) => new HttpError(404, `Unknown upload '${id}'.`, 'BLOB_UPLOAD_UNKNOWN');

const SESSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Uploads received in parts (the container registry's blob uploads): the bytes received so far in
 * a file of the data directory, out of every repository until the upload completes with its
 * digest (then they are deployed through the door, verified, and the file goes). An upload interrupted midway leaves no blob anyone can see; stale ones are swept.
 * The process that receives the parts digests them as they arrive, so that completing the upload
 * moves the file into the store instead of reading and writing it again; when another process
 * received some part, the file is read once more.
 */
export class UploadSessions {
  private readonly digests = new Map<string, StreamDigest>();

  constructor(private readonly dir: string) {}

  private file(id: string): string {
    if (!SESSION.test(id)) throw unknownUpload(id);
    return path.join(this.dir, id);
  }

  /** Opens an upload for `owner` (who opened it, and for which repository): only they may continue it. */
  async create(owner: string): Promise<string> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const id = randomUUID();
    await fs.promises.writeFile(`${this.file(id)}.owner`, owner);
    await fs.promises.writeFile(this.file(id), '');
    return id;
  }

  /** 404 BLOB_UPLOAD_UNKNOWN unless the upload exists and was opened by `owner`. */
  async verify(id: string, owner: string): Promise<void> {
    const opener = await fs.promises.readFile(`${this.file(id)}.owner`, 'utf8').catch(() => undefined);
    if (opener !== owner) throw unknownUpload(id);
  }

  /** Bytes received so far; 404 BLOB_UPLOAD_UNKNOWN for an unknown session. */
  async size(id: string): Promise<number> {
    try {
      return (await fs.promises.stat(this.file(id))).size;
    } catch {
      throw unknownUpload(id);
    }
  }

  /** Appends a chunk; `start` (from Content-Range) must be where the upload stands. Answers the new size. */
  async append(id: string, body: Readable, start?: number): Promise<number> {
    const size = await this.size(id);
    if (start !== undefined && start !== size)
      throw new HttpError(416, `The part starts at ${start}; the upload has ${size} bytes.`, 'BLOB_UPLOAD_INVALID');
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

  /**
   * The upload's bytes as a content of the store: moved in when this process digested all of
   * them, else written anew from the file.
   */
  async toStore(id: string, store: BinaryStore): Promise<PendingBinary> {
    const size = await this.size(id);
    const digest = this.digests.get(id);
    this.digests.delete(id);
    if (digest && digest.size === size && store.adopt) {
      const result: BinaryDigest = await digest.result();
      return store.adopt(this.file(id), result);
    }
    digest?.abort();
    return store.write(this.open(id), size);
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

  /** Removes sessions untouched for `maxAgeMs`; answers how many. */
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
