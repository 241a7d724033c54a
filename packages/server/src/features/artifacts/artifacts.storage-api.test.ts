import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';

describe.each(ENGINES)('the storage API as client libraries read it on %s', (engine) => {
  let t: TestApp;
  const get = (url: string) => t.app.inject({ url, headers: ADMIN_BASIC });
  const message = (res: { json: () => unknown }) =>
    (res.json() as { errors: { status: number; message: string }[] }).errors;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'libs', { rclass: 'virtual', repositories: ['libs-local'] });
    await put(t.app, '/artifactory/libs-local/a/b.txt', 'b');
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers Artifactory's words for an absent item, which libraries test for", async () => {
    for (const url of [
      '/artifactory/api/storage/libs-local/a/none.txt',
      '/artifactory/api/storage/libs-local/a/none.txt?stats',
    ]) {
      const res = await get(url);
      expect([res.statusCode, message(res)]).toEqual([404, [{ status: 404, message: 'Unable to find item' }]]);
    }
    const virtual = await get('/artifactory/api/storage/libs/a/none.txt');
    expect([virtual.statusCode, message(virtual)]).toEqual([404, [{ status: 404, message: 'Not Found' }]]);
  });

  it('counts downloads for ?stats', async () => {
    await get('/artifactory/libs-local/a/b.txt');
    await get('/artifactory/libs/a/b.txt');
    const stats = (await get('/artifactory/api/storage/libs-local/a/b.txt?stats')).json() as Record<string, unknown>;
    expect(stats).toMatchObject({ downloadCount: 2, lastDownloadedBy: 'admin', remoteDownloadCount: 0 });
    expect(Number(stats.lastDownloaded)).toBeGreaterThan(Date.now() - 60_000);
  });
});
