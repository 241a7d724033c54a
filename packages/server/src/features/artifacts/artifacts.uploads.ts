import type { Readable } from 'node:stream';
import { HttpError } from '../../core/errors.js';
import type { PendingBinary } from '../../storage/binary-store.js';
import { UploadRefusal, type PartUploads } from '../../storage/part-uploads.js';

/** An upload that does not exist (any more): 404 with the registry's code, which other clients ignore. */
const unknownUpload = (id: string) => new HttpError(404, `Unknown upload '${id}'.`, 'BLOB_UPLOAD_UNKNOWN');

/** The store's refusals as the HTTP answers the registry protocol names. */
async function answering<T>(id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof UploadRefusal)) throw error;
    throw error.reason === 'unknown' ? unknownUpload(id) : new HttpError(416, error.message, 'BLOB_UPLOAD_INVALID');
  }
}

/**
 * Uploads received in parts (the container registry's blob uploads, a form's file parts), as the
 * door uses them: kept by the binary store — so that any node continues one — out of every
 * repository until the upload completes with its digest (then its bytes are deployed through the
 * door, verified, and the upload goes). An upload interrupted midway leaves no blob anyone can
 * see; stale ones are swept.
 */
export class UploadSessions {
  constructor(private readonly parts: PartUploads) {}

  create(owner: string): Promise<string> {
    return this.parts.create(owner);
  }

  /** 404 BLOB_UPLOAD_UNKNOWN unless the upload exists and was opened by `owner`. */
  verify(id: string, owner: string): Promise<void> {
    return answering(id, () => this.parts.verify(id, owner));
  }

  /** Bytes received so far; 404 BLOB_UPLOAD_UNKNOWN for an unknown upload. */
  size(id: string): Promise<number> {
    return answering(id, () => this.parts.size(id));
  }

  /** Appends a part; 416 BLOB_UPLOAD_INVALID when `start` is not where the upload stands. */
  append(id: string, body: Readable, start?: number): Promise<number> {
    return answering(id, () => this.parts.append(id, body, start));
  }

  /** The upload's bytes as a content of the store. */
  toStore(id: string): Promise<PendingBinary> {
    return answering(id, () => this.parts.toStore(id));
  }

  remove(id: string): Promise<void> {
    return answering(id, () => this.parts.remove(id));
  }

  sweep(maxAgeMs: number, now?: number): Promise<number> {
    return this.parts.sweep(maxAgeMs, now);
  }
}
