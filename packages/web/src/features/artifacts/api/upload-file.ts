import { normalizeErrorMessages, type ItemCreated } from '@arca/contracts';
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
): Promise<ItemCreated> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ repoKey, path });
    xhr.open('PUT', `${API_BASE}ui/artifact/upload?${query.toString()}`);
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
        resolve(body as ItemCreated);
      } else reject(new ApiError(xhr.status, normalizeErrorMessages({ body, message: xhr.statusText }), body));
    };
    xhr.onerror = () => reject(new ApiError(undefined, normalizeErrorMessages({ noResponse: true }), undefined));
    xhr.onabort = () => reject(new ApiError(undefined, ['The upload was cancelled.'], undefined));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
