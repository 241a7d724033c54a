import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  repositoryFiles,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { zipOf } from '../../test/zip.js';
import { BUNDLE_MESSAGES } from './artifacts.bundle.js';

async function tgzOf(entries: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, body] of Object.entries(entries)) pack.entry({ name }, body);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** The deploy dialog's calls: a file with properties, and an archive deployed as a bundle. */
describe.each(ENGINES)('deploying from the console on %s', (engine) => {
  let t: TestApp;
  let dev: Record<string, string>;
  const upload = (url: string, body: Buffer | string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({
      method: 'PUT',
      url: `/ui/api/v1/ui/artifact/${url}`,
      headers: { ...headers, ...XHR, 'content-type': 'application/octet-stream' },
      payload: body,
    });
  const props = async (repoPath: string) =>
    (
      (await t.app.inject({ url: `/artifactory/api/storage/${repoPath}?properties`, headers: ADMIN_BASIC })).json() as {
        properties?: Record<string, string[]>;
      }
    ).properties;

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs', { rclass: 'local' });
    dev = await createUser(t.app, 'dev');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/dev',
      headers: ADMIN_BASIC,
      payload: {
        repo: {
          repositories: ['libs'],
          'include-patterns': ['site/**'],
          actions: { users: { dev: ['read', 'write'] } },
        },
      },
    });
  });
  afterAll(() => t.close());

  it('sets properties on a deployed file', async () => {
    const res = await upload('upload?repoKey=libs&path=one/a.txt&properties=release%3D1.0%3Bteam%3Dweb%2Capi', 'a');
    expect(res.statusCode).toBe(201);
    expect(await props('libs/one/a.txt')).toEqual({ release: ['1.0'], team: ['api', 'web'] });
  });

  it('deploys the files of a zip and of a tar.gz under a folder, with properties', async () => {
    const zip = zipOf({ 'index.html': '<h1>hi</h1>', 'css/site.css': 'body{}', 'img/': '' });
    const zipped = await upload('upload/bundle?repoKey=libs&path=site/v1&name=site.zip&properties=build%3D7', zip);
    expect(zipped.statusCode).toBe(201);
    expect(zipped.json()).toEqual({
      repo: 'libs',
      path: 'site/v1',
      files: ['site/v1/index.html', 'site/v1/css/site.css'],
    });
    expect((await t.app.inject({ url: '/artifactory/libs/site/v1/css/site.css', headers: ADMIN_BASIC })).body).toBe(
      'body{}',
    );
    expect(await props('libs/site/v1/index.html')).toEqual({ build: ['7'] });
    const tgz = await tgzOf({ 'docs/readme.md': '# docs', 'docs/guide.md': 'guide' });
    const untarred = await upload('upload/bundle?repoKey=libs&path=site/v2&name=docs.tar.gz', tgz);
    expect(untarred.json()).toMatchObject({ files: ['site/v2/docs/readme.md', 'site/v2/docs/guide.md'] });
    expect((await t.app.inject({ url: '/artifactory/libs/site/v2/docs/guide.md', headers: ADMIN_BASIC })).body).toBe(
      'guide',
    );
  });

  it('refuses a bad bundle, or one with a file the caller may not deploy, and stores nothing of it', async () => {
    const before = await repositoryFiles(t.app);
    const traversal = await upload(
      'upload/bundle?repoKey=libs&path=site/x&name=evil.zip',
      zipOf({ '../../escape.txt': 'x' }),
    );
    expect(traversal.statusCode).toBe(400);
    const notArchive = await upload('upload/bundle?repoKey=libs&path=site/x&name=notes.txt', 'just text');
    expect([notArchive.statusCode, notArchive.json().errors[0].message]).toEqual([400, BUNDLE_MESSAGES.notArchive]);
    const broken = await upload('upload/bundle?repoKey=libs&path=site/x&name=broken.zip', 'PK not really');
    expect([broken.statusCode, broken.json().errors[0].message]).toEqual([400, BUNDLE_MESSAGES.broken]);
    // dev may deploy under site/ only: one file elsewhere refuses the whole bundle
    const outside = await upload(
      'upload/bundle?repoKey=libs&path=&name=mixed.zip',
      zipOf({ 'site/ok.txt': 'ok', 'private/no.txt': 'no' }),
      dev,
    );
    expect([outside.statusCode, outside.json().errors[0].message]).toEqual([
      403,
      "You do not have deploy permission on 'libs/private/no.txt'.",
    ]);
    const dotted = await upload('upload/bundle?repoKey=libs&path=site/../x&name=a.zip', zipOf({ 'a.txt': 'a' }));
    expect(dotted.statusCode).toBe(400);
    expect(await repositoryFiles(t.app)).toEqual(before);
  });
});
