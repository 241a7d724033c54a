import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, startTestApp, type TestApp } from '../test/harness.js';
import { cargoPublishBody as publishBody } from '../test/cargo.js';

const MiB = 1024 * 1024;

/** `bytes` zeros gzipped, made as a stream: about a thousandth of their size. */
function gzipZeros(bytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(MiB);
  let left = bytes;
  const zeros = new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const next = Math.min(left, MiB);
      left -= next;
      this.push(next === MiB ? chunk : chunk.subarray(0, next));
    },
  });
  return buffer(zeros.pipe(createGzip({ level: 9 })));
}

/** A tar of the given entries (plain, or gzipped). */
async function tarOf(entries: [string, Buffer][], gzip: boolean): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, body] of entries) pack.entry({ name }, body);
  pack.finalize();
  return gzip ? buffer(pack.pipe(createGzip())) : buffer(pack);
}

/** One ustar header of an empty file, written directly (a packer takes seconds for a hundred thousand). */
function emptyFileHeader(name: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write('00000000000\0', 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** An ar archive (a `.deb`): the magic, then each member with its 60-byte header. */
function arOf(members: [string, Buffer][]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n')];
  for (const [name, body] of members) {
    const header = `${name}/`.padEnd(16) + '0'.padEnd(12) + '0'.padEnd(6) + '0'.padEnd(6) + '100644'.padEnd(8);
    parts.push(Buffer.from(`${header}${String(body.length).padEnd(10)}\`\n`, 'latin1'), body);
    if (body.length % 2) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** A module zip whose README deflates from `bytes` letters. */
function moduleZipWithReadme(module: string, version: string, bytes: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(`module ${module}\n`), `${module}@${version}/go.mod`);
  zip.addBuffer(Buffer.alloc(bytes, 'a'), `${module}@${version}/README.md`);
  zip.end();
  return buffer(zip.outputStream);
}

/** What a test builds once for both database engines. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
const gigabyteOfZeros = once(() => gzipZeros(1024 * MiB));
const bigReadmeZip = once(() => moduleZipWithReadme('example.com/big', 'v1.0.0', 200 * MiB));
const crateOfManyEntries = once(async () => {
  const manifest = await tarOf(
    [['many-1.0.0/Cargo.toml', Buffer.from('[package]\nname = "many"\nversion = "1.0.0"\n')]],
    false,
  );
  const headers = Array.from({ length: 100_001 }, (_, i) => emptyFileHeader(`many-1.0.0/f/${i}`));
  // the manifest's tar without its end marker, the empty files, then the end marker
  return buffer(Readable.from([manifest.subarray(0, 1024), ...headers, Buffer.alloc(1024)]).pipe(createGzip()));
});

/**
 * Small requests that inflate without end: each is refused with a clear 400 while inflating (not
 * after), so the worker's memory stays near where it was; and a caller who may deploy nothing is
 * refused before the package is read at all.
 */
describe.each(ENGINES)('decompression bombs on %s', (engine) => {
  let t: TestApp;
  let gigabyte: Buffer;
  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const type of ['gems', 'debian', 'go', 'cargo']) {
      await createRepo(t.app, `${type}-local`, { rclass: 'local', packageType: type });
    }
    gigabyte = await gigabyteOfZeros();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends a request and answers its response with how much the process grew meanwhile (resident memory). */
  const measured = async (send: () => PromiseLike<Awaited<ReturnType<TestApp['app']['inject']>>>) => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const res = await send();
      peak = Math.max(peak, process.memoryUsage().rss);
      return { res, grewBy: peak - before };
    } finally {
      clearInterval(sampler);
    }
  };

  it('refuses a gem whose metadata.gz inflates to 1 GiB, and reads none for a user who may deploy nowhere', async () => {
    expect(gigabyte.length).toBeLessThan(2 * MiB);
    const gem = await tarOf(
      [
        ['metadata.gz', gigabyte],
        ['data.tar.gz', await gzipZeros(1)],
      ],
      false,
    );
    const push = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/artifactory/api/gems/gems-local/api/v1/gems',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        payload: gem,
      });
    const { res, grewBy } = await measured(() => push(ADMIN_BASIC));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('inflates to more than 4 MiB');
    expect(grewBy).toBeLessThan(256 * MiB);
    const stranger = await createUser(t.app, 'gem-stranger');
    const refused = await push(stranger);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain("You do not have deploy permission on 'gems-local/gems'");
  });

  it('refuses a .deb whose control archive inflates to 1 GiB', async () => {
    const deb = arOf([
      ['debian-binary', Buffer.from('2.0\n')],
      ['control.tar.gz', gigabyte],
      ['data.tar.gz', await gzipZeros(1)],
    ]);
    const { res, grewBy } = await measured(() =>
      t.app.inject({
        method: 'PUT',
        url: '/artifactory/debian-local/pool/b/bomb_1.0_all.deb;deb.distribution=stable;deb.component=main',
        headers: ADMIN_BASIC,
        payload: deb,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].message).toContain('inflates to more than 16 MiB');
    expect(grewBy).toBeLessThan(256 * MiB);
  });

  it('refuses a Go module whose README is larger than 4 MiB, and stores nothing of it', async () => {
    const zip = await bigReadmeZip();
    expect(zip.length).toBeLessThan(2 * MiB);
    const { res, grewBy } = await measured(() =>
      t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/go/go-local/example.com/big/@v/v1.0.0.zip',
        headers: ADMIN_BASIC,
        payload: zip,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('README.md is larger than 4 MiB');
    expect(grewBy).toBeLessThan(256 * MiB);
    const stored = await t.app.db.selectFrom('items').select('path').where('repo_key', '=', 'go-local').execute();
    expect(stored.filter((i) => i.path.endsWith('.zip'))).toEqual([]);
  });

  it('refuses a crate of more than 100,000 entries', async () => {
    const crate = await crateOfManyEntries();
    const { res } = await measured(() =>
      t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/cargo/cargo-local/api/v1/crates/new',
        headers: { ...ADMIN_BASIC, 'content-type': 'application/octet-stream' },
        payload: publishBody({ name: 'many', vers: '1.0.0', deps: [], features: {} }, crate),
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('more than 100000 entries');
  });
});
