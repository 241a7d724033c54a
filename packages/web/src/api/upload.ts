import { normalizeErrorMessages } from '@arca/contracts';
import { API_BASE, ApiError } from './client';

/**
 * Sends a file as a call's body with XMLHttpRequest, which reports upload progress (fetch does
 * not): `onProgress` receives 0..1. Resolves with the answer (JSON, or its text) when the status
 * is `ok`; rejects with an ApiError holding the server's messages otherwise.
 */
export function uploadBody<T>(
  call: string,
  file: Blob,
  {
    method = 'PUT',
    query = {},
    contentType = 'application/octet-stream',
    ok = 201,
    onProgress = () => undefined,
    signal,
  }: {
    method?: 'PUT' | 'POST';
    query?: Record<string, string>;
    contentType?: string;
    /** The status that means done. */
    ok?: number;
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal | undefined;
  } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `${API_BASE}${call}?${new URLSearchParams(query).toString()}`);
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: keep the text
      }
      if (xhr.status === ok) {
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
