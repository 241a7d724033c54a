import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, XHR, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';
import { zipOf } from '../../test/zip.js';
import { escapePath, majorProblem, modulePathProblem, parseGoMod, unescapePath } from './go.module.js';

const API = '/artifactory/api/go';

describe('Go module rules', () => {
  it('case-encodes module paths both ways and refuses what no path encodes to', () => {
    expect(escapePath('github.com/Azure/azure-sdk')).toBe('github.com/!azure/azure-sdk');
    expect(unescapePath('github.com/!azure/azure-sdk')).toBe('github.com/Azure/azure-sdk');
    expect(unescapePath('github.com/Azure/x')).toBeUndefined();
    expect(unescapePath('github.com/!1/x')).toBeUndefined();
  });

  it('checks module paths and the major version suffix as the go command does', () => {
    expect(modulePathProblem('example.com/acme/lib')).toBeUndefined();
    expect(modulePathProblem('acme/lib')).toContain('has no dot');
    expect(modulePathProblem('example.com//lib')).toContain('empty element');
    expect(majorProblem('example.com/lib', 'v1.2.3')).toBeUndefined();
    expect(majorProblem('example.com/lib', 'v2.0.0')).toContain("suffix '/v2'");
    expect(majorProblem('example.com/lib', 'v2.0.0+incompatible')).toBeUndefined();
    expect(majorProblem('example.com/lib/v3', 'v3.1.0')).toBeUndefined();
    expect(majorProblem('example.com/lib/v3', 'v2.1.0')).toContain('v3.x.y');
  });

  it('reads go.mod directives, require blocks and comments', () => {
    const mod = parseGoMod(
      'module example.com/app // the app\n\ngo 1.21\n\nrequire (\n\texample.com/a v1.0.0\n\texample.com/b v0.2.0 // indirect\n)\nrequire example.com/c v3.0.0\n',
    );
    expect(mod).toEqual({
      module: 'example.com/app',
      go: '1.21',
      require: { 'example.com/a': 'v1.0.0', 'example.com/b': 'v0.2.0', 'example.com/c': 'v3.0.0' },
    });
  });
});

describe.each(ENGINES)('Go module proxy on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'go-local', { rclass: 'local', packageType: 'go' });
  });
  afterEach(async () => {
    await t.close();
  });

  const zip = (module: string, version: string, files: Record<string, string>) =>
    zipOf(Object.fromEntries(Object.entries(files).map(([name, text]) => [`${module}@${version}/${name}`, text])));
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN_BASIC });

  it('answers a version published as its zip alone: the list, .info from the publication time, .mod from the zip', async () => {
    const goMod = 'module example.com/Acme/tool\n\ngo 1.21\n\nrequire example.com/dep v1.2.0\n';
    const body = zip('example.com/Acme/tool', 'v1.0.0', {
      'go.mod': goMod,
      'README.md': '# tool',
      'main.go': 'package main',
    });
    expect((await put(t.app, `${API}/go-local/example.com/!acme/tool/@v/v1.0.0.zip`, body)).statusCode).toBe(201);
    // a pre-release and a second release; @latest prefers releases
    for (const v of ['v1.1.0-rc.1', 'v0.9.0']) {
      const file = zip('example.com/Acme/tool', v, { 'go.mod': 'module example.com/Acme/tool\n' });
      expect((await put(t.app, `${API}/go-local/example.com/!acme/tool/@v/${v}.zip`, file)).statusCode).toBe(201);
    }
    const list = await get(`${API}/go-local/example.com/!acme/tool/@v/list`);
    expect(list.body).toBe('v0.9.0\nv1.0.0\nv1.1.0-rc.1\n');
    expect(list.headers['content-type']).toContain('text/plain');
    const info = (await get(`${API}/go-local/example.com/!acme/tool/@v/v1.0.0.info`)).json();
    expect(info.Version).toBe('v1.0.0');
    expect(Date.parse(info.Time)).toBeGreaterThan(Date.now() - 60_000);
    expect((await get(`${API}/go-local/example.com/!acme/tool/@v/v1.0.0.mod`)).body).toBe(goMod);
    expect((await get(`${API}/go-local/example.com/!acme/tool/@latest`)).json()).toMatchObject({ Version: 'v1.0.0' });
    const missing = await get(`${API}/go-local/example.com/!acme/tool/@v/v9.9.9.info`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('not found: example.com/Acme/tool@v9.9.9\n');

    // the catalogue: the module, its requirement and readme
    await t.services.catalogueIndexer.drain();
    const res = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/mds/versions',
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: {
        query:
          '{ versions(packageId: "go://example.com/Acme/tool") { edges { node { name dependencies { name version } } } } }',
      },
    });
    const versions = res.json().data.versions.edges.map((e: { node: unknown }) => e.node);
    expect(versions).toContainEqual({ name: 'v1.0.0', dependencies: [{ name: 'example.com/dep', version: 'v1.2.0' }] });

    // deleted in the console's way: the list follows
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/go-local/example.com/!acme/tool/@v/v0.9.0.zip',
      headers: ADMIN_BASIC,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await get(`${API}/go-local/example.com/!acme/tool/@v/list`)).body).toBe('v1.0.0\nv1.1.0-rc.1\n');
  });

  it('checks files deployed at the repository’s own addresses as the proxy’s, and refuses a path outside the protocol', async () => {
    const wrong = await put(
      t.app,
      '/artifactory/go-local/example.com/lib/@v/v1.0.0.zip',
      zip('example.com/other', 'v1.0.0', { 'a.go': 'package a' }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].message).toContain("is not under 'example.com/lib@v1.0.0/'");
    const twice = await put(
      t.app,
      `${API}/go-local/example.com/lib/@v/v1.0.0.zip`,
      zipOf({ 'example.com/lib@v1.0.0/a.go': 'x', 'example.com/lib@v1.0.0/A.go': 'y' }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain("'A.go' appears twice");
    const elsewhere = await put(t.app, '/artifactory/go-local/notes/readme.txt', 'hello');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().errors[0].message).toContain("'notes/readme.txt' is not a module file");
    const info = await put(t.app, `${API}/go-local/example.com/lib/@v/v1.0.0.info`, '{"Version":"v1.0.1"}');
    expect(info.statusCode).toBe(400);
    expect(info.body).toContain("must be JSON naming Version 'v1.0.0'");
    expect((await get('/artifactory/api/storage/go-local/example.com')).statusCode).toBe(404);
    // the same bytes again are taken; the list was never the client's to write
    const good = zip('example.com/lib', 'v1.0.0', { 'go.mod': 'module example.com/lib\n' });
    expect((await put(t.app, `${API}/go-local/example.com/lib/@v/v1.0.0.zip`, good)).statusCode).toBe(201);
    expect((await put(t.app, `${API}/go-local/example.com/lib/@v/v1.0.0.zip`, good)).statusCode).toBe(201);
    expect((await put(t.app, `${API}/go-local/example.com/lib/@v/list`, 'v9.0.0\n')).statusCode).toBe(201);
    expect((await get(`${API}/go-local/example.com/lib/@v/list`)).body).toBe('v1.0.0\n');
    const mod = await put(
      t.app,
      `${API}/go-local/example.com/lib/@v/v1.0.0.mod`,
      'module example.com/lib\n\ngo 1.22\n',
    );
    expect(mod.statusCode).toBe(409);
    expect(mod.body).toContain('differs from the go.mod inside its zip');
  });
});
