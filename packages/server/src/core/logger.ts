import fs from 'node:fs';
import { Writable } from 'node:stream';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { Config } from '../config.js';

/** Log keys this process writes: the repository service and the access service. */
export type LogKey = 'jfrt' | 'jfac';

export interface Loggers {
  jfrt: Logger;
  jfac: Logger;
  /**
   * The request log (one line per answered request, in the repository service's log): lines are
   * gathered and written together a moment later, off the request path. Same shape as pino's lines.
   */
  request(line: { reqId: string; method: string; url: string; status: number; ms: number }): void;
  /** Flushes and closes the log files. */
  close(): Promise<void>;
}

/**
 * Log lines handed to a file stream in batches: a request only appends its line; while one write
 * to the file is under way, the lines that follow gather and go in the next write, together — so
 * that a busy server writes its log in a few large writes, off the request path, not one per line.
 */
class BatchedLines extends Writable {
  constructor(private readonly target: Writable) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.target.write(chunk, callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.target.write(Buffer.concat(chunks.map((c) => c.chunk)), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.target.end(() => callback());
  }
}

/** pino's ISO time, formatted once per millisecond: a busy server writes many lines in each. */
function isoTimeOncePerMillisecond(): () => string {
  let last = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== last) {
      last = now;
      text = `,"time":"${new Date(now).toISOString()}"`;
    }
    return text;
  };
}

/**
 * One pino logger per service log key. Each writes to stdout and to `<data>/logs/<key>.log`,
 * rotated at 10 MB or daily, keeping 10 files.
 */
export function createLoggers(config: Config): Loggers {
  const logsDir = path.join(config.dataDir, 'logs');
  const files: Writable[] = [];
  const outputs: Record<LogKey, pino.StreamEntry[]> = { jfrt: [], jfac: [] };
  const make = (key: LogKey): Logger => {
    const streams = outputs[key];
    if (config.logToStdout) streams.push({ stream: process.stdout, level: config.logLevel as pino.Level });
    if (config.logToFiles) {
      fs.mkdirSync(logsDir, { recursive: true });
      const file = new BatchedLines(
        createStream(`${key}.log`, { path: logsDir, size: '10M', interval: '1d', maxFiles: 10 }),
      );
      files.push(file);
      streams.push({ stream: file, level: config.logLevel as pino.Level });
    }
    return pino(
      { level: config.logLevel, base: { service: key }, timestamp: isoTimeOncePerMillisecond() },
      pino.multistream(streams),
    );
  };
  const jfrt = make('jfrt');
  const jfac = make('jfac');
  const time = isoTimeOncePerMillisecond();
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    for (const output of outputs.jfrt) output.stream.write(text);
  };
  return {
    jfrt,
    jfac,
    request(line) {
      if (!jfrt.isLevelEnabled('info')) return;
      pending.push(
        `{"level":30${time()},"service":"jfrt","reqId":"${line.reqId}","method":"${line.method}","url":${JSON.stringify(line.url)},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
      );
      if (pending.length >= 512) flush();
      else if (!timer) {
        timer = setTimeout(flush, 100);
        timer.unref();
      }
    },
    close: () => {
      flush();
      return Promise.all(files.map((file) => new Promise<void>((resolve) => file.end(() => resolve())))).then(
        () => undefined,
      );
    },
  };
}
