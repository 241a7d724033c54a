import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database.js';
import { enableItemCache, findItem } from './artifacts.store.js';
import { configCheckDue, disableConfigCache, enableConfigCache } from '../../core/config-cache.js';
import { findRepository } from '../repositories/index.js';
import { ADMIN_BASIC, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Another node's view of a PostgreSQL deployment: its own pool, change feed and item cache,
 * reading the items a full node (`t`) writes.
 */
describe.runIf(process.env.ARCA_TEST_DATABASE_URL)('the change feed of a node on PostgreSQL', () => {
  let t: TestApp;
  let other: { db: Db; dataVersion: () => number; statements: number };

  /** Waits until the other node listens: its data version then stays the same between calls. */
  async function listening(): Promise<void> {
    for (let i = 0; i < 600 && other.dataVersion() !== other.dataVersion(); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(other.dataVersion()).toBe(other.dataVersion());
  }

  /** Waits until no change has been notified for 300 ms. */
  async function quiet(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const seen = other.dataVersion();
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (other.dataVersion() === seen) return;
    }
  }

  beforeAll(async () => {
    t = await startTestApp('postgres');
    await createRepo(t.app, 'feed-local', { rclass: 'local' });
    let statements = 0;
    const opened = openDatabase({
      dataDir: '',
      databaseUrl: t.config.databaseUrl!,
      onQuery: () => (statements += 1),
    });
    enableItemCache(opened.db, opened.changeMark);
    other = {
      db: opened.db,
      dataVersion: opened.dataVersion,
      get statements() {
        return statements;
      },
    };
    await listening();
  });
  afterAll(async () => {
    await other.db.destroy();
    await t.close();
  });

  it('serves a file read again from memory, finds one deployed elsewhere at once and learns of its changes', async () => {
    // nothing there: asked every time, so that a deploy on another node is found by the next read
    expect(await findItem(other.db, 'feed-local', 'a/one.txt')).toBeUndefined();
    expect((await put(t.app, '/artifactory/feed-local/a/one.txt', 'first')).statusCode).toBe(201);
    const first = await findItem(other.db, 'feed-local', 'a/one.txt');
    expect(first).toMatchObject({ size: 5 });

    // read again, once the full node's own work after the deploy is written: from memory (a late
    // write of that work may still drop the cache once; without it each read is a statement)
    await quiet();
    const before = other.statements;
    for (let i = 0; i < 20; i++)
      expect((await findItem(other.db, 'feed-local', 'a/one.txt'))?.sha256).toBe(first!.sha256);
    expect(other.statements - before).toBeLessThanOrEqual(1);

    // replaced, then deleted, on the full node: the notification of each commit reaches the other
    expect((await put(t.app, '/artifactory/feed-local/a/one.txt', 'second!')).statusCode).toBe(201);
    await expect.poll(async () => (await findItem(other.db, 'feed-local', 'a/one.txt'))?.size).toBe(7);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/artifactory/feed-local/a/one.txt',
      headers: ADMIN_BASIC,
    });
    expect(removed.statusCode).toBe(204);
    await expect.poll(async () => findItem(other.db, 'feed-local', 'a/one.txt')).toBeUndefined();
  });

  it('queries every time while its listening connection is lost, and listens again', async () => {
    expect((await put(t.app, '/artifactory/feed-local/b/two.txt', 'two')).statusCode).toBe(201);
    await findItem(other.db, 'feed-local', 'b/two.txt');
    const admin = new pg.Client({ connectionString: t.config.databaseUrl! });
    await admin.connect();
    try {
      const ended = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen %'`,
      );
      // the full node listens too: both connections end
      expect(ended.rowCount).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
    await expect.poll(() => other.dataVersion() !== other.dataVersion()).toBe(true);
    // not listening: a read queries
    const before = other.statements;
    await findItem(other.db, 'feed-local', 'b/two.txt');
    await findItem(other.db, 'feed-local', 'b/two.txt');
    expect(other.statements).toBeGreaterThan(before);
    // back: reads come from memory again
    await listening();
    await quiet();
    await findItem(other.db, 'feed-local', 'b/two.txt');
    const after = other.statements;
    for (let i = 0; i < 20; i++) await findItem(other.db, 'feed-local', 'b/two.txt');
    expect(other.statements - after).toBeLessThanOrEqual(1);
  });

  it('finds a repository another node created before that commit’s notification arrives', async () => {
    // a data version that stays the same: the notification of the commit below has not arrived
    const opened = openDatabase({ dataDir: '', databaseUrl: t.config.databaseUrl! });
    enableConfigCache(opened.db, () => 1);
    try {
      configCheckDue(opened.db);
      expect(await findRepository(opened.db, 'feed-later')).toBeUndefined();
      // created as another process would: its own connection, the generation bumped in the same commit
      const writer = openDatabase({ dataDir: '', databaseUrl: t.config.databaseUrl! });
      try {
        const model = await writer.db
          .selectFrom('repositories')
          .selectAll()
          .where('key', '=', 'feed-local')
          .executeTakeFirstOrThrow();
        await writer.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('repositories')
            .values({ ...model, key: 'feed-later' })
            .execute();
          await trx
            .updateTable('generations')
            .set((eb) => ({ value: eb('value', '+', 1) }))
            .where('name', '=', 'config')
            .execute();
        });
      } finally {
        await writer.db.destroy();
      }
      configCheckDue(opened.db);
      expect((await findRepository(opened.db, 'feed-later'))?.key).toBe('feed-later');
      // a repository that exists is answered as before
      configCheckDue(opened.db);
      expect((await findRepository(opened.db, 'feed-local'))?.key).toBe('feed-local');
    } finally {
      disableConfigCache(opened.db);
      await opened.db.destroy();
    }
  });
});
