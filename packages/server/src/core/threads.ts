import { Worker, parentPort, workerData } from 'node:worker_threads';

/**
 * Work that would hold the event loop (merging large indexes, posting runs of webhooks) runs on
 * threads of its own. A thread runs one module of the server: the compiled module, or — when the
 * server runs from its TypeScript sources (the tests) — the source module, through the same
 * TypeScript loader.
 */
export function startModuleThread(importMetaUrl: string, module: string, name: string): Worker {
  const fromSource = importMetaUrl.endsWith('.ts');
  const entry = new URL(`./${module}.${fromSource ? 'ts' : 'js'}`, importMetaUrl);
  const options = { workerData: { arcaThread: name }, name };
  if (!fromSource) return new Worker(entry, options);
  return new Worker(
    `import('tsx/esm/api').then((tsx) => tsx.register()).then(() => import(${JSON.stringify(entry.href)}));`,
    { ...options, eval: true },
  );
}

interface Call<Request> {
  id: number;
  request: Request;
}
type Reply<Result> = { id: number; result: Result } | { id: number; error: string };

/**
 * In a thread's module: answers the calls of `ThreadCalls` with `handle`, when this module runs
 * as the thread named `name` (a module imported anywhere else does nothing).
 */
export function serveThreadCalls<Request, Result>(
  name: string,
  handle: (request: Request) => Promise<{ result: Result; transfer?: ArrayBuffer[] }>,
  /** A word the server sends without waiting for an answer (`ThreadCalls.signal`). */
  onSignal?: (signal: string) => void,
): void {
  const port = parentPort;
  if (!port || (workerData as { arcaThread?: string } | null)?.arcaThread !== name) return;
  port.on('message', (message: Call<Request> | string) => {
    if (typeof message === 'string') return onSignal?.(message);
    const { id, request } = message;
    handle(request).then(
      ({ result, transfer }) => port.postMessage({ id, result } satisfies Reply<Result>, transfer ?? []),
      (error: unknown) =>
        port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply<Result>),
    );
  });
}

/**
 * Calls to a module on a thread of its own, one message each way. The thread starts at the first
 * call and is kept (it does not keep the process alive); a thread that dies fails the calls it
 * held, and the next call starts another.
 */
export class ThreadCalls<Request, Result> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Result) => void; reject: (error: Error) => void }>();

  constructor(
    private readonly importMetaUrl: string,
    private readonly module: string,
    private readonly name: string,
  ) {}

  /** Starts the thread ahead of the first call, so that the first calls do not wait for it. */
  start(): void {
    this.started();
  }

  /** Whether the thread is up. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Tells the thread something without waiting for an answer (a running thread only). */
  signal(signal: string): void {
    this.worker?.postMessage(signal);
  }

  call(request: Request, transfer: ArrayBuffer[] = []): Promise<Result> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request } satisfies Call<Request>, transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startModuleThread(this.importMetaUrl, this.module, this.name);
    worker.unref();
    worker.on('message', (reply: Reply<Result>) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.result);
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the ${this.name} thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
