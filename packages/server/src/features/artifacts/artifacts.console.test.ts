import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('console artifact actions and repository edits on %s', (engine) => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'release-local', { rclass: 'local' });
    headers = { ...XHR, cookie: (await login(t.app)).cookie };
  });
  afterEach(async () => {
    await t.close();
  });

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/ui/api/v1/${url}`, headers, payload });
  const exists = async (repo: string, path: string) =>
    (await t.app.inject({ url: `/artifactory/${repo}/${path}`, headers: ADMIN_BASIC })).statusCode === 200;

  it('copies, moves, deletes, restores and empties the trash through the console calls', async () => {
    await put(t.app, '/artifactory/libs-local/a/x.txt', 'x');
    expect(
      (
        await post('ui/artifactactions/copy', { repoKey: 'libs-local', path: 'a', targetRepoKey: 'release-local' })
      ).json(),
    ).toMatchObject({ files: 1, overwritten: 0, skipped: 0, repoKey: 'release-local', path: 'a' });
    expect(await exists('release-local', 'a/x.txt')).toBe(true);
    await post('ui/artifactactions/move', {
      repoKey: 'release-local',
      path: 'a/x.txt',
      targetRepoKey: 'release-local',
      targetPath: 'b/y.txt',
    });
    expect([await exists('release-local', 'a/x.txt'), await exists('release-local', 'b/y.txt')]).toEqual([false, true]);
    const toRemote = await post('ui/artifactactions/copy', { repoKey: 'libs-local', path: 'a', targetRepoKey: 'nope' });
    expect([toRemote.statusCode, messages(toRemote)]).toEqual([404, ["Repository 'nope' was not found."]]);

    expect((await post('ui/artifactactions/delete', { repoKey: 'libs-local', path: 'a/x.txt' })).statusCode).toBe(204);
    expect(await exists('libs-local', 'a/x.txt')).toBe(false);
    expect((await post('ui/artifactactions/restore', { path: 'libs-local/a/x.txt' })).json()).toEqual({
      repoKey: 'libs-local',
      path: 'a/x.txt',
    });
    expect(await exists('libs-local', 'a/x.txt')).toBe(true);
    const notInTrash = await post('ui/artifactactions/restore', { path: 'libs-local/zzz' });
    expect(notInTrash.statusCode).toBe(404);

    await post('ui/artifactactions/delete', { repoKey: 'release-local', path: 'b' });
    const clean = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/trash/clean/release-local/b',
      headers: ADMIN_BASIC,
    });
    expect(clean.statusCode).toBe(204);
    await post('ui/artifactactions/delete', { repoKey: 'libs-local', path: 'a' });
    expect((await post('ui/artifactactions/emptytrash', {})).json()).toEqual({ files: 1 });
    const trash = (
      await t.app.inject({ url: '/ui/api/v1/ui/treebrowser/children?repoKey=auto-trashcan', headers })
    ).json();
    expect(trash.total).toBe(0);
  });

  it('copies with a dry run first, then refuses, overwrites or skips files that exist at the target', async () => {
    await put(t.app, '/artifactory/libs-local/a/one.txt', 'one');
    await put(t.app, '/artifactory/libs-local/a/two.txt', 'two');
    await put(t.app, '/artifactory/release-local/a/one.txt', 'old one');
    const body = { repoKey: 'libs-local', path: 'a', targetRepoKey: 'release-local' };
    const read = async (p: string) =>
      (await t.app.inject({ url: `/artifactory/release-local/${p}`, headers: ADMIN_BASIC })).body;

    // the dry run reports the clash and changes nothing
    const dry = await post('ui/artifactactions/copy', { ...body, dryRun: true });
    expect(dry.json()).toMatchObject({ dryRun: true, files: 2, conflicts: ['a/one.txt'], conflictCount: 1 });
    expect(await exists('release-local', 'a/two.txt')).toBe(false);

    // by default the clash refuses the whole copy
    const refused = await post('ui/artifactactions/copy', body);
    expect([refused.statusCode, messages(refused)]).toEqual([
      409,
      ['1 file(s) already exist at the target: a/one.txt. Choose to overwrite or skip them.'],
    ]);
    expect(await exists('release-local', 'a/two.txt')).toBe(false);

    // skip keeps the existing file
    const skipped = await post('ui/artifactactions/copy', { ...body, conflicts: 'skip' });
    expect(skipped.json()).toMatchObject({ files: 1, skipped: 1, overwritten: 0 });
    expect([await read('a/one.txt'), await read('a/two.txt')]).toEqual(['old one', 'two']);

    // overwrite replaces both
    const overwritten = await post('ui/artifactactions/copy', { ...body, conflicts: 'overwrite' });
    expect(overwritten.json()).toMatchObject({ files: 2, overwritten: 2, skipped: 0 });
    expect(await read('a/one.txt')).toBe('one');

    // a move that skips keeps the skipped file (and its folder) at the source
    await put(t.app, '/artifactory/libs-local/a/one.txt', 'newer one');
    await put(t.app, '/artifactory/libs-local/a/three.txt', 'three');
    const moved = await post('ui/artifactactions/move', { ...body, conflicts: 'skip' });
    expect(moved.json()).toMatchObject({ files: 1, skipped: 2 });
    expect([await exists('libs-local', 'a/one.txt'), await exists('libs-local', 'a/three.txt')]).toEqual([true, false]);
    expect(await read('a/three.txt')).toBe('three');
  });

  it('refuses a copy into a repository of another package type', async () => {
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
    await put(t.app, '/artifactory/libs-local/a/x.txt', 'x');
    const refused = await post('ui/artifactactions/move', {
      repoKey: 'libs-local',
      path: 'a',
      targetRepoKey: 'docker-local',
    });
    expect([refused.statusCode, messages(refused)]).toEqual([
      400,
      ["'docker-local' holds docker packages, not generic: items only go to a repository of the same package type."],
    ]);
    expect(await exists('libs-local', 'a/x.txt')).toBe(true);
  });

  it('deletes a property through the console call', async () => {
    await put(t.app, '/artifactory/libs-local/p.txt;a=1;b=2', 'p');
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/artifactproperties?repoKey=libs-local&path=p.txt&key=a',
      headers,
    });
    expect(res.statusCode).toBe(204);
    expect(
      (await t.app.inject({ url: '/ui/api/v1/ui/artifactproperties?repoKey=libs-local&path=p.txt', headers })).json(),
    ).toEqual({ b: ['2'] });
  });

  it('reads, replaces and deletes a repository configuration through the console calls', async () => {
    const one = (await t.app.inject({ url: '/ui/api/v1/ui/admin/repositories/release-local', headers })).json();
    expect(one).toMatchObject({ key: 'release-local', rclass: 'local', hasPassword: false });
    const updated = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/admin/repositories/release-local',
      headers,
      payload: { ...one, description: 'Releases' },
    });
    expect(updated.json().description).toBe('Releases');
    const created = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/repositories',
      headers,
      payload: {
        key: 'all',
        rclass: 'virtual',
        repositories: ['libs-local', 'release-local'],
        defaultDeploymentRepo: 'release-local',
      },
    });
    expect(created.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/ui/api/v1/ui/admin/repositories/all', headers })).statusCode,
    ).toBe(204);
    const without = await t.app.inject({
      method: 'DELETE',
      url: '/ui/api/v1/ui/admin/repositories/all',
      headers: { cookie: headers.cookie! },
    });
    expect(without.statusCode).toBe(403);
  });

  it('answers the Set Me Up base URL', async () => {
    const res = await t.app.inject({ url: '/ui/api/v1/ui/setMeUp', headers: { host: 'arca.example.com:8082' } });
    expect(res.json()).toEqual({ baseUrl: 'http://arca.example.com:8082' });
  });
});
