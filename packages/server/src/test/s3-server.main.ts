/**
 * The S3-API test server's process: s3rver on a folder, with one bucket, listening on the given
 * address and port (`s3-server.main.ts <directory> <address> <port> <bucket>`).
 *
 * s3rver removes a folder left empty by a delete while a put into that folder, its folder just
 * made, is about to open its file: the put's file stream fails with nobody listening and the
 * server dies. Real object stores have no folders, so this one keeps its empty ones: a delete
 * only removes the object's files.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';

interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
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
