import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_MESSAGES } from '@arca/contracts';
import { migrateToLatest, openDatabase } from '../../db/database.js';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createPostgresDatabase,
  createRepo,
  createUser,
  login,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { FileBinaryStore } from '../../storage/binary-store.js';
import { openS3Store } from '../../storage/s3-store.js';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from '../../test/s3-server.js';
import { backup } from './backup.service.js';
import { restore } from './backup.restore.js';

/** The file store of a data directory, as the restored deployment will open it. */
const fileStore = (dataDir: string) => new FileBinaryStore(path.join(dataDir, 'filestore'), 'restore');

const sha256 = (body: Buffer | string) => createHash('sha256').update(body).digest('hex');

describe.each(ENGINES)('backup and restore on %s', (engine) => {
  let t: TestApp;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-backup-'));
  beforeAll(async () => {
    // a folder of its own, as every deployment on PostgreSQL (which nodes may share) must name one
    t = await startTestApp(engine, { ARCA_BACKUP_DIR: path.join(scratch, 'console') });
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createUser(t.app, 'ann');
    const permission = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann-reads',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs-local'], actions: { users: { ann: ['read'] } } } },
    });
    expect(permission.statusCode).toBe(201);
    for (let i = 0; i < 20; i++) await put(t.app, `/artifactory/libs-local/before/f${i}.txt`, `before ${i}`);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Every file a repository lists, with the SHA-256 the database records for it. */
  async function files(app: TestApp['app']) {
    const rows = await app.db
      .selectFrom('items')
      .select(['repo_key', 'path', 'sha256'])
      .where('folder', '=', 0)
      .where('repo_key', '=', 'libs-local')
      .orderBy('path')
      .execute();
    return rows;
  }

  it('backs up under a deploy load, and a wiped deployment restored from it serves every artifact unchanged', async () => {
    const target = path.join(scratch, 'backup');
    // deploys keep arriving while the backup runs
    let deploying = true;
    let deployed = 0;
    const load = Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        for (let i = 0; deploying; i++) {
          await put(
            t.app,
            `/artifactory/libs-local/during/w${worker}-${i}.txt`,
            `during ${worker} ${i} ${'x'.repeat(i % 7)}`,
          );
          deployed++;
        }
      }),
    );
    const manifest = await backup({
      dataDir: t.config.dataDir,
      databaseUrl: t.config.databaseUrl,
      target,
      store: t.app.binaries,
    });
    deploying = false;
    await load;
    expect(deployed).toBeGreaterThan(0);
    expect(manifest.engine).toBe(engine);
    // PostgreSQL's own dump when its client tools are here, as they are wherever these tests run on it
    expect(manifest.database.method).toBe(engine === 'postgres' ? 'pg_dump' : 'sqlite-backup');
    expect(manifest.database.note).toBeUndefined();
    expect(manifest.binaries.count).toBeGreaterThanOrEqual(20);
    expect(manifest.binaries.copied).toBe(manifest.binaries.count);
    expect(manifest.database.tables.users).toBeGreaterThanOrEqual(2);

    // a second backup to the same folder copies only what is new
    await put(t.app, '/artifactory/libs-local/after/new.txt', 'a new file');
    const again = await backup({
      dataDir: t.config.dataDir,
      databaseUrl: t.config.databaseUrl,
      target,
      store: t.app.binaries,
    });
    expect(again.binaries.copied).toBe(again.binaries.count - manifest.binaries.count);
    expect(again.binaries.reused).toBe(manifest.binaries.count);

    // wipe: a new machine, an empty data directory (and an empty database)
    const restoredDir = path.join(scratch, 'restored');
    const database = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    try {
      await restore({
        dataDir: restoredDir,
        databaseUrl: database?.url,
        from: target,
        open: () => openDatabase({ dataDir: restoredDir, databaseUrl: database?.url }).db,
        migrate: migrateToLatest,
        store: fileStore(restoredDir),
      });
      // restoring onto a deployment that is not empty is refused
      await expect(
        restore({
          dataDir: restoredDir,
          databaseUrl: database?.url,
          from: target,
          open: () => openDatabase({ dataDir: restoredDir, databaseUrl: database?.url }).db,
          migrate: migrateToLatest,
          store: fileStore(restoredDir),
        }),
      ).rejects.toThrow(/not empty/);

      const restored = await startTestApp(engine, {
        ARCA_DATA_DIR: restoredDir,
        ...(database ? { ARCA_DATABASE_URL: database.url } : {}),
      });
      try {
        const expected = await files(t.app);
        const got = await files(restored.app);
        // everything up to the second backup, nothing lost, nothing made up
        const items = await restored.app.db
          .selectFrom('items')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(items.n)).toBe(again.database.tables.items);
        const before = new Map(expected.map((f) => [f.path, f.sha256]));
        for (const file of got) expect(before.get(file.path)).toBe(file.sha256);
        expect(got.map((f) => f.path)).toEqual(
          expect.arrayContaining([...Array(20).keys()].map((i) => `before/f${i}.txt`)),
        );
        expect(got.map((f) => f.path)).toContain('after/new.txt');
        for (const file of got) {
          const res = await restored.app.inject({ url: `/artifactory/libs-local/${file.path}`, headers: ADMIN_BASIC });
          expect(res.statusCode).toBe(200);
          expect(sha256(res.rawPayload)).toBe(file.sha256);
        }
        // users, permissions and settings as they were
        const users = (app: TestApp['app']) =>
          app.db.selectFrom('users').select(['name', 'email', 'admin', 'password_hash']).orderBy('name').execute();
        expect(await users(restored.app)).toEqual(await users(t.app));
        const permissions = (app: TestApp['app']) =>
          app.db.selectFrom('permission_targets').selectAll().orderBy('name').execute();
        expect(await permissions(restored.app)).toEqual(await permissions(t.app));
        const settings = (app: TestApp['app']) =>
          app.db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
        expect(await settings(restored.app)).toEqual(await settings(t.app));
        // ann signs in on the restored deployment and reads with her permission
        const ann = { authorization: `Basic ${Buffer.from('ann:ann-Passw0rd').toString('base64')}` };
        expect((await restored.app.inject({ url: '/artifactory/libs-local/before/f1.txt', headers: ann })).body).toBe(
          'before 1',
        );
      } finally {
        await restored.close();
      }
    } finally {
      await database?.drop();
    }
  });

  it.runIf(engine === 'postgres')(
    'without pg_dump exports the tables in one snapshot, and restores them into a migrated database',
    async () => {
      const target = path.join(scratch, 'exported');
      const manifest = await backup({
        dataDir: t.config.dataDir,
        databaseUrl: t.config.databaseUrl,
        target,
        store: t.app.binaries,
        pgDump: false,
      });
      expect(manifest.database.method).toBe('export');
      expect(fs.existsSync(path.join(target, 'database/tables/items.jsonl'))).toBe(true);
      const restoredDir = path.join(scratch, 'restored-export');
      const database = await createPostgresDatabase();
      try {
        await restore({
          dataDir: restoredDir,
          databaseUrl: database.url,
          from: target,
          open: () => openDatabase({ dataDir: restoredDir, databaseUrl: database.url }).db,
          migrate: migrateToLatest,
          store: fileStore(restoredDir),
        });
        const restored = await startTestApp(engine, { ARCA_DATA_DIR: restoredDir, ARCA_DATABASE_URL: database.url });
        try {
          const got = await files(restored.app);
          expect(got.length).toBe((await files(t.app)).length);
          for (const file of got.slice(0, 5)) {
            const res = await restored.app.inject({
              url: `/artifactory/libs-local/${file.path}`,
              headers: ADMIN_BASIC,
            });
            expect(sha256(res.rawPayload)).toBe(file.sha256);
          }
          const users = (app: TestApp['app']) =>
            app.db.selectFrom('users').select(['name', 'password_hash']).orderBy('name').execute();
          expect(await users(restored.app)).toEqual(await users(t.app));
        } finally {
          await restored.close();
        }
      } finally {
        await database.drop();
      }
    },
  );

  it('backs up the archive with its cold store, and a restored deployment restores archived artifacts', async () => {
    await createRepo(t.app, 'old-local', { rclass: 'local' });
    for (let i = 0; i < 3; i++) await put(t.app, `/artifactory/old-local/old/f${i}.bin`, `archived ${i}`);
    const headers = { ...XHR, cookie: (await login(t.app)).cookie };
    const policy = {
      key: 'old-files',
      cronExp: '0 0 3 * * ?',
      skipTrashcan: true,
      searchCriteriaForm: { include: { repositories: ['old-local'] } },
    };
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/retention/archive/policies',
          headers,
          payload: policy,
        })
      ).statusCode,
    ).toBe(201);
    await t.app.inject({ method: 'POST', url: '/ui/api/v1/ui/retention/archive/policies/old-files/trigger', headers });
    await t.app.work.idle();
    expect((await t.app.inject({ url: '/artifactory/old-local/old/f1.bin', headers: ADMIN_BASIC })).statusCode).toBe(
      404,
    );

    const target = path.join(scratch, 'archive-backup');
    const manifest = await backup({
      dataDir: t.config.dataDir,
      databaseUrl: t.config.databaseUrl,
      target,
      store: t.app.binaries,
      cold: t.services.archive.cold,
    });
    expect(manifest.cold).toMatchObject({ count: 3, copied: 3 });
    const restoredDir = path.join(scratch, 'archive-restored');
    const database = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    try {
      await restore({
        dataDir: restoredDir,
        databaseUrl: database?.url,
        from: target,
        open: () => openDatabase({ dataDir: restoredDir, databaseUrl: database?.url }).db,
        migrate: migrateToLatest,
        store: fileStore(restoredDir),
        cold: new FileBinaryStore(path.join(restoredDir, 'coldstore'), 'restore'),
      });
      const restored = await startTestApp(engine, {
        ARCA_DATA_DIR: restoredDir,
        ...(database ? { ARCA_DATABASE_URL: database.url } : {}),
      });
      try {
        const restoredHeaders = { ...XHR, cookie: (await login(restored.app)).cookie };
        const asked = await restored.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/retention/restore',
          headers: restoredHeaders,
          payload: { itemsToRestore: [{ repoKey: 'old-local', path: 'old/f1.bin' }] },
        });
        expect(asked.statusCode).toBe(202);
        await restored.app.work.idle();
        const back = await restored.app.inject({ url: '/artifactory/old-local/old/f1.bin', headers: ADMIN_BASIC });
        expect(back.body).toBe('archived 1');
      } finally {
        await restored.close();
      }
    } finally {
      await database?.drop();
    }
  });

  it('stops at a stored binary that is damaged or gone, naming it', async () => {
    const body = 'a content the disk will spoil';
    await put(t.app, '/artifactory/libs-local/spoiled/one.txt', body);
    const stored = t.app.binaries.pathOf!(sha256(body));
    const attempt = (name: string) =>
      backup({
        dataDir: t.config.dataDir,
        databaseUrl: t.config.databaseUrl,
        target: path.join(scratch, name),
        store: t.app.binaries,
      });
    try {
      fs.writeFileSync(stored, 'a content the disk will spoiL');
      await expect(attempt('spoiled')).rejects.toThrow(
        `The stored binary ${sha256(body)} is damaged: its content hashes to ${sha256('a content the disk will spoiL')}.`,
      );
      fs.rmSync(stored);
      await expect(attempt('gone')).rejects.toThrow(
        `The binary ${sha256(body)} the database lists is missing from the store.`,
      );
    } finally {
      fs.writeFileSync(stored, body);
    }
    // once the content is back, the same backup goes through
    expect((await attempt('mended')).binaries.count).toBeGreaterThan(20);
  });

  it('refuses a damaged backup and restores nothing', async () => {
    const target = path.join(scratch, 'damaged');
    const manifest = await backup({
      dataDir: t.config.dataDir,
      databaseUrl: t.config.databaseUrl,
      target,
      store: t.app.binaries,
    });
    const list = fs.readFileSync(path.join(target, manifest.binaryList), 'utf8').split('\n')[0]!.split(' ')[0]!;
    fs.writeFileSync(path.join(target, 'filestore', list.slice(0, 2), list.slice(2, 4), list), 'changed');
    const restoredDir = path.join(scratch, 'not-restored');
    await expect(
      restore({
        dataDir: restoredDir,
        databaseUrl: t.config.databaseUrl ? 'postgres://unused/unused' : undefined,
        from: target,
        open: () => openDatabase({ dataDir: restoredDir }).db,
        migrate: migrateToLatest,
        store: fileStore(restoredDir),
      }),
    ).rejects.toThrow(`The backup is damaged: binary ${list} is missing or changed.`);
    expect(fs.existsSync(restoredDir)).toBe(false);
    await expect(
      restore({
        dataDir: restoredDir,
        from: scratch,
        open: () => openDatabase({ dataDir: restoredDir }).db,
        migrate: migrateToLatest,
        store: fileStore(restoredDir),
      }),
    ).rejects.toThrow('holds no backup: manifest.json is missing.');
    // a manifest naming files outside the backup's folders is refused before anything is read or written
    const escaping = path.join(scratch, 'escaping');
    fs.cpSync(target, escaping, { recursive: true });
    const written = JSON.parse(fs.readFileSync(path.join(escaping, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const [field, value] of [
      ['keys', ['../../../../tmp/arca-escaped-key']],
      ['binaryList', '../../etc/passwd'],
      ['binaryList', '/etc/passwd'],
    ] as const) {
      fs.writeFileSync(path.join(escaping, 'manifest.json'), JSON.stringify({ ...written, [field]: value }));
      await expect(
        restore({
          dataDir: restoredDir,
          from: escaping,
          open: () => openDatabase({ dataDir: restoredDir }).db,
          migrate: migrateToLatest,
          store: fileStore(restoredDir),
        }),
      ).rejects.toThrow(/holds a manifest that names '.*', which is no file of the backup\./);
    }
    expect(fs.existsSync(restoredDir)).toBe(false);
    expect(fs.existsSync('/tmp/arca-escaped-key')).toBe(false);
  });

  it('backs up from the console into a new folder each time, copying only the new binaries', async () => {
    const headers = { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' };
    const list = async () =>
      (await t.app.inject({ url: '/ui/api/v1/system/backups', headers })).json<{
        running: unknown;
        lastError: string | null;
        backups: { name: string; binaries: number; copied: number; reused: number }[];
      }>();
    const before = (await list()).backups.length;
    const startOne = async () => {
      const started = await t.app.inject({ method: 'POST', url: '/ui/api/v1/system/backups', headers });
      expect(started.statusCode).toBe(202);
      await expect.poll(async () => (await list()).backups.length, { timeout: 20_000 }).toBe(before + 1 + made++);
      await expect.poll(async () => (await list()).running, { timeout: 20_000 }).toBe(null);
    };
    let made = 0;
    await startOne();
    await put(t.app, '/artifactory/libs-local/console/one-more.txt', 'one more file');
    await startOne();
    const answer = await list();
    expect(answer.lastError).toBe(null);
    const [newest, previous] = answer.backups;
    expect(newest!.binaries).toBe(previous!.binaries + 1);
    expect(newest!.copied).toBe(1);
    expect(newest!.reused).toBe(previous!.binaries);
    const user = await createUser(t.app, 'no-backups');
    expect(
      (
        await t.app.inject({
          url: '/ui/api/v1/system/backups',
          headers: { ...user, 'x-requested-with': 'XMLHttpRequest' },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe.runIf(process.env.ARCA_TEST_DATABASE_URL)('backups of nodes sharing one PostgreSQL database', () => {
  const headers = { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' };
  const list = async (node: TestApp) =>
    (await node.app.inject({ url: '/ui/api/v1/system/backups', headers })).json<{
      running: { node?: string } | null;
      lastError: string | null;
      refused: string | null;
      backups: { name: string; binaries: number }[];
    }>();
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let s3: S3TestServer;
  const nodes: TestApp[] = [];
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-shared-backups-'));
  beforeAll(async () => {
    Object.assign(process.env, S3_TEST_CREDENTIALS);
    database = await createPostgresDatabase();
    s3 = await startS3Server();
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await database.drop();
    await s3.stop();
    fs.rmSync(shared, { recursive: true, force: true });
  });
  // nodes of a cluster: one database, one bucket, a data directory each
  const startNode = async (id: string, env: Record<string, string> = {}) => {
    const node = await startTestApp('sqlite', {
      ...s3.env,
      ARCA_DATABASE_URL: database.url,
      ARCA_NODE_ID: id,
      ...env,
    });
    nodes.push(node);
    return node;
  };

  it('refuses a backup onto one node’s disk, saying which setting to make', async () => {
    const alone = await startNode('alone');
    expect((await list(alone)).refused).toBe(BACKUP_MESSAGES.sharedFolder);
    const started = await alone.app.inject({ method: 'POST', url: '/ui/api/v1/system/backups', headers });
    expect(started.statusCode).toBe(409);
    expect(started.json().errors[0].message).toBe(BACKUP_MESSAGES.sharedFolder);
    // nothing written, nothing run
    expect(fs.existsSync(alone.config.backupDir)).toBe(false);
    expect((await list(alone)).running).toBe(null);
  });

  it('makes a backup into the shared folder that every node lists the same', async () => {
    const one = await startNode('node-one', { ARCA_BACKUP_DIR: shared });
    const two = await startNode('node-two', { ARCA_BACKUP_DIR: shared });
    await createRepo(one.app, 'shared-local', { rclass: 'local' });
    await put(two.app, '/artifactory/shared-local/a.txt', 'deployed on node two');
    expect((await list(two)).refused).toBe(null);
    const started = await one.app.inject({ method: 'POST', url: '/ui/api/v1/system/backups', headers });
    expect(started.statusCode).toBe(202);
    // the other node sees the backup under way (or already made), never a free slot to start a second
    const during = await two.app.inject({ method: 'POST', url: '/ui/api/v1/system/backups', headers });
    const made = async () => (await list(two)).backups.length;
    if (during.statusCode === 409) expect(during.json().errors[0].message).toBe(BACKUP_MESSAGES.busy);
    await expect.poll(made, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await list(two)).running, { timeout: 20_000 }).toBe(null);
    const [fromOne, fromTwo] = [await list(one), await list(two)];
    expect(fromTwo.backups).toEqual(fromOne.backups);
    expect(fromTwo.lastError).toBe(null);
    expect(fromOne.backups[0]!.binaries).toBeGreaterThan(0);
    // a failure is the cluster's to see, whichever node ran it
    fs.rmSync(shared, { recursive: true, force: true });
    fs.writeFileSync(shared, 'not a folder');
    try {
      expect(await two.app.jobs.runNow('backup')).toBe(true);
      const failed = await list(one);
      expect(failed.lastError).toMatch(/ENOTDIR|not a directory|EEXIST/);
    } finally {
      fs.rmSync(shared, { force: true });
      fs.mkdirSync(shared);
    }
  });
});

describe('backup and restore with the binaries in an object store', () => {
  let s3: S3TestServer;
  let t: TestApp;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-backup-s3-'));
  beforeAll(async () => {
    Object.assign(process.env, S3_TEST_CREDENTIALS);
    s3 = await startS3Server();
    t = await startTestApp('sqlite', { ...s3.env, ARCA_S3_PREFIX: 'live' });
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('reads the binaries from the bucket and restores them into another one', async () => {
    const bodies = [Buffer.from('a small file'), Buffer.alloc(3 * 1024 * 1024, 'large')];
    for (const [i, body] of bodies.entries()) {
      expect((await put(t.app, `/artifactory/libs-local/f${i}.bin`, body)).statusCode).toBe(201);
    }
    const target = path.join(scratch, 'backup');
    const manifest = await backup({ dataDir: t.config.dataDir, target, store: t.app.binaries });
    expect(manifest.binaries.copied).toBe(2);

    const restoredDir = path.join(scratch, 'restored');
    const options = { ...s3.env, ARCA_S3_PREFIX: 'restored' };
    const store = await openS3Store({ endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'restored', nodeId: 'r' });
    try {
      await restore({
        dataDir: restoredDir,
        from: target,
        open: () => openDatabase({ dataDir: restoredDir }).db,
        migrate: migrateToLatest,
        store,
      });
    } finally {
      store.close();
    }
    expect(fs.existsSync(path.join(restoredDir, 'filestore'))).toBe(false);
    const restored = await startTestApp('sqlite', { ...options, ARCA_DATA_DIR: restoredDir });
    try {
      for (const [i, body] of bodies.entries()) {
        const res = await restored.app.inject({ url: `/artifactory/libs-local/f${i}.bin`, headers: ADMIN_BASIC });
        expect(res.statusCode).toBe(200);
        expect(sha256(res.rawPayload)).toBe(sha256(body));
      }
    } finally {
      await restored.close();
    }
  });
});
