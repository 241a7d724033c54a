import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Items downloads look up are kept in memory until the database changes: a write by this process
 * or a commit by another (a second node on the same SQLite file) is seen by the next download.
 */
describe('downloads served from the item cache stay current', () => {
  let first: TestApp;
  let second: TestApp;
  const read = (t: TestApp, url: string) => t.app.inject({ url, headers: ADMIN_BASIC });

  beforeAll(async () => {
    first = await startTestApp('sqlite');
    second = await startTestApp('sqlite', { ARCA_DATA_DIR: first.dataDir });
    await createRepo(first.app, 'libs-local', { rclass: 'local' });
  });
  afterAll(async () => {
    await second.app.close();
    await first.close();
  });

  it('answers what this process wrote last', async () => {
    await put(first.app, '/artifactory/libs-local/own.txt', 'one');
    expect((await read(first, '/artifactory/libs-local/own.txt')).body).toBe('one');
    await put(first.app, '/artifactory/libs-local/own.txt', 'two');
    expect((await read(first, '/artifactory/libs-local/own.txt')).body).toBe('two');
  });

  it('answers what another process wrote, and forgets what it deleted', async () => {
    await put(first.app, '/artifactory/libs-local/shared.txt', 'one');
    expect((await read(first, '/artifactory/libs-local/shared.txt')).body).toBe('one');
    expect((await read(first, '/artifactory/libs-local/shared.txt')).body).toBe('one');
    await put(second.app, '/artifactory/libs-local/shared.txt', 'two');
    expect((await read(first, '/artifactory/libs-local/shared.txt')).body).toBe('two');
    const removed = await second.app.inject({
      method: 'DELETE',
      url: '/artifactory/libs-local/shared.txt',
      headers: ADMIN_BASIC,
    });
    expect(removed.statusCode).toBe(204);
    expect((await read(first, '/artifactory/libs-local/shared.txt')).statusCode).toBe(404);
  });

  it('answers a file another process added where this one found none', async () => {
    expect((await read(first, '/artifactory/libs-local/later.txt')).statusCode).toBe(404);
    await put(second.app, '/artifactory/libs-local/later.txt', 'here');
    expect((await read(first, '/artifactory/libs-local/later.txt')).body).toBe('here');
  });
});
