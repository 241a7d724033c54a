import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './free-port.js';

const require = createRequire(import.meta.url);

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The bucket made at the start. */
  bucket: string;
  /** Where the server keeps the objects (one file per object, for tests that look). */
  directory: string;
  /** The environment that points Arca at this server. */
  env: Record<string, string>;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The credentials the test server accepts (it checks the signature's form, not who signed). */
export const S3_TEST_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * Starts an S3-API server (s3rver, objects on disk: `s3-server.main.ts`) in its own process with
 * one bucket. Its continuation tokens use a cipher OpenSSL 3 keeps in its legacy provider, hence the flag.
 */
export async function startS3Server(bucket = `arca-test-${randomBytes(4).toString('hex')}`): Promise<S3TestServer> {
  // a bucket of its own name: a server of another test that drew the same port (ours then fails
  // to bind) answers 404 for it, so that the wait below never takes the other server for ours
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(bucket, await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/** The server could not listen on its port: another process took it first. */
class PortTaken extends Error {}

async function startOnce(bucket: string, port: number): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-s3-'));
  const child = spawn(
    process.execPath,
    [
      '--openssl-legacy-provider',
      '--import',
      pathToFileURL(path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/loader.mjs')).href,
      path.join(import.meta.dirname, 's3-server.main.ts'),
      directory,
      '127.0.0.1',
      String(port),
      bucket,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      fs.rmSync(directory, { recursive: true, force: true });
      if (errors.includes('EADDRINUSE')) throw new PortTaken(errors);
      throw new Error(`the S3 test server exited: ${errors}`);
    }
    const answer = await fetch(`${endpoint}/${bucket}?list-type=2&max-keys=1`).catch(() => undefined);
    if (answer?.ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the S3 test server did not answer in 20 s: ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // a server that dies under a test says why, beside the test's failure
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`The S3 test server on ${endpoint} exited (${signal ?? code}):\n${errors}`);
  });
  return {
    endpoint,
    bucket,
    directory,
    process: child,
    env: {
      ARCA_STORE: 's3',
      ARCA_S3_ENDPOINT: endpoint,
      ARCA_S3_BUCKET: bucket,
      ARCA_S3_REGION: 'us-east-1',
      ...S3_TEST_CREDENTIALS,
    },
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
