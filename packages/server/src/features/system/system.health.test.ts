import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../../test/harness.js';

/** Makes the test's PostgreSQL database refuse connections (and drops those it has), or take them again. */
async function setConnectable(databaseUrl: string, allowed: boolean) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.ARCA_TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`alter database "${name}" with allow_connections ${allowed}`);
    if (!allowed)
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  } finally {
    await admin.end();
  }
}

describe.each(ENGINES)('health and readiness on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ url });

  it('answers live, ready and healthy when the database, the migrations and the store are good', async () => {
    const live = await get('/livez');
    expect(live.statusCode).toBe(200);
    expect(live.body).toBe('OK');
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'OK', migrations: 'OK', store: 'OK' } });
    const health = await get('/router/api/v1/system/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({
      router: { node_id: t.app.nodeId, state: 'HEALTHY', message: 'OK' },
      services: [
        { service_id: `jfrt@${t.app.nodeId}`, node_id: t.app.nodeId, state: 'HEALTHY', message: 'OK' },
        { service_id: `jfac@${t.app.nodeId}`, node_id: t.app.nodeId, state: 'HEALTHY', message: 'OK' },
      ],
    });
  });

  it('is not ready while the binary store cannot be written, and ready again after', async () => {
    // the store's folder for uploads in flight replaced by a file: nothing can be written there
    const tmp = path.join(t.dataDir, 'filestore', '_tmp');
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(tmp), { recursive: true });
    fs.writeFileSync(tmp, 'not a folder');
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.store).toMatch(/^The binary store cannot be written: /);
    expect(ready.json().checks.database).toBe('OK');
    const health = (await get('/router/api/v1/system/health')).json();
    expect(health.services[0]).toMatchObject({ state: 'UNHEALTHY' });
    expect(health.services[0].message).toMatch(/binary store/);
    expect((await get('/livez')).statusCode).toBe(200);
    fs.rmSync(tmp, { force: true });
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('is not ready while the database is unreachable, and ready again when it is back', async () => {
    if (engine === 'postgres') {
      // a connection in use between two statements when the database drops it: its failure is
      // reported, and the node stays up (an unheard error event would end the process)
      let terminated!: () => void;
      const inUse = t.app.db.connection().execute(async (connection) => {
        await sql`select 1`.execute(connection);
        await new Promise<void>((resolve) => (terminated = resolve));
        return sql`select 1`.execute(connection);
      });
      await expect.poll(() => terminated).toBeDefined();
      await setConnectable(t.config.databaseUrl!, false);
      terminated();
      await expect(inUse).rejects.toThrow();
      try {
        const ready = await get('/readyz');
        expect(ready.statusCode).toBe(503);
        expect(ready.json().checks.database).toMatch(/^The database is unreachable: /);
        expect((await get('/router/api/v1/system/health')).json().services[0].state).toBe('UNHEALTHY');
        expect((await get('/livez')).statusCode).toBe(200);
      } finally {
        await setConnectable(t.config.databaseUrl!, true);
      }
      await expect.poll(async () => (await get('/readyz')).statusCode, { timeout: 10_000 }).toBe(200);
    } else {
      // the embedded database's connection gone (a disk that failed): not ready, still live
      await t.app.db.destroy();
      const ready = await get('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toMatch(/^The database is unreachable: /);
      expect((await get('/livez')).statusCode).toBe(200);
    }
  });
});
