import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  createRepo,
  createUser,
  login,
  put,
  startTestApp,
  type TestApp,
  zipEntries,
} from '../../test/harness.js';

async function tarEntries(buffer: Buffer): Promise<Record<string, string>> {
  const extract = tar.extract();
  const entries: Record<string, string> = {};
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        entries[header.name] = Buffer.concat(chunks).toString();
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(buffer);
  await done;
  return entries;
}

describe.each(ENGINES)('folder download (/api/archive/download) on %s', (engine) => {
  let t: TestApp;
  let ann: Record<string, string>;
  const download = (url: string, headers: Record<string, string> = ADMIN_BASIC) => t.app.inject({ url, headers });
  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local' });
    await put(t.app, '/artifactory/libs/app/1.0/app.jar', 'jar bytes');
    await put(t.app, '/artifactory/libs/app/1.0/docs/readme.txt', 'read me');
    await put(t.app, '/artifactory/libs/app/1.0/secret/key.txt', 'secret');
    ann = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann-read',
      headers: ADMIN_BASIC,
      payload: {
        repo: { repositories: ['libs'], 'exclude-patterns': ['**/secret/**'], actions: { users: { ann: ['read'] } } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a folder as zip, tar and tar.gz with the files inside at their relative paths', async () => {
    const zip = await download('/artifactory/api/archive/download/libs/app/1.0?archiveType=zip');
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-disposition']).toBe('attachment; filename="1.0.zip"');
    expect(await zipEntries(zip.rawPayload)).toEqual({
      'app.jar': 'jar bytes',
      'docs/readme.txt': 'read me',
      'secret/key.txt': 'secret',
    });
    const tgz = await download('/artifactory/api/archive/download/libs/app?archiveType=tgz');
    expect(await tarEntries(gunzipSync(tgz.rawPayload))).toEqual({
      '1.0/app.jar': 'jar bytes',
      '1.0/docs/readme.txt': 'read me',
      '1.0/secret/key.txt': 'secret',
    });
    const plain = await download('/artifactory/api/archive/download/libs/app/1.0/docs?archiveType=tar');
    expect(await tarEntries(plain.rawPayload)).toEqual({ 'readme.txt': 'read me' });
  });

  it('answers the console’s folder download with the session, as a browser navigation makes it', async () => {
    const { cookie } = await login(t.app);
    const res = await t.app.inject({
      url: '/ui/api/v1/ui/artifactactions/downloadfolder?repoKey=libs&path=app/1.0/docs',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="docs.zip"');
    expect(await zipEntries(res.rawPayload)).toEqual({ 'readme.txt': 'read me' });
  });

  it('holds only what the caller may read, and refuses a file, a missing folder and an unknown type', async () => {
    const zip = await download('/artifactory/api/archive/download/libs/app/1.0?archiveType=zip', ann);
    expect(Object.keys(await zipEntries(zip.rawPayload)).sort()).toEqual(['app.jar', 'docs/readme.txt']);
    expect((await download('/artifactory/api/archive/download/libs/app/1.0/app.jar')).statusCode).toBe(404);
    expect((await download('/artifactory/api/archive/download/libs/none')).statusCode).toBe(404);
    const type = await download('/artifactory/api/archive/download/libs/app?archiveType=rar');
    expect(type.statusCode).toBe(400);
  });

  it('runs at most ten at once and says so to the eleventh', async () => {
    // a folder big enough that an unread answer keeps its download running
    await put(t.app, '/artifactory/libs/big/blob.bin', Buffer.alloc(8 * 1024 * 1024, 7));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const url = `${base}/artifactory/api/archive/download/libs/big?archiveType=tar`;
    const held = await Promise.all(Array.from({ length: 10 }, () => fetch(url, { headers: ADMIN_BASIC })));
    expect(held.map((r) => r.status)).toEqual(Array(10).fill(200));
    const eleventh = await fetch(url, { headers: ADMIN_BASIC });
    expect(eleventh.status).toBe(429);
    expect(((await eleventh.json()) as { errors: { message: string }[] }).errors[0]!.message).toBe(
      'There are too many folder download requests currently running, try again later.',
    );
    // once they are read to the end, downloads run again
    await Promise.all(held.map((r) => r.arrayBuffer()));
    await new Promise((r) => setTimeout(r, 50));
    const again = await fetch(url, { headers: ADMIN_BASIC });
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });
});
