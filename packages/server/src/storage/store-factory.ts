import path from 'node:path';
import type { ColdStoreConfig, StoreConfig } from '../config.js';
import { FileBinaryStore, type BinaryStore } from './binary-store.js';
import { DiskReadCache } from './read-cache.js';
import { openS3Store } from './s3-store.js';

/**
 * The binary store the configuration names, ready to use: the file system under the data
 * directory, or an S3-compatible object store whose bucket answered.
 */
export async function openBinaryStore(
  config: { store: StoreConfig; dataDir: string },
  nodeId: string,
): Promise<BinaryStore> {
  const { store } = config;
  if (store.type === 'file') return new FileBinaryStore(path.join(config.dataDir, 'filestore'), nodeId);
  return openS3Store({
    bucket: store.bucket,
    prefix: store.prefix,
    region: store.region,
    endpoint: store.endpoint,
    pathStyle: store.pathStyle,
    nodeId,
    cache: store.cacheDir ? DiskReadCache.open(store.cacheDir, store.cacheBytes) : undefined,
  });
}

/** The cold store archived artifacts are kept in: a folder, or an S3 bucket/prefix. */
export async function openColdStore(config: { coldStore: ColdStoreConfig }, nodeId: string): Promise<BinaryStore> {
  const { coldStore } = config;
  if (coldStore.type === 'file') return new FileBinaryStore(coldStore.dir, nodeId);
  return openS3Store({
    bucket: coldStore.bucket,
    prefix: coldStore.prefix,
    region: coldStore.region,
    endpoint: coldStore.endpoint,
    pathStyle: coldStore.pathStyle,
    nodeId,
    storageClass: coldStore.storageClass,
  });
}
