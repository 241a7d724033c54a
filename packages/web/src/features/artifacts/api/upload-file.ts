import type { BundleDeployed, ItemCreated } from '@arca/contracts';
import { uploadBody } from '../../../api/upload';

/**
 * Uploads one file, reporting its progress: `onProgress` receives 0..1. Rejects with an
 * ApiError holding the server's messages.
 */
export function uploadFile(
  repoKey: string,
  path: string,
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
  /** Properties to set, as matrix parameters (`key=a,b;other=c`). */
  properties = '',
): Promise<ItemCreated> {
  return uploadBody<ItemCreated>('ui/artifact/upload', file, {
    query: { repoKey, path, properties },
    onProgress,
    signal,
  });
}

/** Uploads an archive whose files the server deploys under `path` (a bundle). */
export function uploadBundle(
  query: { repoKey: string; path: string; name: string; properties: string },
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<BundleDeployed> {
  return uploadBody<BundleDeployed>('ui/artifact/upload/bundle', file, { query, onProgress, signal });
}
