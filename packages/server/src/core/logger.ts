import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { Config } from '../config.js';

/** Log keys this process writes: the repository service and the access service. */
export type LogKey = 'jfrt' | 'jfac';

export interface Loggers {
  jfrt: Logger;
  jfac: Logger;
  /** Flushes and closes the log files. */
  close(): Promise<void>;
}

/**
 * One pino logger per service log key. Each writes to stdout and to `<data>/logs/<key>.log`,
 * rotated at 10 MB or daily, keeping 10 files.
 */
export function createLoggers(config: Config): Loggers {
  const logsDir = path.join(config.dataDir, 'logs');
  const files: ReturnType<typeof createStream>[] = [];
  const make = (key: LogKey): Logger => {
    const streams: pino.StreamEntry[] = [];
    if (config.logToStdout) streams.push({ stream: process.stdout, level: config.logLevel as pino.Level });
    if (config.logToFiles) {
      fs.mkdirSync(logsDir, { recursive: true });
      const file = createStream(`${key}.log`, { path: logsDir, size: '10M', interval: '1d', maxFiles: 10 });
      files.push(file);
      streams.push({ stream: file, level: config.logLevel as pino.Level });
    }
    return pino(
      { level: config.logLevel, base: { service: key }, timestamp: pino.stdTimeFunctions.isoTime },
      pino.multistream(streams),
    );
  };
  const jfrt = make('jfrt');
  const jfac = make('jfac');
  return {
    jfrt,
    jfac,
    close: () =>
      Promise.all(files.map((file) => new Promise<void>((resolve) => file.end(() => resolve())))).then(() => undefined),
  };
}
