import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import * as openpgp from 'openpgp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ThreadCalls } from '../../core/threads.js';
import { ADMIN_BASIC, startTestApp, type TestApp } from '../../test/harness.js';
import { startDebianMirror, type DebianMirror } from '../../test/debian-mirror.js';

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('a virtual Debian repository over mirrors of a real size', () => {
  let t: TestApp;
  let large: DebianMirror;
  let small: DebianMirror;
  beforeAll(async () => {
    // the mirrors of the test run on this host
    t = await startTestApp('sqlite', { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    [large, small] = await Promise.all([startDebianMirror(60_000), startDebianMirror(1_500)]);
    const create = async (key: string, body: object) =>
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/artifactory/api/repositories/${key}`,
            headers: ADMIN_BASIC,
            payload: { packageType: 'debian', ...body },
          })
        ).statusCode,
      ).toBe(200);
    await create('mirror-small', { rclass: 'remote', url: small.url });
    await create('mirror-large', { rclass: 'remote', url: large.url });
    await create('debian-all', { rclass: 'virtual', repositories: ['mirror-small', 'mirror-large'] });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([large?.stop(), small?.stop()]);
  });

  const get = (path: string) => t.app.inject({ url: `/artifactory/debian-all/${path}`, headers: ADMIN_BASIC });

  it('answers a signed InRelease over 60,000 packages in two architectures, each entry once, as apt checks it', async () => {
    const [first, second] = await Promise.all([get('dists/stable/InRelease'), get('dists/stable/InRelease')]);
    expect(first.statusCode).toBe(200);
    // two readers at once get the one merge
    expect(second.body).toBe(first.body);

    const key = await openpgp.readKey({
      armoredKey: (await t.app.inject({ url: '/artifactory/api/gpg/key/public/debian-all', headers: ADMIN_BASIC }))
        .body,
    });
    const message = await openpgp.readCleartextMessage({ cleartextMessage: first.body });
    const verified = await openpgp.verify({ message, verificationKeys: key, expectSigned: true });
    const release = verified.data as string;
    expect(release).toMatch(/^Architectures: amd64 arm64$/m);
    for (const arch of ['amd64', 'arm64']) {
      const gz = (await get(`dists/stable/main/binary-${arch}/Packages.gz`)).rawPayload;
      // the Release names each index with its digest and size
      expect(release).toMatch(new RegExp(`^ ${sha256(gz)} +${gz.length} main/binary-${arch}/Packages.gz$`, 'm'));
      const entries = gunzipSync(gz)
        .toString('utf8')
        .split('\n\n')
        .filter((s) => s.trim());
      // the small mirror's 1,500 packages are the large one's first 1,500: each entry once
      expect(entries.length).toBe(60_000);
      const names = entries.map((e) => /^Package: (.+)$/m.exec(e)![1]);
      expect(new Set(names).size).toBe(60_000);
      expect(entries.every((e) => e.includes(`Architecture: ${arch}`))).toBe(true);
    }
    // the next reader is answered from what was merged
    expect((await get('dists/stable/InRelease')).body).toBe(first.body);

    // another process of the deployment (a worker, a node) answers the merged indexes from the
    // shared store: the same files, and no merge of its own
    const made = await t.app.db
      .selectFrom('made_files')
      .select('name')
      .where('made_key', 'like', 'debian-virtual|debian-all|stable|%')
      .execute();
    expect(made.map((m) => m.name).sort()).toEqual([
      'dists/stable/Release',
      'dists/stable/main/binary-amd64/Packages',
      'dists/stable/main/binary-amd64/Packages.gz',
      'dists/stable/main/binary-arm64/Packages',
      'dists/stable/main/binary-arm64/Packages.gz',
    ]);
    const other = await startTestApp('sqlite', { ARCA_DATA_DIR: t.dataDir });
    const merges = vi.spyOn(ThreadCalls.prototype, 'call');
    try {
      const fromOther = (path: string) =>
        other.app.inject({ url: `/artifactory/debian-all/${path}`, headers: ADMIN_BASIC });
      for (const arch of ['amd64', 'arm64']) {
        const path = `dists/stable/main/binary-${arch}/Packages.gz`;
        expect((await fromOther(path)).rawPayload.equals((await get(path)).rawPayload)).toBe(true);
      }
      const again = await openpgp.readCleartextMessage({
        cleartextMessage: (await fromOther('dists/stable/InRelease')).body,
      });
      expect((await openpgp.verify({ message: again, verificationKeys: key, expectSigned: true })).data).toBe(release);
      expect(merges).not.toHaveBeenCalled();
    } finally {
      merges.mockRestore();
      await other.app.close();
    }
  });
});
