import fs from 'node:fs';
import { Writable } from 'node:stream';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
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
  /** One line in the audit log file for an audit entry recorded by this process. */
  audit(line: AuditLine): void;
  /** This process's log folder. */
  dir: string;
  /** Writes out the lines gathered so far; resolves once the log files hold every line handed to them. */
  flush(): Promise<void>;
  /** Flushes and closes the log files. */
  close(): Promise<void>;
}

/**
 * Log lines handed to a file stream in batches: a request only appends its line; while one write
 * to the file is under way, the lines that follow gather and go in the next write, together — so
 * that a busy server writes its log in a few large writes, off the request path, not one per line.
 */
class BatchedLines extends Writable {
  private waiting: (() => void)[] = [];

  constructor(private readonly target: Writable) {
    super({ highWaterMark: 1024 * 1024 });
  }

  /** Resolves once every line handed to this file so far is written to it. */
  written(): Promise<void> {
    if (this.writableLength === 0 || this.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.target.write(chunk, this.afterWrite(callback));
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.target.write(Buffer.concat(chunks.map((c) => c.chunk)), this.afterWrite(callback));
  }

  /** A write's callback that, once nothing is left to write, answers those waiting in `written`. */
  private afterWrite(callback: (error?: Error | null) => void) {
    return (error?: Error | null) => {
      callback(error);
      if (this.writableLength > 0 && !error) return;
      const waiting = this.waiting;
      this.waiting = [];
      for (const resolve of waiting) resolve();
    };
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.target.end(() => callback());
  }
}

/**
 * pino's ISO time, formatted once per second: a busy server writes many lines in each, and within
 * one only the milliseconds change.
 */
function isoTimeOncePerMillisecond(): () => string {
  let last = -1;
  let second = -1;
  let prefix = '';
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== last) {
      last = now;
      const ms = now % 1000;
      if (now - ms !== second) {
        second = now - ms;
        // "2026-11-29T02:30:05." — the milliseconds follow
        prefix = `,"time":"${new Date(second).toISOString().slice(0, 20)}`;
      }
      text = `${prefix}${String(ms).padStart(3, '0')}Z"`;
    }
    return text;
  };
}

/** The folder of one process's log files: `<data>/logs/<node id>` (a node's id made safe for a file name). */
export function logsDirOf(dataDir: string, nodeId: string): string {
  return path.join(dataDir, 'logs', nodeId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/**
 * The log files a process writes, by service log key: each service's log, the request log (one
 * line per answered request) and the audit log (one line per recorded audit entry).
 */
export const LOG_FILES: Record<LogKey, readonly string[]> = {
  jfrt: ['jfrt-service.log', 'jfrt-request.log'],
  jfac: ['jfac-service.log', 'jfac-audit.log'],
};

/** `2026-11-25`: the day in a rotated file's name. */
const day = (time: Date) => time.toISOString().slice(0, 10);

/**
 * A file rotated at 10 MB or daily (at UTC midnight), its old files named after the day and a
 * counter (`jfrt-service.2026-11-25.1.log`); at most `maxFiles` are kept, older ones are removed
 * by age (see `pruneLogs`).
 */
function rotatingFile(dir: string, name: string): BatchedLines {
  const base = name.replace(/\.log$/, '');
  return new BatchedLines(
    createStream((time, index) => (time ? `${base}.${day(new Date(time))}.${index ?? 1}.log` : name), {
      path: dir,
      size: '10M',
      interval: '1d',
      intervalUTC: true,
      maxFiles: 50,
      history: `.${base}.history`,
    }),
  );
}

/**
 * Removes rotated log files older than `days` from a process's log folder (the files being
 * written stay whatever their age). Answers how many went.
 */
export function pruneLogs(dir: string, days: number, now = Date.now()): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  const current = new Set(Object.values(LOG_FILES).flat());
  for (const name of names) {
    if (current.has(name) || !name.endsWith('.log')) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > days * 86_400_000) {
        fs.rmSync(file, { force: true });
        removed++;
      }
    } catch {
      // gone already
    }
  }
  return removed;
}

/** An audit entry as the audit log file has it. */
export interface AuditLine {
  actor: string;
  sourceIp: string;
  category: string;
  action: string;
  target: string;
  outcome: string;
}

/**
 * One pino logger per service log key. Each writes to stdout and to its process's files under
 * `<data>/logs/<node id>/` (see LOG_FILES): every process — each node, each worker of a node —
 * has files of its own, so that none interleaves with another's.
 */
export function createLoggers(config: Config, nodeId: string): Loggers {
  const logsDir = logsDirOf(config.dataDir, nodeId);
  const files: BatchedLines[] = [];
  const outputs: Record<LogKey, pino.StreamEntry[]> = { jfrt: [], jfac: [] };
  const requestOutputs: Writable[] = [];
  const auditOutputs: Writable[] = [];
  if (config.logToFiles) fs.mkdirSync(logsDir, { recursive: true });
  const file = (name: string) => {
    const stream = rotatingFile(logsDir, name);
    files.push(stream);
    return stream;
  };
  const make = (key: LogKey): Logger => {
    const streams = outputs[key];
    if (config.logToStdout) streams.push({ stream: process.stdout, level: config.logLevel as pino.Level });
    if (config.logToFiles) streams.push({ stream: file(`${key}-service.log`), level: config.logLevel as pino.Level });
    return pino(
      { level: config.logLevel, base: { service: key }, timestamp: isoTimeOncePerMillisecond() },
      pino.multistream(streams),
    );
  };
  const jfrt = make('jfrt');
  const jfac = make('jfac');
  if (config.logToStdout) requestOutputs.push(process.stdout);
  if (config.logToFiles) {
    requestOutputs.push(file('jfrt-request.log'));
    auditOutputs.push(file('jfac-audit.log'));
  }
  const time = isoTimeOncePerMillisecond();
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const text = pending.join('');
    pending = [];
    for (const output of requestOutputs) output.write(text);
  };
  let closed = false;
  return {
    jfrt,
    jfac,
    dir: logsDir,
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
    audit(line) {
      if (closed) return;
      const text = `${JSON.stringify({ level: 30, time: new Date().toISOString(), service: 'jfac', ...line, msg: 'audit' })}\n`;
      for (const output of auditOutputs) output.write(text);
    },
    flush: async () => {
      flush();
      await Promise.all(files.map((f) => f.written()));
    },
    close: () => {
      flush();
      closed = true;
      return Promise.all(files.map((f) => new Promise<void>((resolve) => f.end(() => resolve())))).then(
        () => undefined,
      );
    },
  };
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type ChildBindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * A request's logger (`request.log`), bound to its request id: pino's child is made when the
 * request first logs something. Most requests never do, and making one costs each request
 * more than its own hooks do.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: ChildBindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? (this.options.level as string | undefined) ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private log(method: LogMethod, args: unknown[]): void {
    // a line below the logger's level is written by no one: no child for it either
    const levels = pino.levels.values;
    if (!this.made && levels[method]! < (levels[this.level] ?? 0)) return;
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}
  child(bindings: ChildBindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made lazily (see RequestLogger). */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: ChildBindings,
  options: ChildOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
