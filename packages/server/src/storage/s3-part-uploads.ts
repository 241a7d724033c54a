import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, PutObjectCommand, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { PendingBinary } from './binary-store.js';
import { UploadRefusal, newUploadId, uploadId, type PartUploads } from './part-uploads.js';
import type { S3BinaryStore } from './s3-store.js';

/** The parts of a multipart upload (S3 wants at least 5 MiB but the last). */
export const PART_BYTES = 8 * 1024 * 1024;
/** Parts in flight at once per upload (each held in memory until sent). */
export const PARTS_IN_FLIGHT = 2;

/** An S3 error's HTTP status, or undefined for a network failure. */
export const statusOf = (error: unknown) =>
  error instanceof S3ServiceException
    ? error.$metadata.httpStatusCode
    : (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

/** Zero-padded offsets: the parts of an upload list in order. */
const partKey = (root: string, id: string, start: number) => `${root}${id}/part-${String(start).padStart(15, '0')}`;

/**
 * Uploads in parts in the object store: `<prefix>_uploads/<id>/owner` says who opened one, and
 * each part is an object named by the offset it starts at; completing the upload reads the parts
 * in order into one content of the store (digested on the way).
 */
export class S3PartUploads implements PartUploads {
  constructor(
    private readonly store: S3BinaryStore,
    private readonly root: string,
  ) {}

  private async parts(id: string): Promise<{ owner: boolean; parts: { key: string; size: number }[] }> {
    const parts: { key: string; size: number }[] = [];
    let owner = false;
    for await (const object of this.store.objects(`${this.root}${uploadId(id)}/`)) {
      if (object.key.endsWith('/owner')) owner = true;
      else parts.push({ key: object.key, size: object.size });
    }
    return { owner, parts: parts.sort((a, b) => (a.key < b.key ? -1 : 1)) };
  }

  async create(owner: string): Promise<string> {
    const id = newUploadId();
    const { client, bucket } = this.store.s3;
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `${this.root}${id}/owner`, Body: owner }));
    return id;
  }

  async verify(id: string, owner: string): Promise<void> {
    const { client, bucket } = this.store.s3;
    let opener: string | undefined;
    try {
      const answer = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: `${this.root}${uploadId(id)}/owner` }),
      );
      opener = await answer.Body!.transformToString();
    } catch (error) {
      if (error instanceof UploadRefusal || statusOf(error) === 404) opener = undefined;
      else throw error;
    }
    if (opener !== owner) throw new UploadRefusal('unknown', `Unknown upload '${id}'.`);
  }

  async size(id: string): Promise<number> {
    const { owner, parts } = await this.parts(id);
    if (!owner) throw new UploadRefusal('unknown', `Unknown upload '${id}'.`);
    return parts.reduce((sum, part) => sum + part.size, 0);
  }

  async append(id: string, body: Readable, start?: number): Promise<number> {
    const size = await this.size(id);
    if (start !== undefined && start !== size)
      throw new UploadRefusal('offset', `The part starts at ${start}; the upload has ${size} bytes.`);
    let received = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(null, chunk);
      },
    });
    const { client, bucket } = this.store.s3;
    const key = partKey(this.root, id, size);
    const passing = new PassThrough({ highWaterMark: PART_BYTES });
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: passing },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(body, counted, passing), upload.done()]);
    } catch (error) {
      passing.destroy();
      await upload.abort().catch(() => undefined);
      await this.store.deleteKey(key).catch(() => undefined);
      throw error;
    }
    // an empty part is no part
    if (received === 0) await this.store.deleteKey(key);
    return size + received;
  }

  async toStore(id: string): Promise<PendingBinary> {
    const size = await this.size(id);
    return this.store.write(this.open(id), size);
  }

  open(id: string): Readable {
    return Readable.from(this.bytes(id));
  }

  /** The parts' bytes in order, each part read when the one before is done. */
  private async *bytes(id: string): AsyncGenerator<Buffer> {
    const { client, bucket } = this.store.s3;
    for (const part of (await this.parts(id)).parts) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: part.key }));
      yield* answer.Body as AsyncIterable<Buffer>;
    }
  }

  async remove(id: string): Promise<void> {
    for await (const object of this.store.objects(`${this.root}${uploadId(id)}/`))
      await this.store.deleteKey(object.key);
  }

  async sweep(maxAgeMs: number, now = Date.now()): Promise<number> {
    const uploads = new Map<string, { keys: string[]; newest: number }>();
    for await (const object of this.store.objects(this.root)) {
      const id = object.key.slice(this.root.length).split('/')[0]!;
      const upload = uploads.get(id) ?? { keys: [], newest: 0 };
      upload.keys.push(object.key);
      upload.newest = Math.max(upload.newest, object.modifiedMs);
      uploads.set(id, upload);
    }
    let removed = 0;
    for (const upload of uploads.values()) {
      if (upload.newest + 999 + maxAgeMs >= now) continue;
      for (const key of upload.keys) await this.store.deleteKey(key);
      removed += 1;
    }
    return removed;
  }
}
