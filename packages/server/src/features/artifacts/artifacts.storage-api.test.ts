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

  it('updates properties with PATCH /api/metadata: set, change and remove at once, recursive unless told', async () => {
    await put(t.app, '/artifactory/libs-local/rel/x.jar;keep=1;old=1', 'x');
    await put(t.app, '/artifactory/libs-local/rel/sub/y.jar;old=1', 'y');
    const patch = (url: string, payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url,
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const changed = await patch('/artifactory/api/metadata/libs-local/rel', {
      props: { stage: 'qa', langs: ['java', 'kotlin'], old: null },
    });
    expect(changed.statusCode).toBe(204);
    const props = async (path: string) =>
      (
        (await get(`/artifactory/api/storage/libs-local/${path}?properties`)).json() as {
          properties: Record<string, string[]>;
        }
      ).properties;
    expect(await props('rel/x.jar')).toEqual({ keep: ['1'], stage: ['qa'], langs: ['java', 'kotlin'] });
    expect(await props('rel/sub/y.jar')).toEqual({ stage: ['qa'], langs: ['java', 'kotlin'] });
    // not recursive: the folder only
    expect(
      (await patch('/artifactory/api/metadata/libs-local/rel?recursiveProperties=0', { props: { top: 'yes' } }))
        .statusCode,
    ).toBe(204);
    expect((await props('rel/x.jar')).top).toBeUndefined();
    expect((await props('rel')).top).toEqual(['yes']);
    // a bad key changes nothing
    const bad = await patch('/artifactory/api/metadata/libs-local/rel', { props: { 'a=b': 'x', stage: null } });
    expect(bad.statusCode).toBe(400);
    expect((await props('rel/x.jar')).stage).toEqual(['qa']);
    expect((await patch('/artifactory/api/metadata/libs-local/none', { props: { a: 'b' } })).statusCode).toBe(404);
  });

  it('answers GET /api/storageinfo in Artifactory’s shape, to administrators only', async () => {
    const info = (await get('/artifactory/api/storageinfo')).json() as {
      binariesSummary: Record<string, string>;
      fileStoreSummary: Record<string, string>;
      repositoriesSummaryList: Record<string, unknown>[];
    };
    expect(info.binariesSummary).toMatchObject({
      binariesCount: expect.stringMatching(/^\d/),
      artifactsSize: expect.stringMatching(/bytes|KB/),
    });
    expect(info.fileStoreSummary).toMatchObject({
      storageType: 'filesystem',
      usedSpace: expect.stringMatching(/\(\d+\.\d\d%\)$/),
    });
    const local = info.repositoriesSummaryList.find((r) => r.repoKey === 'libs-local')!;
    expect(local).toMatchObject({ repoType: 'LOCAL', packageType: 'generic', filesCount: expect.any(Number) });
    expect(info.repositoriesSummaryList.at(-1)).toMatchObject({ repoKey: 'TOTAL', repoType: 'NA' });
    const anonymous = await t.app.inject({ url: '/artifactory/api/storageinfo' });
    expect(anonymous.statusCode).toBe(401);
  });
});
