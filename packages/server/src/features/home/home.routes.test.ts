import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_ACTIVITY_DAYS, type HomeWidgetInfo } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, put, startTestApp, type TestApp } from '../../test/harness.js';

describe.each(ENGINES)('the home widgets on %s', (engine) => {
  let t: TestApp;
  let dev: Record<string, string>;
  const info = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/ui/api/v1/ui/home/widget/info', headers });
    expect(res.statusCode).toBe(200);
    return res.json() as HomeWidgetInfo;
  };

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local' });
    await createRepo(t.app, 'secret', { rclass: 'local' });
    await put(t.app, '/artifactory/libs/a/one.txt', '1');
    await put(t.app, '/artifactory/libs/a/two.txt', '22');
    await put(t.app, '/artifactory/secret/s.txt', 'secret!');
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/artifactory/libs/a/two.txt', headers: ADMIN_BASIC });
    await t.app.inject({ url: '/artifactory/secret/s.txt', headers: ADMIN_BASIC });
    dev = await createUser(t.app, 'dev');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/dev',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs'], actions: { users: { dev: ['read'] } } } },
    });
  });
  afterAll(() => t.close());

  it('counts, charts and lists what the caller may read, and nothing else', async () => {
    const admin = await info(ADMIN_BASIC);
    expect(admin).toMatchObject({ artifactCount: 3, artifactsSize: 10, repositoryCount: 2 });
    expect(admin.deploymentsByDay).toHaveLength(HOME_ACTIVITY_DAYS);
    expect(admin.deploymentsByDay.at(-1)).toMatchObject({
      day: new Date().toISOString().slice(0, 10),
      files: 3,
      bytes: 10,
    });
    expect(admin.recentDeployments.map((f) => f.name).sort()).toEqual(['one.txt', 's.txt', 'two.txt']);
    expect(admin.mostDownloaded.map((f) => [f.name, f.downloads])).toEqual([
      ['two.txt', 3],
      ['s.txt', 1],
    ]);

    const mine = await info(dev);
    expect(mine).toMatchObject({ artifactCount: 2, artifactsSize: 3, repositoryCount: 1 });
    expect(mine.deploymentsByDay.at(-1)).toMatchObject({ files: 2, bytes: 3 });
    expect(JSON.stringify(mine)).not.toContain('secret');
    expect(mine.mostDownloaded.map((f) => f.name)).toEqual(['two.txt']);
    const count = await t.app.inject({ url: '/ui/api/v1/ui/home/widget/artifactCount', headers: dev });
    expect(count.json()).toEqual({ artifactCount: 2 });
  });
});
