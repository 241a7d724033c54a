import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { createLoggers, logsDirOf, requestLogger } from './logger.js';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function loggersIn(level = 'info') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-logger-'));
  dirs.push(dataDir);
  const config = loadConfig({ ARCA_DATA_DIR: dataDir, ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: level }, dataDir);
  const loggers = createLoggers(config, 'node-a');
  const read = async (file: string) => {
    await loggers.flush();
    return fs
      .readFileSync(path.join(logsDirOf(dataDir, 'node-a'), file), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { loggers, read };
}

describe('logs', () => {
  it('stamps each request line with its own millisecond, in ISO form', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { loggers, read } = loggersIn();
    const times = ['2026-11-29T02:30:05.007Z', '2026-11-29T02:30:05.042Z', '2026-11-29T02:30:06.000Z'];
    for (const [i, time] of times.entries()) {
      vi.setSystemTime(new Date(time));
      loggers.request({ reqId: `r${i}`, method: 'GET', url: '/a?b="c"', status: 200, ms: 1 });
    }
    const lines = await read('jfrt-request.log');
    expect(lines.map((l) => l.time)).toEqual(times);
    expect(lines[0]).toMatchObject({ reqId: 'r0', url: '/a?b="c"', status: 200, msg: 'request' });
    await loggers.close();
  });

  it("writes a request's lines with its id, and nothing for a level below the logger's", async () => {
    const { loggers, read } = loggersIn('info');
    const log = requestLogger(loggers.jfrt, { reqId: 'req-1' }, {});
    log.debug('not written');
    log.warn({ repo: 'libs' }, 'written');
    expect(log.level).toBe('info');
    const lines = await read('jfrt-service.log');
    expect(lines.map((l) => l.msg)).toEqual(['written']);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', repo: 'libs', level: 40 });
    await loggers.close();
  });

  it("follows a route's own level", async () => {
    const { loggers, read } = loggersIn('debug');
    const log = requestLogger(loggers.jfrt, { reqId: 'req-2' }, { level: 'warn' });
    expect(log.level).toBe('warn');
    log.debug('quiet on this route');
    log.error('written');
    loggers.jfrt.debug('the service logs at debug');
    expect((await read('jfrt-service.log')).map((l) => l.msg)).toEqual(['written', 'the service logs at debug']);
    await loggers.close();
  });
});
