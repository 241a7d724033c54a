import { Worker } from 'node:worker_threads';

/**
 * SHA-1 and MD5 computed on a worker thread, beside the SHA-256 the upload thread computes, so
 * that a large deploy hashes on two cores. Chunks are copied to the worker; every 8 MiB the upload
 * waits until the worker is no more than 32 MiB behind.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const jobs = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'start') jobs.set(m.id, [createHash('sha1'), createHash('md5')]);
  else if (m.type === 'data') { const h = jobs.get(m.id); if (h) { h[0].update(m.chunk); h[1].update(m.chunk); } }
  else if (m.type === 'sync') parentPort.postMessage({ id: m.id, sync: m.sync });
  else if (m.type === 'end') { const h = jobs.get(m.id); jobs.delete(m.id); parentPort.postMessage({ id: m.id, sha1: h[0].digest('hex'), md5: h[1].digest('hex') }); }
  else if (m.type === 'abort') jobs.delete(m.id);
});
`;

const SYNC_EVERY = 8 * 1024 * 1024;
const BATCH_BYTES = 1024 * 1024;
const MAX_BEHIND = 4;

type Reply = { id: number; sync?: number; sha1?: string; md5?: string };

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<string, (reply: Reply) => void>();

function getWorker(): Worker {
  if (!worker) {
    worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const key = `${reply.id}:${reply.sync ?? 'end'}`;
      waiting.get(key)?.(reply);
      waiting.delete(key);
    });
    worker.on('error', () => {
      worker = undefined;
    });
  }
  return worker;
}

function expect(id: number, sync: number | 'end'): Promise<Reply> {
  return new Promise((resolve) => waiting.set(`${id}:${sync}`, resolve));
}

/** One upload's SHA-1 and MD5 on the worker thread. */
export class OffThreadDigest {
  private readonly id = nextId++;
  private readonly worker = getWorker();
  private sinceSync = 0;
  private syncs = 0;
  private readonly pending: Promise<Reply>[] = [];

  constructor() {
    this.worker.postMessage({ type: 'start', id: this.id });
  }

  private batch: Buffer[] = [];
  private batched = 0;

  /** Sends what is batched, as one message whose memory moves to the worker rather than being copied. */
  private flush(): void {
    if (!this.batched) return;
    const chunk = Buffer.concat(this.batch, this.batched);
    this.batch = [];
    this.batched = 0;
    const owned = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    this.worker.postMessage({ type: 'data', id: this.id, chunk }, owned ? [chunk.buffer as ArrayBuffer] : []);
  }

  /**
   * Takes a chunk (a stream's, never reused by its producer), sent to the worker in batches of
   * 1 MiB; resolves when the worker is close enough behind to take more.
   */
  async update(chunk: Buffer): Promise<void> {
    this.batch.push(chunk);
    this.batched += chunk.length;
    if (this.batched >= BATCH_BYTES) this.flush();
    this.sinceSync += chunk.length;
    if (this.sinceSync < SYNC_EVERY) return;
    this.sinceSync = 0;
    const sync = ++this.syncs;
    this.pending.push(expect(this.id, sync));
    this.worker.postMessage({ type: 'sync', id: this.id, sync });
    if (this.pending.length > MAX_BEHIND) await this.pending.shift();
  }

  async digest(): Promise<{ sha1: string; md5: string }> {
    this.flush();
    const done = expect(this.id, 'end');
    this.worker.postMessage({ type: 'end', id: this.id });
    const reply = await done;
    this.pending.length = 0;
    return { sha1: reply.sha1!, md5: reply.md5! };
  }

  abort(): void {
    this.worker.postMessage({ type: 'abort', id: this.id });
    for (let sync = 1; sync <= this.syncs; sync++) waiting.delete(`${this.id}:${sync}`);
  }
}
