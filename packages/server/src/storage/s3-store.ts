import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCopyCommand,
  type StorageClass,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  SMALL_BINARY_BYTES,
  SmallBlobCache,
  StreamDigest,
  isSha256,
  type BinaryDigest,
  type BinaryStore,
  type PendingBinary,
  type StoreFigures,
} from './binary-store.js';
import type { PartUploads } from './part-uploads.js';
import { PARTS_IN_FLIGHT, PART_BYTES, S3PartUploads, statusOf } from './s3-part-uploads.js';
import type { DiskReadCache } from './read-cache.js';
import { rangedRead } from './s3-ranged-read.js';

/** Uploads announced larger than this hash SHA-1 and MD5 on a worker thread. */
const OFF_THREAD_FROM = 4 * 1024 * 1024;
/** Contents announced up to this size are held in memory and put in one request at their address. */
const ONE_REQUEST_BYTES = 1024 * 1024;
/** CopyObject's limit: a larger content is copied in parts. */
const ONE_COPY_BYTES = 5 * 1024 ** 3;
/** The parts of a copy in parts. */
const COPY_PART_BYTES = 1024 ** 3;

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix inside the bucket (`arca/`), so that one bucket can hold several deployments. */
  prefix?: string | undefined;
  region?: string | undefined;
  /** Another service than AWS: MinIO, Ceph RGW, R2, GCS's S3 interface… */
  endpoint?: string | undefined;
  /** Bucket in the path (`https://host/bucket/key`) rather than in the host name; most servers but AWS want it. */
  pathStyle?: boolean | undefined;
  nodeId: string;
  /** A local cache of large contents read often (`ARCA_STORE_CACHE_DIR`). */
  cache?: DiskReadCache | undefined;
  /** Copies larger than this go in parts (tests lower it). */
  oneCopyBytes?: number;
  /** The storage class contents are written in (`STANDARD_IA`, `GLACIER_IR` … for a cold store); the bucket's default when absent. */
  storageClass?: string | undefined;
}

/** A missing content read: the same code a missing file has, for the callers that tell them apart. */
function missing(key: string): Error {
  return Object.assign(new Error(`The stored content ${key} does not exist.`), { code: 'ENOENT' });
}

/**
 * Binaries in an S3-compatible object store, one object per content at `<prefix>sha256/ab/cd/<sha256>`.
 * A deploy streams to a temporary key (`<prefix>_tmp/<node>/…`) while the digests are computed,
 * then commits with a server-side copy to the content address — skipped when the content is
 * there already, which then gets a fresh mark (`<prefix>touched/<sha256>`) so that garbage
 * collection, which removes only contents neither written nor marked since its cut-off, leaves
 * it alone. Small contents (announced ≤ 1 MiB) are held in memory and put at their address in
 * one request instead.
 */
export class S3BinaryStore implements BinaryStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly tmpRoot: string;
  private readonly tmpPrefix: string;
  private readonly small = new SmallBlobCache();
  private readonly cache: DiskReadCache | undefined;
  private readonly oneCopyBytes: number;

  /** Uploads in parts: each part an object, so that any node takes the next one. */
  readonly uploads: PartUploads;

  constructor(private readonly options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/^\/+|\/+$/g, '')}/` : '';
    this.tmpRoot = `${this.prefix}_tmp/`;
    this.tmpPrefix = `${this.tmpRoot}${options.nodeId.replace(/[^A-Za-z0-9._-]/g, '_')}/`;
    this.cache = options.cache;
    this.oneCopyBytes = options.oneCopyBytes ?? ONE_COPY_BYTES;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.pathStyle ?? Boolean(options.endpoint),
      // checksums only where S3 requires them: the S3-compatible servers do not all know the newer ones
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.uploads = new S3PartUploads(this, `${this.prefix}_uploads/`);
  }

  /** The store's S3 calls, for its uploads in parts. */
  get s3(): { client: S3Client; bucket: string } {
    return { client: this.client, bucket: this.bucket };
  }

  /** Where the store is, for messages: `s3://bucket/prefix at https://endpoint`. */
  get location(): string {
    return `s3://${this.bucket}/${this.prefix}${this.options.endpoint ? ` at ${this.options.endpoint}` : ''}`;
  }

  /** Refuses to start on a bucket that is missing, forbidden or unreachable, with a message that says which. */
  async open(): Promise<this> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      const at = this.options.endpoint ? ` at ${this.options.endpoint}` : '';
      if (status === 404)
        throw new Error(
          `The bucket '${this.bucket}' does not exist${at}: create it, or set ARCA_S3_BUCKET to one that does.`,
        );
      if (status === 403 || status === 401)
        throw new Error(
          `The object store${at} refuses Arca the bucket '${this.bucket}' (${status}): check the credentials and the bucket's policy.`,
        );
      throw new Error(
        `The object store${at} could not be reached for the bucket '${this.bucket}': ${error instanceof Error ? error.message || error.name : String(error)}`,
      );
    }
    return this;
  }

  close(): void {
    this.client.destroy();
  }

  contentKey(sha256: string): string {
    if (!isSha256(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return `${this.prefix}sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  private markKey(sha256: string): string {
    return `${this.prefix}touched/${sha256}`;
  }

  private temporaryKey(): string {
    return `${this.tmpPrefix}${Date.now()}-${randomBytes(8).toString('hex')}`;
  }

  async check(): Promise<void> {
    const key = `${this.tmpPrefix}.ready-${process.pid}-${Date.now()}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: 'ready' }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async write(source: Readable, sizeHint?: number): Promise<PendingBinary> {
    const digest = new StreamDigest(sizeHint !== undefined && sizeHint >= OFF_THREAD_FROM);
    if (sizeHint !== undefined && sizeHint <= ONE_REQUEST_BYTES) {
      const chunks: Buffer[] = [];
      try {
        await pipeline(source, digest.transform(), async (passed: AsyncIterable<Buffer>) => {
          for await (const chunk of passed) chunks.push(chunk);
        });
      } catch (error) {
        digest.abort();
        throw error;
      }
      const content = Buffer.concat(chunks);
      return this.pendingInMemory(content, await digest.result());
    }
    const key = this.temporaryKey();
    const body = new PassThrough({ highWaterMark: PART_BYTES });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(source, digest.transform(), body), upload.done()]);
    } catch (error) {
      digest.abort();
      body.destroy();
      await upload.abort().catch(() => undefined);
      await this.deleteKey(key).catch(() => undefined);
      throw error;
    }
    return this.pendingAt(key, await digest.result());
  }

  async writeKnown(content: Buffer, digest: Omit<BinaryDigest, 'size'>): Promise<PendingBinary> {
    return this.pendingInMemory(content, { ...digest, size: content.length });
  }

  /** A content held in memory: committing puts it at its address (which also marks it as just written). */
  private pendingInMemory(content: Buffer, result: BinaryDigest): PendingBinary {
    return {
      ...result,
      commit: async () => {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.contentKey(result.sha256),
            Body: content,
            ContentLength: content.length,
            ...this.storageClass(),
          }),
        );
      },
      discard: () => Promise.resolve(),
    };
  }

  /** A content at a temporary key: committing copies it to its address unless it is there, then deletes the key. */
  private pendingAt(key: string, result: BinaryDigest): PendingBinary {
    return {
      ...result,
      commit: async () => {
        if (await this.exists(result.sha256)) await this.mark(result.sha256);
        else await this.copy(key, this.contentKey(result.sha256), result.size);
        await this.deleteKey(key);
      },
      discard: () => this.deleteKey(key),
    };
  }

  /** The storage class contents are written in, as a request's parameter (none: the bucket's default). */
  private storageClass(): { StorageClass?: StorageClass } {
    return this.options.storageClass ? { StorageClass: this.options.storageClass as StorageClass } : {};
  }

  /**
   * A server-side copy: one request up to 5 GiB, in parts above — or, on a server that does not
   * copy parts, read and written again through this node.
   */
  private async copy(from: string, to: string, size: number): Promise<void> {
    const source = `${this.bucket}/${from}`;
    if (size <= this.oneCopyBytes) {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source, ...this.storageClass() }),
      );
      return;
    }
    try {
      await this.copyInParts(source, to, size);
    } catch (error) {
      if (statusOf(error) !== 501) throw error;
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: from }));
      await new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: to, Body: answer.Body as Readable, ...this.storageClass() },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      }).done();
    }
  }

  private async copyInParts(source: string, to: string, size: number): Promise<void> {
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: to, ...this.storageClass() }),
    );
    try {
      const parts: { ETag: string; PartNumber: number }[] = [];
      const partBytes = Math.max(COPY_PART_BYTES, Math.ceil(size / 10_000));
      for (let start = 0, n = 1; start < size; start += partBytes, n++) {
        const end = Math.min(size, start + partBytes) - 1;
        const part = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.bucket,
            Key: to,
            UploadId,
            PartNumber: n,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ ETag: part.CopyPartResult!.ETag!, PartNumber: n });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: to,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: to, UploadId }))
        .catch(() => undefined);
      throw error;
    }
  }

  async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** When an object was last written, or undefined when there is none. */
  private async lastModified(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      // S3 says it to the second: the write may have been up to a second later
      return (head.LastModified?.getTime() ?? 0) + 999;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  private async mark(sha256: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.markKey(sha256), Body: '', ContentLength: 0 }),
    );
  }

  async exists(sha256: string): Promise<boolean> {
    return (await this.lastModified(this.contentKey(sha256))) !== undefined;
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    const key = this.contentKey(sha256);
    if (this.cache) {
      const cached = this.cache.read(sha256, range);
      if (cached) return cached;
    }
    const source = { client: this.client, bucket: this.bucket, key, missing: () => missing(key) };
    if (range || !this.cache) return rangedRead(source, range);
    // a whole large content read is kept in the local cache as it passes
    const cache = this.cache;
    let large = false;
    const body = rangedRead(source, undefined, (size) => (large = size > SMALL_BINARY_BYTES));
    const out = new PassThrough({ highWaterMark: 1024 * 1024 });
    cache.fill(sha256, body, out, () => large).catch((error: unknown) => out.destroy(error as Error));
    return out;
  }

  async readSmall(sha256: string, size: number): Promise<Buffer> {
    const cached = this.small.get(sha256);
    if (cached) return cached;
    let answer;
    try {
      answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.contentKey(sha256) }));
    } catch (error) {
      throw statusOf(error) === 404 ? missing(this.contentKey(sha256)) : error;
    }
    const blob = Buffer.from(await answer.Body!.transformToByteArray());
    if (size <= SMALL_BINARY_BYTES && blob.length === size) this.small.set(sha256, blob);
    return blob;
  }

  async remove(sha256: string, olderThan?: number): Promise<boolean> {
    const key = this.contentKey(sha256);
    if (olderThan !== undefined) {
      const written = await this.lastModified(key);
      if (written === undefined || written >= olderThan) return false;
      const marked = await this.lastModified(this.markKey(sha256));
      if (marked !== undefined && marked >= olderThan) return false;
    }
    await this.deleteKey(key);
    await this.deleteKey(this.markKey(sha256));
    this.small.delete(sha256);
    await this.cache?.delete(sha256);
    return true;
  }

  async touch(sha256: string): Promise<boolean> {
    if (!(await this.exists(sha256))) return false;
    await this.mark(sha256);
    return true;
  }

  /** Every object under `prefix`, a page at a time. */
  async *objects(prefix: string): AsyncIterable<{ key: string; modifiedMs: number; size: number }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key)
          yield { key: object.Key, modifiedMs: object.LastModified?.getTime() ?? 0, size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async cleanTemporary(olderThan: number): Promise<number> {
    let removed = 0;
    for await (const object of this.objects(this.tmpRoot)) {
      // this node's own keys: nothing is in flight while the node starts
      if (object.key.startsWith(this.tmpPrefix) || object.modifiedMs + 999 < olderThan) {
        await this.deleteKey(object.key);
        removed += 1;
      }
    }
    // the parts of multipart uploads a killed node left (a lifecycle rule is the second safety net)
    try {
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      do {
        const page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.tmpRoot,
            ...(keyMarker ? { KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker } : {}),
          }),
        );
        for (const upload of page.Uploads ?? []) {
          const own = upload.Key?.startsWith(this.tmpPrefix);
          if (own || (upload.Initiated?.getTime() ?? 0) < olderThan) {
            await this.client.send(
              new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }),
            );
            removed += 1;
          }
        }
        keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        uploadIdMarker = page.NextUploadIdMarker;
      } while (keyMarker);
    } catch (error) {
      // a server that does not list multipart uploads: the bucket's lifecycle rule clears them
      if (statusOf(error) !== 501 && statusOf(error) !== 405) throw error;
    }
    return removed;
  }

  async *list(): AsyncIterable<{ sha256: string; modifiedMs: number }> {
    for await (const object of this.objects(`${this.prefix}sha256/`)) {
      const name = object.key.slice(object.key.lastIndexOf('/') + 1);
      if (isSha256(name)) yield { sha256: name, modifiedMs: object.modifiedMs };
    }
  }

  async figures(): Promise<StoreFigures> {
    return { type: 's3', location: this.location };
  }

  async downloadUrl(sha256: string, options: { fileName: string; contentType: string; seconds: number }) {
    const fileName = options.fileName.replace(/["\\\r\n]/g, '_');
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.contentKey(sha256),
        ResponseContentType: options.contentType,
        ResponseContentDisposition: `attachment; filename="${fileName}"`,
      }),
      { expiresIn: options.seconds },
    );
  }
}

/** An S3 store, opened: the bucket checked before the server starts. */
export async function openS3Store(options: S3StoreOptions): Promise<S3BinaryStore> {
  return new S3BinaryStore(options).open();
}
