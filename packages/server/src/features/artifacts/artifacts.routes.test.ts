import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import { collectGarbage } from './artifacts.gc.js';
import { putSetting } from '../../core/settings.store.js';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  countRows,
  createRepo,
  login,
  messages,
  put,
  startTestApp,
  storedFiles,
  type TestApp,
} from '../../test/harness.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const sha1 = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');

describe.each(ENGINES)('artifacts on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local', packageType: 'generic' });
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { ...ADMIN_BASIC, ...headers } });
  const nothingWritten = async () => {
    expect(await countRows(t.app, 'items')).toBe(0);
    expect(await countRows(t.app, 'binaries')).toBe(0);
    expect(storedFiles(t.dataDir)).toEqual([]);
  };

  it('deploys with verified checksums and answers the ItemCreated body', async () => {
    const body = 'hello arca\n';
    const res = await put(t.app, '/artifactory/libs-local/org/acme/app-1.0.txt', body, {
      'x-checksum-sha256': sha256(body),
      'x-checksum-sha1': sha1(body),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      repo: 'libs-local',
      path: '/org/acme/app-1.0.txt',
      createdBy: 'admin',
      mimeType: 'text/plain',
      size: '11',
      checksums: { sha256: sha256(body), sha1: sha1(body) },
      downloadUri: expect.stringMatching(/\/artifactory\/libs-local\/org\/acme\/app-1\.0\.txt$/),
    });
    // folders are created implicitly
    const folder = (await get('/artifactory/api/storage/libs-local/org')).json();
    expect(folder.children).toEqual([{ uri: '/acme', folder: true }]);
    const events = await t.app.db
      .selectFrom('events')
      .select(['type', 'path'])
      .where('type', '=', 'artifact.deployed')
      .execute();
    expect(events).toEqual([{ type: 'artifact.deployed', path: 'org/acme/app-1.0.txt' }]);
  });

  it('takes concurrent deploys of one new path, each answered 201, the last one kept', async () => {
    // two CI jobs publishing the same file at once: neither may fail on the other's row
    const bodies = Array.from({ length: 8 }, (_, i) => `build ${i}\n`);
    for (const path of ['race/new.txt', 'race/new.txt', 'race/deeper/new.txt']) {
      const answers = await Promise.all(bodies.map((body) => put(t.app, `/artifactory/libs-local/${path}`, body)));
      expect(answers.map((a) => a.statusCode)).toEqual(bodies.map(() => 201));
      const stored = await get(`/artifactory/libs-local/${path}`);
      expect(bodies).toContain(stored.body);
    }
    const files = await t.app.db
      .selectFrom('items')
      .select('path')
      .where('repo_key', '=', 'libs-local')
      .where('folder', '=', 0)
      .execute();
    expect(files.map((f) => f.path).sort()).toEqual(['race/deeper/new.txt', 'race/new.txt']);
    const usage = (await get('/artifactory/api/storageinfo')).json() as {
      repositoriesSummaryList: { repoKey: string; filesCount: number }[];
    };
    expect(usage.repositoriesSummaryList.find((r) => r.repoKey === 'libs-local')?.filesCount).toBe(2);
  });

  it('computes the same checksums for a large deploy, hashed on two threads', async () => {
    const body = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4) body.writeUInt32LE((i * 2654435761) >>> 0, i);
    const md5 = createHash('md5').update(body).digest('hex');
    const res = await put(t.app, '/artifactory/libs-local/large.bin', body, {
      'x-checksum-sha1': sha1(body),
      'x-checksum-md5': md5,
      'x-checksum-sha256': sha256(body),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().checksums).toEqual({ sha1: sha1(body), md5, sha256: sha256(body) });
    const wrong = await put(t.app, '/artifactory/libs-local/large2.bin', body, { 'x-checksum-md5': '0'.repeat(32) });
    expect(wrong.statusCode).toBe(409);
  });

  it('refuses a checksum mismatch and stores nothing', async () => {
    const res = await put(t.app, '/artifactory/libs-local/a.txt', 'content', { 'x-checksum-sha1': sha1('other') });
    expect(res.statusCode).toBe(409);
    expect(messages(res)[0]).toContain('Checksum mismatch: X-Checksum-Sha1');
    await nothingWritten();
  });

  it('deploys by checksum without a body, or answers 404', async () => {
    await put(t.app, '/artifactory/libs-local/first.bin', 'same bytes');
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/libs-local/second.bin',
      headers: { ...ADMIN_BASIC, 'x-checksum-deploy': 'true', 'x-checksum-sha256': sha256('same bytes') },
    });
    expect(ok.statusCode).toBe(201);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/libs-local/third.bin',
      headers: { ...ADMIN_BASIC, 'x-checksum-deploy': 'true', 'x-checksum-sha1': sha1('never stored') },
    });
    expect(missing.statusCode).toBe(404);
    expect(messages(missing)).toEqual([ARTIFACT_MESSAGES.checksumDeployNotFound]);
    // two items, one binary referenced twice
    const binaries = await t.app.db.selectFrom('binaries').selectAll().execute();
    expect(binaries.map((b) => Number(b.ref_count))).toEqual([2]);
  });

  it('sets properties from matrix parameters', async () => {
    await put(t.app, '/artifactory/libs-local/p.txt;build.number=42;os=linux,windows', 'p');
    const props = (await get('/artifactory/api/storage/libs-local/p.txt?properties')).json();
    expect(props.properties).toEqual({ 'build.number': ['42'], os: ['linux', 'windows'] });
  });

  it.each([
    ['dot-dot', '/artifactory/libs-local/a/../../etc/passwd'],
    ['encoded dot-dot', '/artifactory/libs-local/a/%2e%2e/x.txt'],
    ['double-encoded dot-dot', '/artifactory/libs-local/a/%252e%252e/x.txt'],
    ['encoded slash', '/artifactory/libs-local/a%2f..%2fx.txt'],
    ['encoded backslash', '/artifactory/libs-local/a%5cx.txt'],
    ['NUL', '/artifactory/libs-local/a%00.txt'],
    ['over-long name', `/artifactory/libs-local/${'n'.repeat(256)}.txt`],
    ['over-long path', `/artifactory/libs-local/${Array.from({ length: 120 }, () => 'segment0').join('/')}/f.txt`],
  ])('refuses %s with a clear error and writes nothing', async (_name, url) => {
    // over a real socket: the path reaches the server exactly as a client (curl --path-as-is) sends it
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: url, headers: ADMIN_BASIC }, (r) => {
        let body = '';
        r.on('data', (d: Buffer) => (body += d.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end('x');
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).errors[0].message).toMatch(/path|name/i);
    await nothingWritten();
  });

  it('refuses deploys to unknown, remote and target-less virtual repositories', async () => {
    await createRepo(t.app, 'r', { rclass: 'remote', url: 'http://upstream.invalid:9/' });
    await createRepo(t.app, 'v', { rclass: 'virtual', repositories: ['libs-local'] });
    const unknown = await put(t.app, '/artifactory/nope/a.txt', 'x');
    expect([unknown.statusCode, messages(unknown)]).toEqual([404, ["Repository 'nope' was not found."]]);
    const remote = await put(t.app, '/artifactory/r/a.txt', 'x');
    expect([remote.statusCode, messages(remote)]).toEqual([405, ["Cannot deploy to remote repository 'r'."]]);
    const virtual = await put(t.app, '/artifactory/v/a.txt', 'x');
    expect([virtual.statusCode, messages(virtual)]).toEqual([
      405,
      ["Virtual repository 'v' has no default deployment repository."],
    ]);
    await nothingWritten();
  });

  it('deploys through a virtual repository to its default deployment repository and resolves through it', async () => {
    await createRepo(t.app, 'v', {
      rclass: 'virtual',
      repositories: ['libs-local'],
      defaultDeploymentRepo: 'libs-local',
    });
    expect((await put(t.app, '/artifactory/v/x/y.txt', 'via virtual')).json().repo).toBe('libs-local');
    expect((await get('/artifactory/v/x/y.txt')).body).toBe('via virtual');
    expect((await get('/artifactory/libs-local/x/y.txt')).body).toBe('via virtual');
  });

  it('refuses a file under a file, a file over a folder, and paths the patterns exclude', async () => {
    await put(t.app, '/artifactory/libs-local/a/b.txt', 'b');
    const under = await put(t.app, '/artifactory/libs-local/a/b.txt/c.txt', 'c');
    expect([under.statusCode, messages(under)]).toEqual([
      409,
      ["'a/b.txt' is a file, so nothing can be stored under it."],
    ]);
    const over = await put(t.app, '/artifactory/libs-local/a', 'c');
    expect([over.statusCode, messages(over)]).toEqual([409, ["'a' is a folder and cannot be replaced by a file."]]);
    await createRepo(t.app, 'jars', {
      rclass: 'local',
      includesPattern: '**/*.jar',
      excludesPattern: '**/internal/**',
    });
    expect((await put(t.app, '/artifactory/jars/lib/a.jar', 'j')).statusCode).toBe(201);
    expect((await put(t.app, '/artifactory/jars/lib/a.txt', 'j')).statusCode).toBe(403);
    expect((await put(t.app, '/artifactory/jars/internal/a.jar', 'j')).statusCode).toBe(403);
  });

  it('downloads with checksum headers, ETag, ranges and conditional requests', async () => {
    const body = '0123456789abcdef';
    await put(t.app, '/artifactory/libs-local/r.bin', body);
    const full = await get('/artifactory/libs-local/r.bin');
    expect(full.statusCode).toBe(200);
    expect(full.body).toBe(body);
    expect(full.headers).toMatchObject({
      'x-checksum-sha256': sha256(body),
      'x-checksum-sha1': sha1(body),
      etag: `"${sha1(body)}"`,
      'accept-ranges': 'bytes',
      'content-length': '16',
    });
    expect(full.headers['last-modified']).toBeTruthy();
    const head = await t.app.inject({ method: 'HEAD', url: '/artifactory/libs-local/r.bin', headers: ADMIN_BASIC });
    expect([head.statusCode, head.body, head.headers['x-checksum-sha256']]).toEqual([200, '', sha256(body)]);
    const range = await get('/artifactory/libs-local/r.bin', { range: 'bytes=2-5' });
    expect([range.statusCode, range.body, range.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/16']);
    const suffix = await get('/artifactory/libs-local/r.bin', { range: 'bytes=-3' });
    expect(suffix.body).toBe('def');
    const bad = await get('/artifactory/libs-local/r.bin', { range: 'bytes=99-' });
    expect([bad.statusCode, bad.headers['content-range']]).toEqual([416, 'bytes */16']);
    const cached = await get('/artifactory/libs-local/r.bin', { 'if-none-match': `"${sha1(body)}"` });
    expect(cached.statusCode).toBe(304);
    const missing = await get('/artifactory/libs-local/nope.bin');
    expect([missing.statusCode, messages(missing)]).toEqual([
      404,
      ['The object you were looking for could not be found.'],
    ]);
  });

  it('answers storage info, deep listings and property changes the Artifactory way', async () => {
    await put(t.app, '/artifactory/libs-local/a/one.txt', '1');
    await put(t.app, '/artifactory/libs-local/a/b/two.txt', '22');
    const info = (await get('/artifactory/api/storage/libs-local/a/b/two.txt')).json();
    expect(info).toMatchObject({
      repo: 'libs-local',
      path: '/a/b/two.txt',
      size: '2',
      checksums: { sha256: sha256('22') },
    });
    const list = (await get('/artifactory/api/storage/libs-local/a?list&deep=1')).json();
    expect(list.files.map((f: { uri: string }) => f.uri).sort()).toEqual(['/b/two.txt', '/one.txt']);
    const withFolders = (await get('/artifactory/api/storage/libs-local/a?list&deep=1&listFolders=1')).json();
    expect(withFolders.files.map((f: { uri: string }) => f.uri).sort()).toEqual(['/b', '/b/two.txt', '/one.txt']);

    const set = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/storage/libs-local/a?properties=qa=passed;tags=x,y&recursive=1',
      headers: ADMIN_BASIC,
    });
    expect(set.statusCode).toBe(204);
    expect((await get('/artifactory/api/storage/libs-local/a/b/two.txt?properties')).json().properties).toEqual({
      qa: ['passed'],
      tags: ['x', 'y'],
    });
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/api/storage/libs-local/a/one.txt?properties=tags&recursive=0',
      headers: ADMIN_BASIC,
    });
    expect(del.statusCode).toBe(204);
    expect((await get('/artifactory/api/storage/libs-local/a/one.txt?properties')).json().properties).toEqual({
      qa: ['passed'],
    });
    const types = await t.app.db
      .selectFrom('events')
      .select('type')
      .where('type', 'like', 'artifact.property.%')
      .execute();
    expect(types.map((e) => e.type)).toEqual(['artifact.property.added', 'artifact.property.deleted']);
  });

  it('copies and moves files and folders', async () => {
    await createRepo(t.app, 'release-local', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/app/1.0/app.jar;stage=rc', 'jar');
    const copy = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/copy/libs-local/app?to=/release-local/app',
      headers: ADMIN_BASIC,
    });
    expect(copy.statusCode).toBe(200);
    expect(copy.json().messages[0].message).toContain('completed successfully, 1 artifacts were copied');
    expect((await get('/artifactory/release-local/app/1.0/app.jar')).body).toBe('jar');
    expect((await get('/artifactory/api/storage/release-local/app/1.0/app.jar?properties')).json().properties).toEqual({
      stage: ['rc'],
    });
    const move = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/move/libs-local/app/1.0/app.jar?to=/libs-local/archive/app.jar',
      headers: ADMIN_BASIC,
    });
    expect(move.statusCode).toBe(200);
    expect((await get('/artifactory/libs-local/app/1.0/app.jar')).statusCode).toBe(404);
    expect((await get('/artifactory/libs-local/archive/app.jar')).body).toBe('jar');
    const into = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/copy/libs-local/archive?to=/libs-local/archive/inner',
      headers: ADMIN_BASIC,
    });
    expect([into.statusCode, messages(into)]).toEqual([400, [ARTIFACT_MESSAGES.copyIntoItself]]);
    const noTo = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/copy/libs-local/archive',
      headers: ADMIN_BASIC,
    });
    expect(noTo.statusCode).toBe(400);
  });

  it('deletes to the trash can, restores to the original path, and deletes for good from the trash', async () => {
    await put(t.app, '/artifactory/libs-local/d/keep.txt', 'keep');
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/libs-local/d/keep.txt',
      headers: ADMIN_BASIC,
    });
    expect(del.statusCode).toBe(204);
    expect((await get('/artifactory/libs-local/d/keep.txt')).statusCode).toBe(404);
    const inTrash = await get('/artifactory/api/storage/auto-trashcan/libs-local/d/keep.txt');
    expect(inTrash.statusCode).toBe(200);
    const props = (await get('/artifactory/api/storage/auto-trashcan/libs-local/d/keep.txt?properties')).json()
      .properties;
    expect(props).toMatchObject({
      'trash.originalRepository': ['libs-local'],
      'trash.originalPath': ['d/keep.txt'],
      'trash.deletedBy': ['admin'],
    });

    const restore = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/trash/restore/libs-local/d/keep.txt',
      headers: ADMIN_BASIC,
    });
    expect(restore.statusCode).toBe(200);
    expect((await get('/artifactory/libs-local/d/keep.txt')).body).toBe('keep');
    expect((await get('/artifactory/api/storage/libs-local/d/keep.txt?properties')).statusCode).toBe(404);
    // nothing is left behind in the trash can
    expect((await get('/artifactory/api/storage/auto-trashcan/libs-local')).statusCode).toBe(404);

    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs-local/d', headers: ADMIN_BASIC });
    await t.app.inject({ method: 'DELETE', url: '/artifactory/auto-trashcan/libs-local/d', headers: ADMIN_BASIC });
    expect((await get('/artifactory/api/storage/auto-trashcan/libs-local/d/keep.txt')).statusCode).toBe(404);
    const binaries = await t.app.db.selectFrom('binaries').select('ref_count').execute();
    expect(binaries.map((b) => Number(b.ref_count))).toEqual([0]);
    // garbage collection removes the unreferenced content once its grace period has passed
    expect(await collectGarbage(t.app.db, t.app.binaries, Date.now() + 2 * 3600_000)).toEqual({
      binaries: 1,
      orphans: 0,
    });
    expect(storedFiles(t.dataDir)).toEqual([]);
  });

  it('empties the trash can and keeps what was deleted recently when asked for expired items only', async () => {
    await put(t.app, '/artifactory/libs-local/x.txt', 'x');
    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs-local/x.txt', headers: ADMIN_BASIC });
    const empty = await t.app.inject({ method: 'POST', url: '/artifactory/api/trash/empty', headers: ADMIN_BASIC });
    expect(empty.body).toBe('Trash can emptied: 1 file(s) removed.');
    expect(await countRows(t.app, 'items')).toBe(0);
    // the administrator who emptied it is in the audit trail
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['actor', 'action', 'target', 'details'])
      .where('action', '=', 'trash.empty')
      .execute();
    expect(audit).toEqual([
      {
        actor: 'admin',
        action: 'trash.empty',
        target: 'auto-trashcan',
        details: JSON.stringify({ after: { files: 1 } }),
      },
    ]);
  });

  it('lets anonymous users read only when anonymous access is on', async () => {
    await put(t.app, '/artifactory/libs-local/pub.txt', 'public');
    const refused = await t.app.inject({ url: '/artifactory/libs-local/pub.txt' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="Arca"');
    await putSetting(t.app.db, 'security.anonymousAccess', true);
    expect((await t.app.inject({ url: '/artifactory/libs-local/pub.txt' })).body).toBe('public');
    const deploy = await t.app.inject({ method: 'PUT', url: '/artifactory/libs-local/new.txt', payload: 'x' });
    expect(deploy.statusCode).toBe(401);
  });

  it('serves the tree browser, general info, properties, view and upload to the console', async () => {
    const { cookie } = await login(t.app);
    const headers = { ...XHR, cookie };
    const upload = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/artifact/upload?repoKey=libs-local&path=docs/readme.md',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      payload: '# Readme\n',
    });
    expect(upload.statusCode).toBe(201);
    const repos = (await t.app.inject({ url: '/ui/api/v1/ui/treebrowser/repos', headers })).json();
    expect(repos).toEqual([
      { repoKey: 'libs-local', repoType: 'local', pkgType: 'generic', description: '', hasChildren: true },
      expect.objectContaining({ repoKey: 'auto-trashcan', repoType: 'trashcan' }),
    ]);
    const filtered = (
      await t.app.inject({ url: '/ui/api/v1/ui/treebrowser/repos?repo_type=trashcan', headers })
    ).json();
    expect(filtered.map((r: { repoKey: string }) => r.repoKey)).toEqual(['auto-trashcan']);
    const children = (
      await t.app.inject({ url: '/ui/api/v1/ui/treebrowser/children?repoKey=libs-local&path=docs', headers })
    ).json();
    expect(children).toEqual({
      items: [expect.objectContaining({ name: 'readme.md', type: 'file', size: 9 })],
      total: 1,
      offset: 0,
    });
    const general = (
      await t.app.inject({ url: '/ui/api/v1/ui/artifactgeneral?repoKey=libs-local&path=docs/readme.md', headers })
    ).json();
    expect(general).toMatchObject({
      name: 'readme.md',
      type: 'file',
      createdBy: 'admin',
      checksums: { sha256: sha256('# Readme\n') },
    });
    const view = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactactions/view',
      headers,
      payload: { repoKey: 'libs-local', path: 'docs/readme.md' },
    });
    expect(view.json()).toEqual({ fileContent: '# Readme\n', truncated: false });
    const setProp = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactproperties',
      headers,
      payload: { repoKey: 'libs-local', path: 'docs/readme.md', key: 'reviewed', values: ['yes'] },
    });
    expect(setProp.statusCode).toBe(204);
    const badKey = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/artifactproperties',
      headers,
      payload: { repoKey: 'libs-local', path: 'docs/readme.md', key: 'bad key!', values: ['x'] },
    });
    expect(badKey.statusCode).toBe(400);
    expect(
      (
        await t.app.inject({ url: '/ui/api/v1/ui/artifactproperties?repoKey=libs-local&path=docs/readme.md', headers })
      ).json(),
    ).toEqual({ reviewed: ['yes'] });
    const missing = await t.app.inject({ url: '/ui/api/v1/ui/artifactgeneral?repoKey=libs-local&path=nope', headers });
    expect(messages(missing)).toEqual(['The object you were looking for could not be found.']);
    const download = await t.app.inject({ url: '/ui/api/v1/download?repoKey=libs-local&path=docs/readme.md', headers });
    expect(download.body).toBe('# Readme\n');
  });

  it('pages the children of a large folder', async () => {
    const now = Date.now();
    const rows = Array.from({ length: 450 }, (_, i) => ({
      id: `id-${i}`,
      repo_key: 'libs-local',
      path: `big/f${String(i).padStart(4, '0')}.txt`,
      parent: 'big',
      name: `f${String(i).padStart(4, '0')}.txt`,
      folder: 0,
      sha256: null,
      size: 1,
      mime_type: 'text/plain',
      created_at: now,
      created_by: 'admin',
      modified_at: now,
      modified_by: 'admin',
    }));
    for (let i = 0; i < rows.length; i += 100)
      await t.app.db
        .insertInto('items')
        .values(rows.slice(i, i + 100))
        .execute();
    const { cookie } = await login(t.app);
    const page = (
      await t.app.inject({
        url: '/ui/api/v1/ui/treebrowser/children?repoKey=libs-local&path=big&offset=400&limit=200',
        headers: { cookie },
      })
    ).json();
    expect(page.total).toBe(450);
    expect(page.items).toHaveLength(50);
    expect(page.items[0].name).toBe('f0400.txt');
  });

  it('lists and reads the entries of a tgz archive', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'package/package.json' }, '{"name":"demo"}');
    pack.entry({ name: 'package/index.js' }, 'module.exports = 1;');
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
    await put(t.app, '/artifactory/libs-local/demo-1.0.0.tgz', gzipSync(Buffer.concat(chunks)));
    const { cookie } = await login(t.app);
    const listed = await t.app.inject({
      url: '/ui/api/v1/ui/archive/entries?repoKey=libs-local&path=demo-1.0.0.tgz',
      headers: { cookie },
    });
    const entries = listed.json();
    expect(entries.map((e: { path: string }) => e.path)).toEqual(['package/package.json', 'package/index.js']);
    const source = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/archiveViewSource',
      headers: { ...XHR, cookie },
      payload: { repoKey: 'libs-local', archivePath: 'demo-1.0.0.tgz', sourcePath: 'package/package.json' },
    });
    expect(source.json()).toEqual({ fileContent: '{"name":"demo"}', truncated: false });
  });

  it('reports storage with the deduplication gain', async () => {
    await createRepo(t.app, 'other-local', { rclass: 'local' });
    const blob = Buffer.alloc(4096, 7);
    await put(t.app, '/artifactory/libs-local/a.bin', blob);
    await put(t.app, '/artifactory/other-local/b.bin', blob);
    const { cookie } = await login(t.app);
    const summary = (await t.app.inject({ url: '/ui/api/v1/ui/storagesummary', headers: { cookie } })).json();
    expect(summary).toMatchObject({
      binariesCount: 1,
      binariesSize: 4096,
      artifactsCount: 2,
      artifactsSize: 8192,
      optimization: 50,
    });
    expect(summary.repositories.find((r: { repoKey: string }) => r.repoKey === 'libs-local')).toMatchObject({
      filesCount: 1,
      usedSpace: 4096,
      percentage: 50,
    });
  });
});
