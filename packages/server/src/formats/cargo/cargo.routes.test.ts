import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';
import { indexFilePath } from './cargo.crate.js';
import { cargoPublishBody as publishBody } from '../../test/cargo.js';

const API = '/artifactory/api/cargo';

/** A `.crate`: a gzipped tar of `{name}-{version}/` with the given files. */
async function crateOf(name: string, version: string, files: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [file, text] of Object.entries(files)) pack.entry({ name: `${name}-${version}/${file}` }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

const manifest = (name: string, version: string, deps = '') =>
  `[package]\nname = "${name}"\nversion = "${version}"\ndescription = "the ${name} crate"\nlicense = "MIT"\n\n[dependencies]\n${deps}`;

describe('crate index paths', () => {
  it('follow Cargo’s prefix layout, lower-cased', () => {
    expect(indexFilePath('a')).toBe('1/a');
    expect(indexFilePath('ab')).toBe('2/ab');
    expect(indexFilePath('Abc')).toBe('3/a/abc');
    expect(indexFilePath('Serde_JSON')).toBe('se/rd/serde_json');
  });
});

describe.each(ENGINES)('Cargo registry on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'cargo-local', { rclass: 'local', packageType: 'cargo' });
  });
  afterEach(async () => {
    await t.close();
  });

  const publish = async (name: string, version: string, crate: Buffer, extra: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: `${API}/cargo-local/api/v1/crates/new`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/octet-stream' },
      payload: publishBody(
        {
          name,
          vers: version,
          deps: [
            {
              name: 'serde',
              version_req: '^1',
              features: ['derive'],
              optional: false,
              default_features: true,
              target: null,
              kind: 'normal',
              registry: 'https://github.com/rust-lang/crates.io-index',
              explicit_name_in_toml: null,
            },
          ],
          features: { default: ['std'], std: [], json: ['dep:serde_json'] },
          description: `the ${name} crate`,
          ...extra,
        },
        crate,
      ),
    });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN_BASIC });

  it('publishes with cargo’s metadata into the index, refuses the same version, and keeps the index in step with deletes', async () => {
    const crate = await crateOf('demo', '1.0.0', { 'Cargo.toml': manifest('demo', '1.0.0'), 'README.md': '# demo' });
    expect((await publish('demo', '1.0.0', crate)).json()).toEqual({
      warnings: { invalid_categories: [], invalid_badges: [], other: [] },
    });
    const line = JSON.parse((await get(`${API}/cargo-local/index/de/mo/demo`)).body.trim());
    expect(line).toMatchObject({
      name: 'demo',
      vers: '1.0.0',
      deps: [{ name: 'serde', req: '^1', features: ['derive'], kind: 'normal', registry: expect.any(String) }],
      features: { default: ['std'], std: [] },
      features2: { json: ['dep:serde_json'] },
      v: 2,
      yanked: false,
    });
    const download = await get(`${API}/cargo-local/v1/crates/demo/1.0.0/download`);
    expect(download.rawPayload.equals(crate)).toBe(true);
    expect(line.cksum).toBe(download.headers['x-checksum-sha256']);

    const again = await publish('demo', '1.0.0+build.2', crate);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ errors: [{ detail: 'crate version `demo@1.0.0+build.2` is already uploaded' }] });

    // a second version deployed with a plain PUT is listed from its Cargo.toml
    const second = await crateOf('demo', '1.1.0', { 'Cargo.toml': manifest('demo', '1.1.0', 'rand = "0.8"\n') });
    expect((await put(t.app, '/artifactory/cargo-local/crates/demo/demo-1.1.0.crate', second)).statusCode).toBe(201);
    const lines = (await get(`${API}/cargo-local/index/de/mo/demo`)).body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.vers)).toEqual(['1.0.0', '1.1.0']);
    expect(lines[1].deps).toEqual([
      { name: 'rand', req: '0.8', features: [], optional: false, default_features: true, target: null, kind: 'normal' },
    ]);
    // deleted from the console: its line goes
    await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/cargo-local/crates/demo/demo-1.0.0.crate',
      headers: ADMIN_BASIC,
    });
    await t.app.derivedMetadata.drain();
    expect((await get(`${API}/cargo-local/index/de/mo/demo`)).body).not.toContain('"vers":"1.0.0"');
  });

  it('refuses a corrupt crate, one whose Cargo.toml names another package, and a broken request, storing nothing', async () => {
    const corrupt = await publish('bad', '1.0.0', Buffer.from('not gzip at all'));
    expect(corrupt.statusCode).toBe(400);
    expect(corrupt.json().errors[0].detail).toContain('not a readable gzipped tar archive');
    const other = await crateOf('bad', '1.0.0', { 'Cargo.toml': manifest('good', '1.0.0') });
    const mismatch = await publish('bad', '1.0.0', other);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0].detail).toBe(
      "The crate's Cargo.toml names good@1.0.0, not bad@1.0.0. Nothing was stored.",
    );
    const outside = await publish(
      'bad',
      '1.0.0',
      await crateOf('evil', '1.0.0', { 'Cargo.toml': manifest('bad', '1.0.0') }),
    );
    expect(outside.json().errors[0].detail).toContain("is not under 'bad-1.0.0/'");
    const cut = await t.app.inject({
      method: 'PUT',
      url: `${API}/cargo-local/api/v1/crates/new`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/octet-stream' },
      payload: Buffer.from([200, 0, 0, 0, 123]),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().errors[0].detail).toContain('the metadata length runs past the end');
    expect((await get('/artifactory/api/storage/cargo-local/crates')).statusCode).toBe(404);
    expect((await get('/artifactory/api/storage/cargo-local/index')).statusCode).toBe(404);
  });

  it('yanks and unyanks, answers owners honestly and searches', async () => {
    const crate = await crateOf('yanky', '0.1.0', { 'Cargo.toml': manifest('yanky', '0.1.0') });
    expect((await publish('yanky', '0.1.0', crate)).statusCode).toBe(200);
    const yank = await t.app.inject({
      method: 'DELETE',
      url: `${API}/cargo-local/api/v1/crates/yanky/0.1.0/yank`,
      headers: ADMIN_BASIC,
    });
    expect(yank.json()).toEqual({ ok: true });
    expect(JSON.parse((await get(`${API}/cargo-local/index/ya/nk/yanky`)).body).yanked).toBe(true);
    await t.app.inject({
      method: 'PUT',
      url: `${API}/cargo-local/api/v1/crates/yanky/0.1.0/unyank`,
      headers: ADMIN_BASIC,
    });
    expect(JSON.parse((await get(`${API}/cargo-local/index/ya/nk/yanky`)).body).yanked).toBe(false);
    const missing = await t.app.inject({
      method: 'DELETE',
      url: `${API}/cargo-local/api/v1/crates/yanky/9.0.0/yank`,
      headers: ADMIN_BASIC,
    });
    expect(missing.statusCode).toBe(404);

    expect((await get(`${API}/cargo-local/api/v1/crates/yanky/owners`)).json()).toEqual({
      users: [{ id: 1, login: 'admin', name: 'admin' }],
    });
    const addOwner = await t.app.inject({
      method: 'PUT',
      url: `${API}/cargo-local/api/v1/crates/yanky/owners`,
      headers: ADMIN_BASIC,
      payload: '{"users":["ann"]}',
    });
    expect(addOwner.statusCode).toBe(400);
    expect(addOwner.json().errors[0].detail).toContain('decided by the repository’s permissions');
    expect((await get(`${API}/cargo-local/api/v1/crates?q=YANK&per_page=5`)).json()).toEqual({
      crates: [{ name: 'yanky', max_version: '0.1.0', description: 'the yanky crate' }],
      meta: { total: 1 },
    });
  });
});
