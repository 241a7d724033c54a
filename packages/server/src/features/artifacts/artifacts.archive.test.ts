import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import { ADMIN_BASIC, XHR, createRepo, messages, put, startTestApp, type TestApp } from '../../test/harness.js';

describe('archive views of broken and oversized archives', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    await createRepo(t.app, 'arch-local', { rclass: 'local' });
  });
  afterAll(() => t.close());

  it('answers 400 for a .tgz that is not gzip, and the server keeps serving', async () => {
    expect((await put(t.app, '/artifactory/arch-local/x.tgz', 'this is plain text, not gzip')).statusCode).toBe(201);
    const entries = await t.app.inject({
      url: '/ui/api/v1/ui/archive/entries?repoKey=arch-local&path=x.tgz',
      headers: ADMIN_BASIC,
    });
    expect(entries.statusCode).toBe(400);
    expect(messages(entries)).toEqual([ARTIFACT_MESSAGES.notArchive]);
    const source = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/archiveViewSource',
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { repoKey: 'arch-local', archivePath: 'x.tgz', sourcePath: 'a.txt' },
    });
    expect(source.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/artifactory/api/system/ping' })).statusCode).toBe(200);
  });

  it('stops a gzip bomb at the byte budget instead of expanding it', async () => {
    // 300 MiB of zeros gzip to about 300 KiB; the budget is 256 MiB
    const bomb = gzipSync(Buffer.alloc(300 * 1024 * 1024), { level: 1 });
    await put(t.app, '/artifactory/arch-local/bomb.tgz', bomb);
    const res = await t.app.inject({
      url: '/ui/api/v1/ui/archive/entries?repoKey=arch-local&path=bomb.tgz',
      headers: ADMIN_BASIC,
    });
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([ARTIFACT_MESSAGES.archiveTooLarge]);
  });
});
