import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../test/s3-server.js';
import { freePort } from '../../test/free-port.js';

const MAIN = path.resolve(import.meta.dirname, '../../../dist/main.js');
const PASSWORD = 'Crash-test-password';
const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

async function start(dataDir: string, port: number, store: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ...store,
      ARCA_DATA_DIR: dataDir,
      ARCA_PORT: String(port),
      ARCA_HOST: '127.0.0.1',
      ARCA_ADMIN_PASSWORD: PASSWORD,
      ARCA_LOG_STDOUT: 'false',
      ARCA_DATABASE_URL: '',
      // the process killed is the one receiving the uploads
      ARCA_WORKERS: '1',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/artifactory/api/system/ping`)).ok) return child;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

/** Streams `data` in 64 KiB chunks, `delayMs` apart; resolves with the status, or 0 when the connection broke. */
function upload(port: number, name: string, data: Buffer, delayMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `/artifactory/crash-local/${name}`,
        headers: { authorization: AUTH, 'content-length': data.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    let offset = 0;
    const next = () => {
      if (offset >= data.length) return req.end();
      req.write(data.subarray(offset, offset + 65_536));
      offset += 65_536;
      setTimeout(next, delayMs);
    };
    next();
  });
}

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

/** The temporary files (or objects) an interrupted upload could leave in the store. */
function temporaryFiles(dataDir: string, s3: S3TestServer | undefined): string[] {
  const root = s3 ? path.join(s3.directory, s3.bucket, '_tmp') : path.join(dataDir, 'filestore', '_tmp');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(root, f)).isFile(),
  );
}

describe.each(['file', 's3'] as const)('a crash during uploads to the %s store', (kind) => {
  it('leaves every listed artifact intact and no temporary file after a restart', { timeout: 90_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-crash-'));
    const s3 = kind === 's3' ? await startS3Server() : undefined;
    const store = s3?.env ?? {};
    const port = await freePort();
    let server = await start(dataDir, port, store);
    children.push(server);
    const created = await fetch(`http://127.0.0.1:${port}/artifactory/api/repositories/crash-local`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local' }),
    });
    expect(created.status).toBe(200);

    const files = Array.from({ length: 20 }, (_, i) => ({
      name: `f${i}.bin`,
      data: randomBytes(i % 2 ? 4 * 1024 * 1024 : 128 * 1024),
    }));
    const results = files.map((f, i) => upload(port, f.name, f.data, i % 2 ? 20 : 0));
    // the ten small uploads finish; the ten slow ones are in flight when the process dies
    const small = await Promise.all(results.filter((_, i) => i % 2 === 0));
    expect(small.every((s) => s === 201)).toBe(true);
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    const slow = await Promise.all(results.filter((_, i) => i % 2 === 1));
    expect(slow.filter((s) => s === 201).length).toBeLessThan(10);

    server = await start(dataDir, port, store);
    children.push(server);
    const list = (await (
      await fetch(`http://127.0.0.1:${port}/artifactory/api/storage/crash-local?list&deep=1`, {
        headers: { authorization: AUTH },
      })
    ).json()) as {
      files: { uri: string; sha2: string }[];
    };
    expect(list.files.length).toBeGreaterThanOrEqual(10);
    for (const entry of list.files) {
      const original = files.find((f) => `/${f.name}` === entry.uri)!;
      const body = Buffer.from(
        await (
          await fetch(`http://127.0.0.1:${port}/artifactory/crash-local${entry.uri}`, {
            headers: { authorization: AUTH },
          })
        ).arrayBuffer(),
      );
      const digest = createHash('sha256').update(body).digest('hex');
      expect(digest).toBe(entry.sha2);
      expect(digest).toBe(createHash('sha256').update(original.data).digest('hex'));
    }
    expect(temporaryFiles(dataDir, s3)).toEqual([]);
    if (s3) expect(fs.existsSync(path.join(dataDir, 'filestore'))).toBe(false);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await s3?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
