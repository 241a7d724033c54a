import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REPOSITORY_MESSAGES } from '@arca/contracts';
import { Readable } from 'node:stream';
import { resolveItem } from './artifacts.resolve.js';
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
    // what is not cached is not "missing": the client hears that the upstream is down, and where
    const down = await get('/artifactory/upstream-remote/lib/other.jar');
    expect(down.statusCode).toBe(502);
    expect(down.json().errors[0].message).toMatch(
      /^The remote repository 'upstream-remote' could not get an answer from its upstream http:\/\/127\.0\.0\.1:\d+: the connection was refused$/,
    );
  });

  it("tests a remote's settings, records its upstream's state, goes offline and honours its timeout", async () => {
    const ui = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url: `/ui/api/v1${url}`,
        headers: { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
    // Test: the settings as typed (the stored password when none is typed), nothing saved
    const stored = await ui('POST', '/ui/admin/repositories/testremote', { key: 'upstream-remote', url: upstreamUrl });
    expect(stored.json()).toMatchObject({ ok: true, status: 200 });
    expect(stored.json().message).toBe('Connection successful: the upstream answered 200 OK.');
    const wrong = await ui('POST', '/ui/admin/repositories/testremote', {
      key: 'new-remote',
      packageType: 'generic',
      url: upstreamUrl,
      username: 'admin',
      password: 'not-the-password',
    });
    expect(wrong.json()).toEqual({
      ok: false,
      status: 401,
      message: "The upstream refused the credentials of 'admin' (401 Unauthorized).",
    });
    expect((await ui('GET', '/ui/admin/repositories/new-remote')).statusCode).toBe(404);
    expect((await ui('GET', '/ui/admin/repositories/upstream-remote/upstream')).json()).toEqual({
      offline: false,
      reachable: null,
      since: null,
      lastError: null,
    });

    // the state the console shows follows what the upstream did
    expect((await get('/artifactory/upstream-remote/lib/a-1.0.jar')).statusCode).toBe(200);
    expect((await ui('GET', '/ui/admin/repositories/upstream-remote/upstream')).json()).toMatchObject({
      reachable: true,
      lastError: null,
    });
    // offline: the cache is served, a miss is not fetched although the upstream has it
    await put(upstream.app, '/artifactory/public-local/lib/c-3.0.jar', 'upstream only');
    expect((await ui('PUT', '/ui/admin/repositories/upstream-remote', { offline: true })).json().offline).toBe(true);
    expect((await get('/artifactory/upstream-remote/lib/a-1.0.jar')).body).toBe('upstream bytes');
    expect((await get('/artifactory/upstream-remote/lib/c-3.0.jar')).statusCode).toBe(404);
    expect((await ui('GET', '/ui/admin/repositories/upstream-remote/upstream')).json()).toMatchObject({
      offline: true,
      reachable: null,
    });
    await ui('PUT', '/ui/admin/repositories/upstream-remote', { offline: false });
    expect((await get('/artifactory/upstream-remote/lib/c-3.0.jar')).body).toBe('upstream only');

    // an upstream that never answers is given up after the repository's socket timeout
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const outOfRange = await ui('PUT', '/ui/admin/repositories/upstream-remote', { socketTimeoutMillis: 10 });
      expect([outOfRange.statusCode, outOfRange.json().errors[0].message]).toEqual([
        400,
        `socketTimeoutMillis: ${REPOSITORY_MESSAGES.socketTimeout}`,
      ]);
      await ui('PUT', '/ui/admin/repositories/upstream-remote', {
        url: `http://127.0.0.1:${port}/`,
        socketTimeoutMillis: 1_000,
      });
      const slow = await get('/artifactory/upstream-remote/lib/d-4.0.jar');
      expect(slow.statusCode).toBe(502);
      expect(slow.json().errors[0].message).toMatch(/: it did not answer in time$/);
      expect((await ui('GET', '/ui/admin/repositories/upstream-remote/upstream')).json()).toMatchObject({
        reachable: false,
        lastError: 'it did not answer in time',
      });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("refuses what would pass a local repository's storage quota, and keeps nothing of it", async () => {
    await createRepo(t.app, 'small-local', { rclass: 'local', storageQuotaBytes: 10 });
    expect((await put(t.app, '/artifactory/small-local/a.txt', '123456')).statusCode).toBe(201);
    const over = await put(t.app, '/artifactory/small-local/b.txt', '12345');
    expect(over.statusCode).toBe(413);
    expect(over.json().errors[0].message).toBe(
      "Repository 'small-local' is over its storage quota: 6 bytes stored, 5 bytes more would pass the quota of 10 bytes.",
    );
    expect((await get('/artifactory/small-local/b.txt')).statusCode).toBe(404);
    // replacing a file counts only the difference
    expect((await put(t.app, '/artifactory/small-local/a.txt', '1234567890')).statusCode).toBe(201);
  });

  it('resolves through a virtual repository: the local member first, then the remote', async () => {
    await put(t.app, '/artifactory/libs-local/lib/a-1.0.jar', 'local bytes');
    expect((await get('/artifactory/all/lib/a-1.0.jar')).body).toBe('local bytes');
    await put(upstream.app, '/artifactory/public-local/lib/b-2.0.jar', 'only upstream');
    expect((await get('/artifactory/all/lib/b-2.0.jar')).body).toBe('only upstream');
    expect((await get('/artifactory/all/lib/nowhere.jar')).statusCode).toBe(404);
  });

  it('keeps package files for ever, and asks the upstream again for metadata the format says is stale', async () => {
    await get('/artifactory/upstream-remote/lib/a-1.0.jar');
    await put(upstream.app, '/artifactory/public-local/lib/a-1.0.jar', 'changed upstream');
    // generic files are package files: the cached copy is served
    expect((await get('/artifactory/upstream-remote/lib/a-1.0.jar')).body).toBe('upstream bytes');
    const repo = await t.app.db
      .selectFrom('repositories')
      .selectAll()
      .where('key', '=', 'upstream-remote')
      .executeTakeFirstOrThrow();
    const ctx = {
      db: t.app.db,
      store: t.app.binaries,
      allowedHosts: async () => ['127.0.0.1'],
      // a format whose files under lib/ are metadata that is stale at once
      metadataMaxAgeMs: (_repo: unknown, path: string) => (path.startsWith('lib/') ? 0 : undefined),
    };
    const fresh = await resolveItem(ctx, repo, 'lib/a-1.0.jar');
    expect(await new Response(Readable.toWeb(t.app.binaries.read(fresh!.item.sha256!)) as ReadableStream).text()).toBe(
      'changed upstream',
    );
    // the upstream down, stale metadata is still served from the cache
    await upstream.app.close();
    const cached = await resolveItem(ctx, repo, 'lib/a-1.0.jar');
    expect(cached?.item.sha256).toBe(fresh!.item.sha256);
  });
});
