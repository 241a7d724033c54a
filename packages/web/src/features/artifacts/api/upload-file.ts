import { normalizeErrorMessages, type BundleDeployed, type ItemCreated } from '@arca/contracts';
import { API_BASE, ApiError } from '../../../api/client';

/**
 * Uploads one file with XMLHttpRequest, which reports upload progress (fetch does not).
 * `onProgress` receives 0..1. Rejects with an ApiError holding the server's messages.
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
  return send<ItemCreated>('ui/artifact/upload', { repoKey, path, properties }, file, onProgress, signal);
}

/** Uploads an archive whose files the server deploys under `path` (a bundle). */
export function uploadBundle(
  query: { repoKey: string; path: string; name: string; properties: string },
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<BundleDeployed> {
  return send<BundleDeployed>('ui/artifact/upload/bundle', query, file, onProgress, signal);
}

function send<T>(
  call: string,
  query: Record<string, string>,
  file: Blob,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `${API_BASE}${call}?${new URLSearchParams(query).toString()}`);
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: keep the text
      }
      if (xhr.status === 201) {
        onProgress(1);
        resolve(body as T);
      } else reject(new ApiError(xhr.status, normalizeErrorMessages({ body, message: xhr.statusText }), body));
    };
    xhr.onerror = () => reject(new ApiError(undefined, normalizeErrorMessages({ noResponse: true }), undefined));
    xhr.onabort = () => reject(new ApiError(undefined, ['The upload was cancelled.'], undefined));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
