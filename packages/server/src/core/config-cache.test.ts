import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startListeningApp, startTestApp, type TestApp } from '../test/harness.js';
import { configChangeListeners, configCheckDue } from './config-cache.js';
import { getSetting, putSetting } from './settings.store.js';

describe.each(ENGINES)('the configuration cache on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('does not keep what another read loaded while a change of this process was committing', async () => {
    const db = t.app.db;
    configCheckDue(db);
    await putSetting(db, 'general', { serverName: 'before' });
    let racing: Promise<unknown> | undefined;
    await db.transaction().execute(async (trx) => {
      await putSetting(trx, 'general', { serverName: 'after' });
      // a read outside the transaction while it has not committed: PostgreSQL answers the
      // committed value at once; SQLite's one connection answers once the change committed
      racing = getSetting(db, 'general');
      if (engine === 'postgres') expect(((await racing) as { serverName?: string }).serverName).toBe('before');
    });
    await racing;
    // the same request reads again, after the commit: it sees the change
    expect((await getSetting(db, 'general')).serverName).toBe('after');
    // and later requests too
    configCheckDue(db);
    expect((await getSetting(db, 'general')).serverName).toBe('after');
  });

  it('keeps serving from the cache once the change is seen', async () => {
    const db = t.app.db;
    configCheckDue(db);
    await putSetting(db, 'general', { serverName: 'cached' });
    expect((await getSetting(db, 'general')).serverName).toBe('cached');
    // a row changed behind the cache's back is not read again within the generation
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify({ serverName: 'behind' }) })
      .where('key', '=', 'general')
      .execute();
    configCheckDue(db);
    expect((await getSetting(db, 'general')).serverName).toBe('cached');
  });
});

describe('following configuration changes', () => {
  it('ends with the app: a closed app leaves no listener behind to run on later changes', async () => {
    const before = configChangeListeners();
    const t = await startListeningApp('sqlite');
    expect(configChangeListeners()).toBeGreaterThan(before);
    await t.close();
    expect(configChangeListeners()).toBe(before);
  });
});
