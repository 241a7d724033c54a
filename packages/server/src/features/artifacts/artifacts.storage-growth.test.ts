import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, put, startTestApp, type TestApp } from '../../test/harness.js';
import { sampleStorage } from './artifacts.usage.js';

describe.each(ENGINES)('storage growth and largest folders on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'grow-local', { rclass: 'local' });
  });
  afterAll(async () => {
    await t.close();
  });
  const get = (url: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({ url: `/ui/api/v1/ui/storagesummary/${url}`, headers });

  it('samples each repository daily and answers the growth over a period', async () => {
    const day = 86_400_000;
    const now = Date.now();
    await put(t.app, '/artifactory/grow-local/a/one.bin', 'x'.repeat(100));
    await sampleStorage(t.app.db, now - 2 * day);
    await put(t.app, '/artifactory/grow-local/a/two.bin', 'y'.repeat(300));
    await sampleStorage(t.app.db, now - day);
    await put(t.app, '/artifactory/grow-local/b/three.bin', 'z'.repeat(600));
    await sampleStorage(t.app.db, now);
    // a second sample the same day replaces the first
    await sampleStorage(t.app.db, now);
    const growth = (await get('growth?days=7')).json<{
      days: { day: string; size: number; files: number; repositories: Record<string, number> }[];
    }>();
    const mine = growth.days.map((d) => d.repositories['grow-local']);
    expect(mine.slice(-3)).toEqual([100, 400, 1000]);
    expect(growth.days.at(-1)!.day).toBe(new Date(now).toISOString().slice(0, 10));
    expect(growth.days.at(-1)!.size).toBeGreaterThanOrEqual(1000);
    // a shorter period holds fewer days
    expect((await get('growth?days=1')).json<{ days: unknown[] }>().days).toHaveLength(1);
    expect((await get('growth?days=0')).statusCode).toBe(400);
  });

  it("lists a repository's largest folders, everything below each counted", async () => {
    await put(t.app, '/artifactory/grow-local/a/deep/four.bin', 'w'.repeat(50));
    const answer = (await get('folders?repoKey=grow-local')).json<{
      folders: { path: string; size: number; files: number }[];
    }>();
    expect(answer.folders).toEqual([
      { path: 'b', size: 600, files: 1 },
      { path: 'a', size: 450, files: 3 },
      { path: 'a/deep', size: 50, files: 1 },
    ]);
    const missing = await get('folders?repoKey=nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].message).toBe("There is no repository 'nowhere'.");
    const user = await createUser(t.app, 'storage-reader');
    expect((await get('folders?repoKey=grow-local', user)).statusCode).toBe(403);
  });
});
