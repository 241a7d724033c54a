import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBinaryStore } from '../../storage/binary-store.js';
import { ADMIN_BASIC, ENGINES, createRepo, put, startTestApp, storedFiles, type TestApp } from '../../test/harness.js';
import { collectGarbage } from './artifacts.gc.js';

const HOUR = 3600_000;

describe.each(ENGINES)('garbage collection and temporary files on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
  });
  afterEach(() => t.close());

  /** Deploys, deletes and empties the trash: the content is unreferenced and its row and file look two hours old. */
  async function orphan(bytes: string): Promise<string> {
    const created = (await put(t.app, '/artifactory/libs-local/a.bin', bytes)).json() as {
      checksums: { sha256: string };
    };
    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs-local/a.bin', headers: ADMIN_BASIC });
    await t.app.inject({ method: 'POST', url: '/artifactory/api/trash/empty', headers: ADMIN_BASIC });
    const sha = created.checksums.sha256;
    const old = Date.now() - 2 * HOUR;
    await t.app.db.updateTable('binaries').set({ updated_at: old }).where('sha256', '=', sha).execute();
    const file = (t.app.binaries as FileBinaryStore).pathOf(sha);
    fs.utimesSync(file, old / 1000, old / 1000);
    return sha;
  }

  it('keeps content that a concurrent deploy of the same bytes has just put back in place', async () => {
    await orphan('same bytes');
    // a deploy of the same bytes has renamed its upload into place, and not yet recorded it
    const pending = await t.app.binaries.write(Readable.from([Buffer.from('same bytes')]));
    await pending.commit();
    const collected = await collectGarbage(t.app.db, t.app.binaries);
    expect(collected.binaries).toBe(0);
    expect(storedFiles(t.dataDir).filter((f) => !f.startsWith('_tmp'))).toHaveLength(1);
    // the deploy finishes and the content is served
    expect((await put(t.app, '/artifactory/libs-local/b.bin', 'same bytes')).statusCode).toBe(201);
    expect((await t.app.inject({ url: '/artifactory/libs-local/b.bin', headers: ADMIN_BASIC })).body).toBe(
      'same bytes',
    );
  });

  it('keeps content that a deploy by checksum is using, and removes what is truly unused', async () => {
    const sha = await orphan('reused');
    // the checksum deploy finds the row, touches the file and records its use
    const byChecksum = await put(t.app, '/artifactory/libs-local/c.bin', '', {
      'x-checksum-deploy': 'true',
      'x-checksum-sha256': sha,
    });
    expect(byChecksum.statusCode).toBe(201);
    expect((await collectGarbage(t.app.db, t.app.binaries)).binaries).toBe(0);
    expect((await t.app.inject({ url: '/artifactory/libs-local/c.bin', headers: ADMIN_BASIC })).body).toBe('reused');

    await orphan('gone');
    expect((await collectGarbage(t.app.db, t.app.binaries)).binaries).toBe(1);
  });

  it('clears its own leftover uploads at start, and only idle ones of other nodes', () => {
    const root = path.join(t.dataDir, 'store-test');
    const first = new FileBinaryStore(root, 'node-a');
    const tmp = path.join(root, '_tmp');
    // what a previous run of node-a left, and what node-b is writing or gave up on
    fs.mkdirSync(path.join(tmp, 'node-a'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'node-a', 'mine'), 'x');
    fs.mkdirSync(path.join(tmp, 'node-b'));
    fs.writeFileSync(path.join(tmp, 'node-b', 'in-flight'), 'x');
    fs.writeFileSync(path.join(tmp, 'node-b', 'abandoned'), 'x');
    const old = (Date.now() - 2 * HOUR) / 1000;
    fs.utimesSync(path.join(tmp, 'node-b', 'abandoned'), old, old);
    return first.cleanTemporary(Date.now() - HOUR).then((removed) => {
      expect(removed).toBe(2);
      expect(fs.readdirSync(path.join(tmp, 'node-b'))).toEqual(['in-flight']);
      expect(fs.readdirSync(path.join(tmp, 'node-a'))).toEqual([]);
    });
  });
});
