/**
 * The S3-API test server's process: s3rver on a folder, with one bucket, listening on the given
 * address and port (`s3-server.main.ts <directory> <address> <port> <bucket>`).
 *
 * s3rver removes a folder left empty by a delete while a put into that folder, its folder just
 * made, is about to open its file: the put's file stream fails with nobody listening and the
 * server dies. Real object stores have no folders, so this one keeps its empty ones: a delete
 * only removes the object's files.
 *
 * s3rver also answers a put once its bytes have passed to the file's stream, not once they are in
 * the file: a read, a copy or a change of the file's time that follows the answer can meet the file
 * half written, or see the write land after it. S3 reads what it has answered for, so here a put is
 * answered once its file is closed.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
}
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: unknown;
}
interface S3rverServer {
  run(): Promise<unknown>;
}

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverServer;
const store = require('s3rver/lib/stores/filesystem.js') as { prototype: FilesystemStore & Record<string, unknown> };

store.prototype.deleteObject = async function (this: FilesystemStore, bucket: string, key: string) {
  await Promise.all(
    ['object', 'object.md5', 'metadata.json'].map((resource) =>
      fs.unlink(this.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    ),
  );
};

/** Writes a body to a file, answering its size and MD5 once the file is closed. */
async function written(content: Buffer | Readable, file: string): Promise<{ size: number; md5: string }> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, counted, createWriteStream(file));
  return { size, md5: md5.digest('hex') };
}

store.prototype.putObject = async function (this: FilesystemStore, object: StoredObject) {
  const result = await written(object.content, this.getResourcePath(object.bucket, object.key, 'object'));
  await this.putMetadata(object.bucket, object.key, object.metadata, result.md5);
  return result;
};

store.prototype.putPart = async function (
  this: FilesystemStore,
  bucket: string,
  uploadId: string,
  partNumber: number,
  content: Readable,
) {
  const file = path.join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
  const result = await written(content, file);
  await fs.writeFile(`${file}.md5`, result.md5);
  return result;
};

const [directory, address, port, bucket] = process.argv.slice(2);
await fs.mkdir(directory!, { recursive: true });
await new S3rver({
  directory,
  address,
  port: Number(port),
  silent: true,
  vhostBuckets: false,
  configureBuckets: [{ name: bucket, configs: [] }],
}).run();
