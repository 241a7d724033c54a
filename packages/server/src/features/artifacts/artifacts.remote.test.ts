import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  createRepo,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('remote and virtual repositories against an upstream server on %s', (engine) => {
  let upstream: TestApp;
  let t: TestApp;
  let upstreamUrl: string;

  beforeEach(async () => {
    upstream = await startTestApp(engine);
    await createRepo(upstream.app, 'public-local', { rclass: 'local' });
    await put(upstream.app, '/artifactory/public-local/lib/a-1.0.jar', 'upstream bytes');
    await upstream.app.listen({ port: 0, host: '127.0.0.1' });
    upstreamUrl = `http://127.0.0.1:${(upstream.app.server.address() as AddressInfo).port}/artifactory/public-local/`;
    // the upstream runs on this host: the outbound policy must be told
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'upstream-remote', {
      rclass: 'remote',
      url: upstreamUrl,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'all', { rclass: 'virtual', repositories: ['libs-local', 'upstream-remote'] });
  });
  afterEach(async () => {
    await t.close();
    await upstream.close();
  });

  const get = (url: string) => t.app.inject({ url, headers: ADMIN_BASIC });

  it('fetches on a miss, caches, answers 404 for what the upstream lacks, and serves the cache when the upstream is down', async () => {
    const miss = await get('/artifactory/upstream-remote/lib/a-1.0.jar');
    expect([miss.statusCode, miss.body]).toEqual([200, 'upstream bytes']);
    const cached = await t.app.db
      .selectFrom('items')
      .select(['path', 'created_by'])
      .where('repo_key', '=', 'upstream-remote')
      .where('folder', '=', 0)
      .execute();
    expect(cached).toEqual([{ path: 'lib/a-1.0.jar', created_by: 'remote' }]);
    expect((await get('/artifactory/upstream-remote/lib/none.jar')).statusCode).toBe(404);

    await upstream.app.close();
    const hit = await get('/artifactory/upstream-remote/lib/a-1.0.jar');
    expect([hit.statusCode, hit.body]).toEqual([200, 'upstream bytes']);
    expect((await get('/artifactory/upstream-remote/lib/other.jar')).statusCode).toBe(404);
  });

  it('resolves through a virtual repository: the local member first, then the remote', async () => {
    await put(t.app, '/artifactory/libs-local/lib/a-1.0.jar', 'local bytes');
    expect((await get('/artifactory/all/lib/a-1.0.jar')).body).toBe('local bytes');
    await put(upstream.app, '/artifactory/public-local/lib/b-2.0.jar', 'only upstream');
    expect((await get('/artifactory/all/lib/b-2.0.jar')).body).toBe('only upstream');
    expect((await get('/artifactory/all/lib/nowhere.jar')).statusCode).toBe(404);
  });
});
