import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { OffThreadDigest } from './digest-worker.js';

/** The digests and size of a stored content. */
export interface BinaryDigest {
  sha256: string;
  sha1: string;
  md5: string;
  size: number;
}

/** A content written to a temporary file, not yet visible: commit it or discard it. */
export interface PendingBinary extends BinaryDigest {
  /** Moves the content into the store (idempotent for identical content). */
  commit(): Promise<void>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

/**
 * SHA-256, SHA-1 and MD5 of a content that passes through in one or several streams, with SHA-1
 * and MD5 on a worker thread for large contents.
 */
export class StreamDigest {
  private readonly sha256 = createHash('sha256');
  private readonly offThread: OffThreadDigest | undefined;
  private readonly sha1;
  private readonly md5;
  size = 0;

  constructor(large: boolean) {
    this.offThread = large ? new OffThreadDigest() : undefined;
    this.sha1 = large ? undefined : createHash('sha1');
    this.md5 = large ? undefined : createHash('md5');
  }

  /** A pass-through that digests what flows through it. */
  transform(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.sha256.update(chunk);
        this.size += chunk.length;
        if (this.offThread) {
          this.offThread.update(chunk).then(() => callback(null, chunk), callback);
          return;
        }
        this.sha1!.update(chunk);
        this.md5!.update(chunk);
        callback(null, chunk);
      },
    });
  }

  async result(): Promise<BinaryDigest> {
    const others = this.offThread
      ? await this.offThread.digest()
      : { sha1: this.sha1!.digest('hex'), md5: this.md5!.digest('hex') };
    return { sha256: this.sha256.digest('hex'), sha1: others.sha1, md5: others.md5, size: this.size };
  }

  abort(): void {
    this.offThread?.abort();
  }
}
