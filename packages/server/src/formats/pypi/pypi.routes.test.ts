import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PYPI_SIMPLE_JSON } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  countRows,
  createRepo,
  createUser,
  repositoryFiles,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const API = '/artifactory/api/pypi';

/** The multipart body twine sends for one file. */
async function uploadBody(
  name: string,
  version: string,
  filename: string,
  bytes: Buffer,
  extra: Record<string, string | string[]> = {},
  /** Fields sent after the file, as some clients order the form. */
  after: Record<string, string> = {},
) {
  const form = new FormData();
  const fields: Record<string, string | string[]> = {
    ':action': 'file_upload',
    protocol_version: '1',
    metadata_version: '2.1',
    name,
    version,
    filetype: filename.endsWith('.whl') ? 'bdist_wheel' : 'sdist',
    pyversion: filename.endsWith('.whl') ? 'py3' : 'source',
    summary: `${name} for tests`,
    requires_python: '>=3.8',
    requires_dist: ['requests>=2', 'click'],
    sha256_digest: createHash('sha256').update(bytes).digest('hex'),
    md5_digest: createHash('md5').update(bytes).digest('hex'),
    ...extra,
  };
  for (const key of Object.keys(after)) delete fields[key];
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v);
  }
  form.append('content', new Blob([bytes]), filename);
  for (const [key, value] of Object.entries(after)) form.append(key, value);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

describe.each(ENGINES)('Python package index on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'pypi-local', { rclass: 'local', packageType: 'pypi' });
  });
  afterEach(async () => {
    await t.close();
  });

  const upload = async (
    repo: string,
    args: Parameters<typeof uploadBody>,
    headers: Record<string, string> = ADMIN_BASIC,
    app = t.app,
  ) => {
    const { payload, type } = await uploadBody(...args);
    return app.inject({
      method: 'POST',
      url: `${API}/${repo}`,
      headers: { ...headers, 'content-type': type },
      payload,
    });
  };
  const get = (url: string, headers: Record<string, string> = ADMIN_BASIC) => t.app.inject({ url, headers });
  const storedFiles = () => repositoryFiles(t.app);

  it('takes twine uploads of a wheel and an sdist and lists them in the simple index, HTML and JSON', async () => {
    const wheel = Buffer.from('wheel bytes');
    const sdist = Buffer.from('sdist bytes');
    expect((await upload('pypi-local', ['My_Pkg', '1.0', 'my_pkg-1.0-py3-none-any.whl', wheel])).statusCode).toBe(200);
    expect((await upload('pypi-local', ['My_Pkg', '1.0', 'my_pkg-1.0.tar.gz', sdist])).statusCode).toBe(200);
    expect(await storedFiles()).toEqual([
      '.pypi/my-pkg/index.json',
      'my-pkg/1.0/my_pkg-1.0-py3-none-any.whl',
      'my-pkg/1.0/my_pkg-1.0.tar.gz',
    ]);
    // PEP 503: any spelling of the name leads to the normalised page
    const redirect = await get(`${API}/pypi-local/simple/My_Pkg/`);
    expect([redirect.statusCode, redirect.headers.location]).toEqual([
      301,
      'http://localhost:80/artifactory/api/pypi/pypi-local/simple/my-pkg/',
    ]);
    const html = await get(`${API}/pypi-local/simple/my-pkg/`);
    expect(html.statusCode).toBe(200);
    const sha = createHash('sha256').update(wheel).digest('hex');
    expect(html.body).toContain(
      `<a href="http://localhost:80/artifactory/api/pypi/pypi-local/packages/my-pkg/1.0/my_pkg-1.0-py3-none-any.whl#sha256=${sha}" data-requires-python="&gt;=3.8">my_pkg-1.0-py3-none-any.whl</a>`,
    );
    const json = await get(`${API}/pypi-local/simple/my-pkg/`, { ...ADMIN_BASIC, accept: PYPI_SIMPLE_JSON });
    expect(json.headers['content-type']).toContain(PYPI_SIMPLE_JSON);
    expect(json.json()).toMatchObject({
      meta: { 'api-version': '1.1' },
      name: 'my-pkg',
      versions: ['1.0'],
      files: [
        { filename: 'my_pkg-1.0-py3-none-any.whl', hashes: { sha256: sha }, 'requires-python': '>=3.8', size: 11 },
        { filename: 'my_pkg-1.0.tar.gz' },
      ],
    });
    const root = await get(`${API}/pypi-local/simple/`);
    expect(root.body).toContain('<a href="my-pkg/">my-pkg</a>');
    const file = await get(`${API}/pypi-local/packages/my-pkg/1.0/my_pkg-1.0-py3-none-any.whl`);
    expect([file.statusCode, file.body]).toEqual([200, 'wheel bytes']);
    expect((await get(`${API}/pypi-local/simple/none/`)).statusCode).toBe(404);
    // the metadata twine sent is kept per version
    const index = JSON.parse((await get('/artifactory/pypi-local/.pypi/my-pkg/index.json')).body);
    expect(index.versions['1.0']).toMatchObject({
      summary: 'My_Pkg for tests',
      requires_dist: ['requests>=2', 'click'],
    });
  });

  it('refuses a bad upload with a clear message and stores nothing', async () => {
    const bytes = Buffer.from('x');
    const cases: [Parameters<typeof uploadBody>, number, string][] = [
      [['demo', '1.0', 'demo-1.0.tar.gz', bytes, { ':action': 'submit' }], 400, "Only ':action=file_upload'"],
      [['../demo', '1.0', 'demo-1.0.tar.gz', bytes], 400, "Invalid project name '../demo'"],
      [['demo', 'one', 'demo-one.tar.gz', bytes], 400, "Invalid version 'one'"],
      [['demo', '1.0', 'other-1.0.tar.gz', bytes], 400, "'other-1.0.tar.gz' is not a distribution of demo 1.0"],
      [['demo', '1.0', 'demo-2.0-py3-none-any.whl', bytes], 400, "'demo-2.0-py3-none-any.whl' is not a distribution"],
      [['demo', '1.0', 'demo-1.0.tar.gz', bytes, { sha256_digest: '0'.repeat(64) }], 409, 'Checksum mismatch'],
    ];
    for (const [args, status, message] of cases) {
      const res = await upload('pypi-local', args);
      expect([res.statusCode, messages(res)[0]?.slice(0, message.length)]).toEqual([status, message]);
    }
    expect(await storedFiles()).toEqual([]);
    expect(await countRows(t.app, 'binaries')).toBe(0);
    expect((await upload('pypi-local', ['demo', '1.0', 'demo-1.0.tar.gz', bytes])).statusCode).toBe(200);
    const again = await upload('pypi-local', ['demo', '1.0', 'demo-1.0.tar.gz', Buffer.from('other bytes')]);
    expect([again.statusCode, messages(again)]).toEqual([
      409,
      ["File already exists: 'demo-1.0.tar.gz'. A released file never changes: upload a new version."],
    ]);
    expect((await get(`${API}/pypi-local/packages/demo/1.0/demo-1.0.tar.gz`)).body).toBe('x');
  });

  it('refuses a second file whose name differs only by normalisation, and checks digests after the file', async () => {
    const bytes = Buffer.from('package bytes');
    expect((await upload('pypi-local', ['demo-pkg', '1.0', 'demo_pkg-1.0.tar.gz', bytes])).statusCode).toBe(200);
    for (const filename of ['Demo_Pkg-1.0.tar.gz', 'demo.pkg-1.0.tar.gz', 'demo-pkg-1.0.tar.gz']) {
      const twin = await upload('pypi-local', ['demo-pkg', '1.0', filename, Buffer.from('other')]);
      expect([filename, twin.statusCode]).toEqual([filename, 409]);
    }
    expect(await storedFiles()).toEqual(['.pypi/demo-pkg/index.json', 'demo-pkg/1.0/demo_pkg-1.0.tar.gz']);
    // the form's digests count wherever they stand, also after the file
    const wrongAfter = await upload('pypi-local', [
      'late',
      '1.0',
      'late-1.0.tar.gz',
      bytes,
      {},
      { sha256_digest: '0'.repeat(64), md5_digest: createHash('md5').update(bytes).digest('hex') },
    ]);
    expect([wrongAfter.statusCode, messages(wrongAfter)[0]?.slice(0, 17)]).toEqual([409, 'Checksum mismatch']);
    expect(await storedFiles()).toEqual(['.pypi/demo-pkg/index.json', 'demo-pkg/1.0/demo_pkg-1.0.tar.gz']);
    expect(fs.readdirSync(path.join(t.dataDir, 'filestore', '_uploads')).filter((f) => !f.endsWith('.owner'))).toEqual(
      [],
    );
    const rightAfter = await upload('pypi-local', [
      'late',
      '1.0',
      'late-1.0.tar.gz',
      bytes,
      {},
      { sha256_digest: createHash('sha256').update(bytes).digest('hex') },
    ]);
    expect(rightAfter.statusCode).toBe(200);
  });

  it('needs deploy to upload and read to install', async () => {
    const reader = await createUser(t.app, 'reader');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/pypi',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['pypi-local'], actions: { users: { reader: ['read'] } } } },
    });
    const args: Parameters<typeof uploadBody> = ['demo', '1.0', 'demo-1.0.tar.gz', Buffer.from('x')];
    expect((await upload('pypi-local', args, reader)).statusCode).toBe(403);
    expect((await upload('pypi-local', args, {})).statusCode).toBe(401);
    expect((await upload('pypi-local', args)).statusCode).toBe(200);
    expect((await get(`${API}/pypi-local/simple/demo/`, reader)).statusCode).toBe(200);
    expect((await get(`${API}/pypi-local/simple/demo/`, {})).statusCode).toBe(401);
  });

  it('says an unreachable upstream is unreachable, naming the repository, instead of "no such package"', async () => {
    await createRepo(t.app, 'pypi-down', {
      rclass: 'remote',
      packageType: 'pypi',
      url: 'https://pypi.upstream.invalid/',
    });
    await createRepo(t.app, 'pypi-all', {
      rclass: 'virtual',
      packageType: 'pypi',
      repositories: ['pypi-local', 'pypi-down'],
    });
    for (const url of [`${API}/pypi-down/simple/requests/`, `${API}/pypi-all/simple/requests/`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(502);
      expect(res.body, url).toContain(
        "The remote repository 'pypi-down' could not get an answer from its upstream https://pypi.upstream.invalid: its host name could not be resolved",
      );
    }
  });

  it('proxies an upstream index in a remote repository and merges it into a virtual one', async () => {
    const upstream = await startTestApp(engine);
    try {
      await createRepo(upstream.app, 'public', { rclass: 'local', packageType: 'pypi' });
      await upload(
        'public',
        ['shared', '1.0', 'shared-1.0.tar.gz', Buffer.from('upstream 1.0')],
        ADMIN_BASIC,
        upstream.app,
      );
      await upload(
        'public',
        ['shared', '2.0', 'shared-2.0.tar.gz', Buffer.from('upstream 2.0')],
        ADMIN_BASIC,
        upstream.app,
      );
      await upstream.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (upstream.app.server.address() as AddressInfo).port;
      await t.close();
      t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
      await createRepo(t.app, 'pypi-local', { rclass: 'local', packageType: 'pypi' });
      await createRepo(t.app, 'pypi-remote', {
        rclass: 'remote',
        packageType: 'pypi',
        url: `http://127.0.0.1:${port}/artifactory/api/pypi/public`,
        username: 'admin',
        password: ADMIN_PASSWORD,
      });
      await createRepo(t.app, 'pypi', {
        rclass: 'virtual',
        packageType: 'pypi',
        repositories: ['pypi-local', 'pypi-remote'],
        defaultDeploymentRepo: 'pypi-local',
      });
      // the local repository comes first: its 1.0 file wins
      expect((await upload('pypi', ['shared', '1.0', 'shared-1.0.tar.gz', Buffer.from('local 1.0')])).statusCode).toBe(
        200,
      );
      const page = await get(`${API}/pypi/simple/shared/`, { ...ADMIN_BASIC, accept: PYPI_SIMPLE_JSON });
      const files = (page.json() as { files: { filename: string; url: string }[] }).files;
      expect(files.map((f) => f.filename)).toEqual(['shared-1.0.tar.gz', 'shared-2.0.tar.gz']);
      expect(files[1]!.url).toBe(
        `http://localhost:80/artifactory/api/pypi/pypi/packages/files/127.0.0.1:${port}/artifactory/api/pypi/public/packages/shared/2.0/shared-2.0.tar.gz`,
      );
      const local = await get(new URL(files[0]!.url).pathname);
      const remote = await get(new URL(files[1]!.url).pathname);
      expect([local.body, remote.body]).toEqual(['local 1.0', 'upstream 2.0']);
      // cached: the upstream gone, the remote still answers
      await upstream.app.close();
      expect((await get(new URL(files[1]!.url).pathname)).body).toBe('upstream 2.0');
      expect((await get(`${API}/pypi-remote/simple/shared/`)).statusCode).toBe(200);
    } finally {
      await upstream.close();
    }
  });

  it('fetches only what the upstream listed: no address a caller makes up is ever asked', async () => {
    // a files host with something private on it, and an index whose page links one file there
    const asked: string[] = [];
    const files = http.createServer((request, response) => {
      asked.push(request.url ?? '');
      response.end(request.url === '/dist/listed-1.0.tar.gz' ? 'listed bytes' : 'private');
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const filesPort = (files.address() as AddressInfo).port;
    const index = http.createServer((request, response) => {
      if (request.url === '/simple/listed/') {
        response.setHeader('content-type', 'text/html');
        response.end(`<a href="http://127.0.0.1:${filesPort}/dist/listed-1.0.tar.gz">listed-1.0.tar.gz</a>`);
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => index.listen(0, '127.0.0.1', resolve));
    const indexPort = (index.address() as AddressInfo).port;
    try {
      await t.close();
      t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
      await createRepo(t.app, 'pypi-remote', {
        rclass: 'remote',
        packageType: 'pypi',
        url: `http://127.0.0.1:${indexPort}`,
      });
      const file = (path: string) => get(`${API}/pypi-remote/packages/files/127.0.0.1:${filesPort}/${path}`);
      // before the page was read, and for anything the page does not list: 404, nothing asked
      expect((await file('dist/listed-1.0.tar.gz')).statusCode).toBe(404);
      expect((await get(`${API}/pypi-remote/simple/listed/`)).statusCode).toBe(200);
      for (const path of ['secret', 'dist/listed-2.0.tar.gz']) {
        expect([path, (await file(path)).statusCode]).toEqual([path, 404]);
      }
      expect((await file('dist/listed-1.0.tar.gz/..%2fsecret')).statusCode).toBe(400);
      // the same through the repository's plain address
      const plain = await get(`/artifactory/pypi-remote/files/127.0.0.1:${filesPort}/secret`);
      expect(plain.statusCode).toBe(404);
      expect(asked).toEqual([]);
      // what the page lists is fetched from where it lists it
      expect((await file('dist/listed-1.0.tar.gz')).body).toBe('listed bytes');
      expect(asked).toEqual(['/dist/listed-1.0.tar.gz']);
      expect(await repositoryFiles(t.app)).not.toContain(expect.stringContaining('secret'));
    } finally {
      files.close();
      index.close();
    }
  });
});
