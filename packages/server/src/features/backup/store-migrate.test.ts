import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../cli.js';
import { ADMIN_BASIC, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from '../../test/s3-server.js';

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('moving the binaries between the file store and an object store', () => {
  let s3: S3TestServer;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-migrate-'));
  const files = new Map<string, Buffer>();
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An app on the shared data directory with the given store. */
  const start = (store: 'file' | 's3') =>
    startTestApp('sqlite', { ...s3.env, ARCA_STORE: store, ARCA_DATA_DIR: dataDir });

  /** Runs `arca …` against the shared data directory and the test bucket; answers its code and lines. */
  async function arca(...args: string[]) {
    for (const [name, value] of Object.entries({ ...S3_TEST_CREDENTIALS, ...s3.env, ARCA_DATA_DIR: dataDir })) {
      vi.stubEnv(name, value);
    }
    const lines: string[] = [];
    try {
      const code = await runCli(args, (line) => lines.push(line));
      // the progress lines aside: what it says at the end
      return { code, lines: lines.filter((line) => !/^(pass \d+|done): /.test(line)) };
    } catch (error) {
      return { code: 1, lines: [(error as Error).message] };
    } finally {
      vi.unstubAllEnvs();
    }
  }

  /** Reads every file through `t` and checks its SHA-256. */
  async function readAll(t: TestApp) {
    for (const [name, body] of files) {
      const res = await t.app.inject({ url: `/artifactory/libs-local/${name}`, headers: ADMIN_BASIC });
      expect(res.statusCode, name).toBe(200);
      expect(sha256(res.rawPayload), name).toBe(sha256(body));
    }
  }

  it('copies file system → S3 → file system under reads, switching only with every node stopped', async () => {
    Object.assign(process.env, S3_TEST_CREDENTIALS);
    let t = await start('file');
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    for (let i = 0; i < 12; i++) {
      const body = randomBytes(i % 4 === 0 ? 2 * 1024 * 1024 : 3000 + i);
      files.set(`f${i}.bin`, body);
      expect((await put(t.app, `/artifactory/libs-local/f${i}.bin`, body)).statusCode).toBe(201);
    }

    // the copy runs while the node serves reads
    let reading = true;
    const reads = (async () => {
      while (reading) await readAll(t);
    })();
    const copy = await arca('store', 'migrate', '--to', 's3');
    reading = false;
    await reads;
    expect(copy.code, copy.lines.join('\n')).toBe(0);
    expect(copy.lines[0]).toMatch(/^Copied 12 binaries .* 0 were there already, 0 were removed meanwhile\.$/);
    // switching while a node runs is refused, and so is starting on a store that holds nothing yet
    const refused = await arca('store', 'migrate', '--to', 's3', '--switch');
    expect(refused.lines.join('\n')).toMatch(/^Stop every node before switching stores \(running: /);
    // one more deploy after the copy: the switch's last pass takes it
    files.set('late.bin', Buffer.from('deployed during the migration'));
    await put(t.app, '/artifactory/libs-local/late.bin', files.get('late.bin')!);
    await t.close();
    await expect(start('s3')).rejects.toThrow(
      /^The binaries of this deployment are in the file store \(since .*\): start Arca with ARCA_STORE=file, or move them with 'arca store migrate --to s3' first\.$/,
    );

    const switched = await arca('store', 'migrate', '--to', 's3', '--switch');
    expect(switched.code, switched.lines.join('\n')).toBe(0);
    expect(switched.lines[0]).toMatch(/^Copied 1 binaries .* 12 were there already/);
    expect(switched.lines[1]).toBe(
      "This deployment's binaries are now in the s3 store: start Arca with ARCA_STORE=s3.",
    );
    // the file store is gone (a new machine): every file reads from the bucket
    fs.rmSync(path.join(dataDir, 'filestore'), { recursive: true, force: true });
    t = await start('s3');
    await readAll(t);
    files.set('on-s3.bin', randomBytes(70_000));
    await put(t.app, '/artifactory/libs-local/on-s3.bin', files.get('on-s3.bin')!);
    await t.close();

    // and back
    const back = await arca('store', 'migrate', '--to', 'file', '--switch');
    expect(back.code, back.lines.join('\n')).toBe(0);
    expect(back.lines[0]).toMatch(/^Copied 14 binaries /);
    t = await start('file');
    try {
      await readAll(t);
    } finally {
      await t.close();
    }
  });
});
