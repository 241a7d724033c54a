import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  changeSecuritySettings,
  countRows,
  createRepo,
  createUser,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../test/harness.js';

/**
 * Permissions decided on what an operation really touches: the member behind a virtual
 * repository, the repository a virtual deploy lands in, every item below a folder, and where a
 * trashed item came from.
 */
describe.each(ENGINES)('authorising what is really touched on %s', (engine) => {
  let t: TestApp;
  const users: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'other-local', { rclass: 'local' });
    await createRepo(t.app, 'v', {
      rclass: 'virtual',
      repositories: ['libs-local', 'other-local'],
      defaultDeploymentRepo: 'libs-local',
    });
    await createRepo(t.app, 'repo-c', { rclass: 'local' });
    await createRepo(t.app, 'repo-d', { rclass: 'local' });
    await createRepo(t.app, 'elsewhere', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/x.txt', 'from libs');
    await put(t.app, '/artifactory/libs-local/pkg/lib.tgz', 'not really a tgz');
    await put(t.app, '/artifactory/other-local/y.txt', 'from other');
    for (const path of ['app/release/secret.jar', 'app/release/public.jar', 'app/readme.txt'])
      await put(t.app, `/artifactory/repo-c/${path}`, path);
    await put(t.app, '/artifactory/repo-d/oops/creds.txt', 'password=hunter2');
    for (const name of ['vdeployer', 'ldeployer', 'vreader', 'both', 'pat', 'dreader', 'ddeleter'])
      users[name] = await createUser(t.app, name);
    const target = (name: string, repo: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/artifactory/api/v2/security/permissions/${name}`,
        headers: ADMIN_BASIC,
        payload: { repo },
      });
    await target('v-deploy', { repositories: ['v'], actions: { users: { vdeployer: ['read', 'write'] } } });
    await target('l-deploy', { repositories: ['libs-local'], actions: { users: { ldeployer: ['read', 'write'] } } });
    await target('v-read', { repositories: ['v'], actions: { users: { vreader: ['read'], both: ['read'] } } });
    await target('l-read', { repositories: ['libs-local'], actions: { users: { both: ['read'] } } });
    await target('c-all-but-secret', {
      repositories: ['repo-c'],
      'include-patterns': ['**'],
      'exclude-patterns': ['app/release/secret.jar'],
      actions: { users: { pat: ['read', 'annotate', 'write', 'delete'] } },
    });
    await target('elsewhere-deploy', {
      repositories: ['elsewhere'],
      actions: { users: { pat: ['read', 'write', 'delete'] } },
    });
    await target('d-read', { repositories: ['repo-d'], actions: { users: { dreader: ['read'] } } });
    await target('d-delete', {
      repositories: ['repo-d'],
      actions: { users: { ddeleter: ['read', 'write', 'delete'] } },
    });
  });
  afterAll(() => t.close());

  const as = (user: string) => users[user]!;
  const get = (user: string, url: string) => t.app.inject({ url, headers: as(user) });
  const itemsIn = async (repo: string) =>
    (await t.app.db.selectFrom('items').select('path').where('repo_key', '=', repo).execute())
      .map((r) => r.path)
      .sort();

  it('decides a virtual deploy on the default deployment repository it lands in', async () => {
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/v/a.txt',
      headers: { ...as('vdeployer'), 'content-type': 'application/octet-stream' },
      payload: 'a',
    });
    expect(refused.statusCode).toBe(403);
    expect(await itemsIn('libs-local')).not.toContain('a.txt');
    const allowed = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/v/b.txt',
      headers: { ...as('ldeployer'), 'content-type': 'application/octet-stream' },
      payload: 'b',
    });
    expect(allowed.statusCode).toBe(201);
    expect(allowed.json()).toMatchObject({ repo: 'libs-local', path: '/b.txt' });
  });

  it('reads through a virtual repository only what the serving member lets the caller read', async () => {
    expect((await get('vreader', '/artifactory/v/x.txt')).statusCode).toBe(404);
    expect((await get('both', '/artifactory/v/x.txt')).body).toBe('from libs');
    expect((await get('both', '/artifactory/v/y.txt')).statusCode).toBe(404);
    const tree = await get('vreader', '/ui/api/v1/ui/treebrowser/children?repoKey=v&path=');
    expect((tree.json() as { items: unknown[] }).items).toEqual([]);
    const bothTree = await get('both', '/ui/api/v1/ui/treebrowser/children?repoKey=v&path=');
    expect((bothTree.json() as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
      'pkg',
      'b.txt',
      'x.txt',
    ]);
    const listed = await get('vreader', '/artifactory/api/storage/v?list&deep=1');
    expect((listed.json() as { files: unknown[] }).files).toEqual([]);
    expect((await get('vreader', '/ui/api/v1/ui/archive/entries?repoKey=v&path=pkg/lib.tgz')).statusCode).toBe(404);
    expect((await get('vreader', '/ui/api/v1/download?repoKey=v&path=x.txt')).statusCode).toBe(404);
    const index = await get('vreader', '/artifactory/v/');
    expect(index.body).not.toContain('x.txt');
  });

  it('refuses a folder operation when an exclude pattern refuses an item below it, and changes nothing', async () => {
    const before = await countRows(t.app, 'items');
    const post = (url: string) => t.app.inject({ method: 'POST', url, headers: as('pat') });
    expect((await get('pat', '/artifactory/repo-c/app/release/secret.jar')).statusCode).toBe(403);
    expect((await post('/artifactory/api/copy/repo-c/app?to=/elsewhere/app')).statusCode).toBe(403);
    expect((await post('/artifactory/api/move/repo-c/app?to=/elsewhere/app')).statusCode).toBe(403);
    const consoleCopy = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactactions/copy',
      headers: { ...as('pat'), ...XHR },
      payload: { repoKey: 'repo-c', path: 'app', targetRepoKey: 'elsewhere', targetPath: 'app' },
    });
    expect(consoleCopy.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/artifactory/repo-c/app', headers: as('pat') })).statusCode,
    ).toBe(403);
    const props = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/storage/repo-c/app?properties=qa=done&recursive=1',
      headers: as('pat'),
    });
    expect(props.statusCode).toBe(403);
    expect(await countRows(t.app, 'items')).toBe(before);
    expect(await countRows(t.app, 'item_properties')).toBe(0);
    expect(await itemsIn('elsewhere')).toEqual([]);
    // what the patterns allow still works: a file, and a folder with nothing excluded below it
    expect((await post('/artifactory/api/copy/repo-c/app/readme.txt?to=/elsewhere/readme.txt')).statusCode).toBe(200);
    const index = await get('pat', '/artifactory/repo-c/app/release/');
    expect(index.body).toContain('public.jar');
    expect(index.body).not.toContain('secret.jar');
  });

  it('authorises trash items against where they were deleted from; no grant covers the trash can itself', async () => {
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/artifactory/repo-d/oops/creds.txt', headers: ADMIN_BASIC }))
        .statusCode,
    ).toBe(204);
    await changeSecuritySettings(t.app, { anonymousAccess: true });
    try {
      const anon = (url: string) => t.app.inject({ url });
      expect((await anon('/artifactory/auto-trashcan/repo-d/oops/creds.txt')).statusCode).toBe(401);
      expect((await anon('/artifactory/api/storage/auto-trashcan?list&deep=1')).statusCode).toBe(401);
      expect((await get('dreader', '/artifactory/auto-trashcan/repo-d/oops/creds.txt')).statusCode).toBe(403);
      expect((await get('dreader', '/artifactory/api/storage/auto-trashcan?list&deep=1')).statusCode).toBe(403);
      expect((await get('ddeleter', '/artifactory/auto-trashcan/repo-d/oops/creds.txt')).body).toBe('password=hunter2');
      const restored = await t.app.inject({
        method: 'POST',
        url: '/artifactory/api/trash/restore/repo-d/oops/creds.txt',
        headers: as('ddeleter'),
      });
      expect(restored.statusCode).toBe(200);
      expect((await get('dreader', '/artifactory/repo-d/oops/creds.txt')).body).toBe('password=hunter2');
    } finally {
      await changeSecuritySettings(t.app, { anonymousAccess: false });
    }
  });

  it('applies the property key rule to every way properties arrive', async () => {
    const before = await countRows(t.app, 'items');
    const reserved = await put(t.app, '/artifactory/libs-local/p.txt;trash.time=1', 'p');
    expect(reserved.statusCode).toBe(400);
    expect(messages(reserved)).toEqual([ARTIFACT_MESSAGES.propertyKeyReserved]);
    const markup = await put(t.app, '/artifactory/libs-local/p.txt;%3Cb%3E=1', 'p');
    expect(messages(markup)).toEqual([ARTIFACT_MESSAGES.propertyKey]);
    expect(await countRows(t.app, 'items')).toBe(before);
    const viaStorage = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/storage/libs-local/x.txt?properties=trash.originalRepository=elsewhere',
      headers: ADMIN_BASIC,
    });
    expect(viaStorage.statusCode).toBe(400);
    const nul = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/storage/libs-local/x.txt?properties=a%00b=1',
      headers: ADMIN_BASIC,
    });
    expect(nul.statusCode).toBe(400);
  });

  it('refuses a remote repository on a link-local or loopback address unless allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/', 'http://127.0.0.1:8082/artifactory/x/', 'http://localhost/']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/repositories/meta-remote',
        headers: ADMIN_BASIC,
        payload: { rclass: 'remote', url },
      });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('keeps per-repository usage counters equal to a full count after every kind of change', async () => {
    const usage = async () =>
      Object.fromEntries(
        (await t.app.db.selectFrom('repository_usage').selectAll().execute())
          .map((r) => [r.repo_key, [Number(r.files), Number(r.folders), Number(r.size)]])
          .filter(([, v]) => (v as number[]).some((n) => n !== 0)),
      );
    const counted = async () => {
      const rows = await t.app.db.selectFrom('items').select(['repo_key', 'folder', 'size']).execute();
      const result: Record<string, number[]> = {};
      for (const row of rows) {
        const entry = (result[row.repo_key] ??= [0, 0, 0]);
        if (row.folder === 1) entry[1]! += 1;
        else {
          entry[0]! += 1;
          entry[2]! += Number(row.size);
        }
      }
      return result;
    };
    await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/copy/repo-c/app?to=/elsewhere/c2',
      headers: ADMIN_BASIC,
    });
    await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/move/elsewhere/c2?to=/other-local/moved',
      headers: ADMIN_BASIC,
    });
    await t.app.inject({ method: 'DELETE', url: '/artifactory/other-local/moved/release', headers: ADMIN_BASIC });
    await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/trash/restore/other-local/moved/release',
      headers: ADMIN_BASIC,
    });
    await put(t.app, '/artifactory/libs-local/x.txt', 'replaced with longer content');
    expect(await usage()).toEqual(await counted());
    const summary = await t.app.inject({ url: '/ui/api/v1/ui/storagesummary', headers: ADMIN_BASIC });
    const libs = (summary.json() as { repositories: { repoKey: string; filesCount: number }[] }).repositories.find(
      (r) => r.repoKey === 'libs-local',
    );
    expect(libs?.filesCount).toBe((await counted())['libs-local']![0]);
  });

  it('answers the actions a caller may take on a path, with the reason for each refusal', async () => {
    const allowed = async (user: string, repoKey: string, path: string) =>
      (
        await get(user, `/ui/api/v1/ui/artifactactions/allowed?repoKey=${repoKey}&path=${encodeURIComponent(path)}`)
      ).json() as { allowed: string[]; reasons: Record<string, string> };
    const reader = await allowed('dreader', 'repo-d', 'oops/creds.txt');
    expect(reader.allowed).toEqual(['read']);
    expect(reader.reasons.delete).toBe("You do not have delete permission on 'repo-d/oops/creds.txt'.");
    expect(reader.reasons.copy).toBe('No local generic repository where you may deploy.');
    const deleter = await allowed('ddeleter', 'repo-d', 'oops/creds.txt');
    expect(deleter.allowed).toEqual(['read', 'deploy', 'annotate', 'delete', 'copy', 'move']);
    // a virtual deploy is decided on the repository it lands in
    const viaVirtual = await allowed('vdeployer', 'v', '');
    expect(viaVirtual.allowed).not.toContain('deploy');
    expect(viaVirtual.reasons.deploy).toBe("You do not have deploy permission on 'libs-local'.");
    // the pattern that hides a file refuses even the question
    expect(
      (await get('pat', '/ui/api/v1/ui/artifactactions/allowed?repoKey=repo-c&path=app/release/secret.jar')).statusCode,
    ).toBe(403);
    // copy targets: local, same package type, deployable
    const targets = (await get('pat', '/ui/api/v1/ui/artifactactions/targets?repoKey=repo-c&path=app')).json() as {
      repoKey: string;
    }[];
    expect(targets.map((r) => r.repoKey)).toEqual(['elsewhere', 'repo-c']);
  });
});
