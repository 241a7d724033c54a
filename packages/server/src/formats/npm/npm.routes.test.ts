import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NPM_ABBREVIATED_TYPE, NPM_MESSAGES, WEB_LOGIN_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  changeSecuritySettings,
  countRows,
  createRepo,
  createUser,
  enrolTotp,
  XHR,
  repositoryFiles,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { packTarball, publishBody } from '../../test/npm.js';

const API = '/artifactory/api/npm';

describe.each(ENGINES)('npm registry on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
  });
  afterEach(async () => {
    await t.close();
  });

  const publish = async (repo: string, body: object, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({
      method: 'PUT',
      url: `${API}/${repo}/${encodeURIComponent((body as { name: string }).name)}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const get = (url: string, headers: Record<string, string> = ADMIN_BASIC) => t.app.inject({ url, headers });
  const storedFiles = () => repositoryFiles(t.app);

  it('publishes a scoped package and answers its packument, abbreviated packument, version and tarball', async () => {
    const { body, tarball } = await publishBody('@acme/util', '1.2.0', {
      manifest: { dependencies: { 'left-pad': '^1.0.0' }, scripts: { postinstall: 'node x.js' }, readme: '# Util' },
    });
    const published = await publish('npm-local', body);
    expect(published.statusCode).toBe(201);
    expect(await storedFiles()).toEqual(['.npm/@acme/util/package.json', '@acme/util/-/util-1.2.0.tgz']);

    // the scope's slash as npm sends it (%2f) and as a plain slash
    for (const name of ['@acme%2futil', '@acme/util']) {
      const full = await get(`${API}/npm-local/${name}`);
      expect(full.statusCode).toBe(200);
      const doc = full.json();
      expect(doc['dist-tags']).toEqual({ latest: '1.2.0' });
      expect(doc.versions['1.2.0'].dist).toMatchObject({
        tarball: 'http://localhost:80/artifactory/api/npm/npm-local/@acme/util/-/util-1.2.0.tgz',
        shasum: body.versions['1.2.0']!.dist.shasum,
        integrity: body.versions['1.2.0']!.dist.integrity,
      });
      expect(doc.versions['1.2.0']._npmUser).toEqual({ name: 'admin', email: expect.any(String) });
      expect(doc.readme).toBe('# Util');
    }
    const short = await get(`${API}/npm-local/@acme%2futil`, {
      ...ADMIN_BASIC,
      accept: `${NPM_ABBREVIATED_TYPE}; q=1.0, application/json; q=0.8`,
    });
    expect(short.headers['content-type']).toContain(NPM_ABBREVIATED_TYPE);
    expect(short.json().versions['1.2.0']).toEqual({
      name: '@acme/util',
      version: '1.2.0',
      dependencies: { 'left-pad': '^1.0.0' },
      hasInstallScript: true,
      dist: expect.objectContaining({ shasum: body.versions['1.2.0']!.dist.shasum }),
    });
    expect((await get(`${API}/npm-local/@acme%2futil/latest`)).json()).toMatchObject({ version: '1.2.0' });
    const file = await get(`${API}/npm-local/@acme/util/-/util-1.2.0.tgz`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(tarball)).toBe(true);
    expect((await get(`${API}/npm-local/@acme%2fnone`)).statusCode).toBe(404);
  });

  it('refuses a bad publish with a clear message and stores nothing', async () => {
    const good = await publishBody('demo', '1.0.0');
    const corrupt = await publishBody('demo', '1.0.0', { tarball: Buffer.from('not a tarball at all') });
    const otherName = await publishBody('demo', '1.0.0', {
      tarball: await packTarball({ 'package.json': JSON.stringify({ name: 'evil', version: '1.0.0' }) }),
    });
    const integrity = structuredClone(good.body);
    integrity.versions['1.0.0']!.dist.integrity = `sha512-${Buffer.alloc(64).toString('base64')}`;
    const shasum = structuredClone(good.body);
    shasum.versions['1.0.0']!.dist.shasum = '0'.repeat(40);
    const huge = await publishBody('demo', '1.0.0', { manifest: { readme: 'x'.repeat(3 * 1024 * 1024) } });
    const cases: [object, string, number, string][] = [
      [corrupt.body, 'demo', 400, NPM_MESSAGES.badTarball],
      [otherName.body, 'demo', 400, "The tarball's package.json is evil@1.0.0, not demo@1.0.0. Nothing was stored."],
      [integrity, 'demo', 400, "The tarball's integrity is"],
      [shasum, 'demo', 400, "The tarball's shasum is"],
      [huge.body, 'demo', 400, 'The metadata of demo@1.0.0 is'],
      [{ ...good.body, name: '../evil' }, '..%2fevil', 400, "Invalid package name '../evil'"],
      [{ ...good.body, name: '@acme/..' }, '@acme%2f..', 400, "Invalid package name '@acme/..'"],
      [{ ...good.body, name: 'other' }, 'demo', 400, "The package name in the metadata ('other')"],
    ];
    for (const [body, name, status, message] of cases) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `${API}/npm-local/${name}`,
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect([res.statusCode, messages(res)[0]?.slice(0, message.length)]).toEqual([status, message]);
    }
    expect(await storedFiles()).toEqual([]);
    expect(await countRows(t.app, 'binaries')).toBe(0);

    // the same version twice: npm's message, and the first stays as it was
    expect((await publish('npm-local', good.body)).statusCode).toBe(201);
    const again = await publishBody('demo', '1.0.0', { manifest: { description: 'changed' } });
    const refused = await publish('npm-local', again.body);
    expect([refused.statusCode, messages(refused)]).toEqual([
      409,
      ['You cannot publish over the previously published versions: 1.0.0.'],
    ]);
    const tgz = await get(`${API}/npm-local/demo/-/demo-1.0.0.tgz`);
    expect(tgz.rawPayload.equals(good.tarball)).toBe(true);
  });

  it('stores a published tarball without hashing it again and reads the packument once', async () => {
    await publish('npm-local', (await publishBody('demo', '1.0.0')).body);
    const write = vi.spyOn(t.app.binaries, 'write');
    const writeKnown = vi.spyOn(t.app.binaries, 'writeKnown');
    const readSmall = vi.spyOn(t.app.binaries, 'readSmall');
    const { body, tarball } = await publishBody('demo', '1.1.0');
    expect((await publish('npm-local', body)).statusCode).toBe(201);
    // the tarball: stored with the digests the publish checked; the packument: one streamed write
    expect(writeKnown).toHaveBeenCalledTimes(1);
    expect(writeKnown.mock.calls[0]![0].equals(tarball)).toBe(true);
    expect(write).toHaveBeenCalledTimes(1);
    // the packument the publish changed was read once, not again to write it back
    expect(readSmall).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    const doc = (await get(`${API}/npm-local/demo`)).json();
    expect(Object.keys(doc.versions)).toEqual(['1.0.0', '1.1.0']);
    const tgz = await get(`${API}/npm-local/demo/-/demo-1.1.0.tgz`);
    expect(tgz.rawPayload.equals(tarball)).toBe(true);
    expect(tgz.headers['x-checksum-sha256']).toBe(createHash('sha256').update(tarball).digest('hex'));
    expect(tgz.headers['x-checksum-md5']).toBe(createHash('md5').update(tarball).digest('hex'));
  });

  it('keeps dist-tags, deprecations and unpublished versions as npm asks', async () => {
    await publish('npm-local', (await publishBody('demo', '1.0.0')).body);
    await publish('npm-local', (await publishBody('demo', '2.0.0-rc.1', { tag: 'next' })).body);
    const tags = () => get(`${API}/npm-local/-/package/demo/dist-tags`).then((r) => r.json());
    expect(await tags()).toEqual({ latest: '1.0.0', next: '2.0.0-rc.1' });
    const put = (url: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url,
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    expect((await put(`${API}/npm-local/-/package/demo/dist-tags/stable`, '1.0.0')).statusCode).toBe(201);
    expect(messages(await put(`${API}/npm-local/-/package/demo/dist-tags/stable`, '9.9.9'))).toEqual([
      "demo has no version '9.9.9'.",
    ]);
    const removeLatest = await t.app.inject({
      method: 'DELETE',
      url: `${API}/npm-local/-/package/demo/dist-tags/latest`,
      headers: ADMIN_BASIC,
    });
    expect(messages(removeLatest)).toEqual([NPM_MESSAGES.latestTag]);
    await t.app.inject({
      method: 'DELETE',
      url: `${API}/npm-local/-/package/demo/dist-tags/next`,
      headers: ADMIN_BASIC,
    });
    expect(await tags()).toEqual({ latest: '1.0.0', stable: '1.0.0' });

    // deprecate: the whole document comes back with a message on one version
    const doc = (await get(`${API}/npm-local/demo`)).json();
    doc.versions['1.0.0'].deprecated = 'use 2';
    doc.versions['1.0.0'].description = 'published versions do not change';
    expect((await put(`${API}/npm-local/demo/-rev/${doc._rev}`, doc)).statusCode).toBe(201);
    const after = (await get(`${API}/npm-local/demo`)).json();
    expect(after.versions['1.0.0']).toMatchObject({ deprecated: 'use 2', description: 'demo for tests' });

    // unpublish one version: the document without it, then its tarball
    delete after.versions['2.0.0-rc.1'];
    expect((await put(`${API}/npm-local/demo/-rev/${after._rev}`, after)).statusCode).toBe(201);
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `${API}/npm-local/demo/-/demo-2.0.0-rc.1.tgz/-rev/1`,
      headers: ADMIN_BASIC,
    });
    expect(gone.statusCode).toBe(200);
    expect(Object.keys((await get(`${API}/npm-local/demo`)).json().versions)).toEqual(['1.0.0']);
    expect(await storedFiles()).toEqual(['.npm/demo/package.json', 'demo/-/demo-1.0.0.tgz']);
    // and the whole package
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${API}/npm-local/demo/-rev/2`, headers: ADMIN_BASIC })).statusCode,
    ).toBe(200);
    expect((await get(`${API}/npm-local/demo`)).statusCode).toBe(404);
  });

  it('applies read, deploy and delete rights, and hides what a user may not read', async () => {
    const reader = await createUser(t.app, 'reader');
    const writer = await createUser(t.app, 'writer');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/npm',
      headers: ADMIN_BASIC,
      payload: {
        repo: { repositories: ['npm-local'], actions: { users: { reader: ['read'], writer: ['read', 'write'] } } },
      },
    });
    const { body } = await publishBody('demo', '1.0.0');
    expect((await publish('npm-local', body, reader)).statusCode).toBe(403);
    expect((await publish('npm-local', body, writer)).statusCode).toBe(201);
    expect((await get(`${API}/npm-local/demo`, reader)).statusCode).toBe(200);
    expect((await get(`${API}/npm-local/demo/-/demo-1.0.0.tgz`, reader)).statusCode).toBe(200);
    // unpublishing needs delete
    const unpublish = await t.app.inject({ method: 'DELETE', url: `${API}/npm-local/demo/-rev/1`, headers: writer });
    expect(unpublish.statusCode).toBe(403);
    expect((await get(`${API}/npm-local/demo`)).statusCode).toBe(200);
    // whoami and login
    expect((await get(`${API}/npm-local/-/whoami`, reader)).json()).toEqual({ username: 'reader' });
    expect((await t.app.inject({ url: `${API}/npm-local/-/whoami` })).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'PUT',
      url: `${API}/npm-local/-/user/org.couchdb.user:reader`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'reader', password: 'reader-Passw0rd' }),
    });
    expect(login.statusCode).toBe(201);
    const bearer = { authorization: `Bearer ${login.json().token}` };
    expect((await get(`${API}/npm-local/-/whoami`, bearer)).json()).toEqual({ username: 'reader' });
    const wrong = await t.app.inject({
      method: 'PUT',
      url: `${API}/npm-local/-/user/org.couchdb.user:reader`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'reader', password: 'wrong' }),
    });
    expect(wrong.statusCode).toBe(401);
    // a user without read: 403, or 404 once unauthorised resources are hidden
    const stranger = await createUser(t.app, 'stranger');
    expect((await get(`${API}/npm-local/demo`, stranger)).statusCode).toBe(403);
    await changeSecuritySettings(t.app, { hideUnauthorizedResources: true });
    expect((await get(`${API}/npm-local/demo`, stranger)).statusCode).toBe(404);
    expect((await get(`${API}/npm-local/demo/-/demo-1.0.0.tgz`, stranger)).statusCode).toBe(404);
  });

  it('refuses the password login of a user with a second factor, and signs him in through the browser instead', async () => {
    await createUser(t.app, 'ann');
    const { cookie } = await enrolTotp(t.app, 'ann', 'ann-Passw0rd');
    const tokens = () => countRows(t.app, 'access_tokens');
    const before = await tokens();
    const couch = await t.app.inject({
      method: 'PUT',
      url: `${API}/npm-local/-/user/org.couchdb.user:ann`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'ann', password: 'ann-Passw0rd' }),
    });
    expect(couch.statusCode).toBe(401);
    expect(couch.headers['www-authenticate']).toBe('OTP');
    expect(couch.json().error).toBe(
      WEB_LOGIN_MESSAGES.mfaNeedsWeb.replace('{registry}', 'http://localhost:80/artifactory/api/npm/npm-local/'),
    );
    expect(await tokens()).toBe(before);
    // a wrong authenticator code is refused too (and counts toward the lockout)
    const wrongCode = await t.app.inject({
      method: 'PUT',
      url: `${API}/npm-local/-/user/org.couchdb.user:ann`,
      headers: { 'content-type': 'application/json', 'npm-otp': '000000' },
      payload: JSON.stringify({ name: 'ann', password: 'ann-Passw0rd' }),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(await tokens()).toBe(before);

    // npm's web login: where to send the user, where to wait
    const opened = await t.app.inject({
      method: 'POST',
      url: `${API}/npm-local/-/v1/login`,
      headers: { 'content-type': 'application/json', 'user-agent': 'npm/11.0.0 node/v20' },
      payload: '{}',
    });
    expect(opened.statusCode).toBe(200);
    const { loginUrl, doneUrl } = opened.json() as { loginUrl: string; doneUrl: string };
    expect(loginUrl).toMatch(/^http:\/\/localhost:80\/ui\/web-login\/[\w-]{32}$/);
    const id = loginUrl.split('/').pop()!;
    const done = () => t.app.inject({ url: new URL(doneUrl).pathname + new URL(doneUrl).search });
    const waiting = await done();
    expect([waiting.statusCode, waiting.headers['retry-after']]).toEqual([202, '1']);

    const webLogin = `/ui/api/v1/ui/auth/web-login/${id}`;
    const shown = await t.app.inject({ url: webLogin, headers: { cookie } });
    expect(shown.json()).toMatchObject({ client: 'npm/11.0.0', hostname: '', status: 'pending' });
    // a token or a password cannot approve a request for more tokens; only a console session can
    const viaPassword = await t.app.inject({
      method: 'POST',
      url: `${webLogin}/approve`,
      headers: { ...XHR, ...ADMIN_BASIC },
    });
    expect(viaPassword.statusCode).toBe(403);
    expect((await done()).statusCode).toBe(202);
    const approved = await t.app.inject({ method: 'POST', url: `${webLogin}/approve`, headers: { ...XHR, cookie } });
    expect(approved.statusCode).toBe(204);

    const answered = await done();
    expect(answered.statusCode).toBe(200);
    const { token } = answered.json() as { token: string };
    expect((await get(`${API}/npm-local/-/whoami`, { authorization: `Bearer ${token}` })).json()).toEqual({
      username: 'ann',
    });
    // given once, and lasting the default token lifetime of the security settings (365 days)
    expect((await done()).statusCode).toBe(404);
    const row = await t.app.db
      .selectFrom('access_tokens')
      .select(['created_at', 'expires_at', 'description'])
      .where('description', '=', 'npm login (web)')
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(365 * 86_400_000);

    // a denied request ends the client's wait with the reason
    const second = (
      await t.app.inject({
        method: 'POST',
        url: `${API}/npm-local/-/v1/login`,
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      })
    ).json() as { loginUrl: string; doneUrl: string };
    const denied = await t.app.inject({
      method: 'POST',
      url: `/ui/api/v1/ui/auth/web-login/${second.loginUrl.split('/').pop()}/deny`,
      headers: { ...XHR, cookie },
    });
    expect(denied.statusCode).toBe(204);
    const refused = await t.app.inject({ url: new URL(second.doneUrl).pathname + new URL(second.doneUrl).search });
    expect([refused.statusCode, refused.json().error]).toEqual([403, WEB_LOGIN_MESSAGES.denied]);
    expect((await t.app.inject({ url: `${API}/npm-local/-/v1/done?sessionId=made-up` })).statusCode).toBe(404);
  });

  it('gives a password login a token that expires after the default token lifetime', async () => {
    await createUser(t.app, 'bob');
    await changeSecuritySettings(t.app, { tokenDefaultExpiryDays: 30 });
    const login = await t.app.inject({
      method: 'PUT',
      url: `${API}/npm-local/-/user/org.couchdb.user:bob`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'bob', password: 'bob-Passw0rd' }),
    });
    expect(login.statusCode).toBe(201);
    const row = await t.app.db
      .selectFrom('access_tokens')
      .select(['created_at', 'expires_at'])
      .where('description', '=', 'npm login')
      .executeTakeFirstOrThrow();
    expect(Number(row.expires_at) - Number(row.created_at)).toBe(30 * 86_400_000);
  });

  describe('with an upstream registry', () => {
    let upstream: TestApp;
    beforeEach(async () => {
      upstream = await startTestApp(engine);
      await createRepo(upstream.app, 'public', { rclass: 'local', packageType: 'npm' });
      await upstream.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (upstream.app.server.address() as AddressInfo).port;
      await t.close();
      t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
      await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
      await createRepo(t.app, 'npmjs', {
        rclass: 'remote',
        packageType: 'npm',
        url: `http://127.0.0.1:${port}/artifactory/api/npm/public/`,
        username: 'admin',
        password: ADMIN_PASSWORD,
        metadataRetrievalCachePeriodSecs: 0,
      });
      await createRepo(t.app, 'npm', {
        rclass: 'virtual',
        packageType: 'npm',
        repositories: ['npm-local', 'npmjs'],
        defaultDeploymentRepo: 'npm-local',
      });
    });
    afterEach(async () => {
      await upstream.close();
    });

    const publishUpstream = async (name: string, version: string, tag?: string) => {
      const { body } = await publishBody(name, version, { ...(tag ? { tag } : {}) });
      const res = await upstream.app.inject({
        method: 'PUT',
        url: `${API}/public/${encodeURIComponent(name)}`,
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(201);
    };

    it('merges a local and a remote packument in a virtual repository, tarballs served through it', async () => {
      await publishUpstream('@acme/shared', '1.0.0');
      await publishUpstream('@acme/shared', '2.0.0');
      // the local repository comes first: its 1.0.0 and its latest win
      const local = await publishBody('@acme/shared', '1.0.0', { manifest: { description: 'ours' } });
      await publish('npm', local.body);
      const doc = (await get(`${API}/npm/@acme%2fshared`)).json();
      expect(Object.keys(doc.versions).sort()).toEqual(['1.0.0', '2.0.0']);
      expect(doc.versions['1.0.0'].description).toBe('ours');
      expect(doc['dist-tags'].latest).toBe('1.0.0');
      expect(doc.versions['2.0.0'].dist.tarball).toBe(
        'http://localhost:80/artifactory/api/npm/npm/@acme/shared/-/shared-2.0.0.tgz',
      );
      const fromUpstream = await get(`${API}/npm/@acme/shared/-/shared-2.0.0.tgz`);
      expect(fromUpstream.statusCode).toBe(200);
      const cached = await t.app.db
        .selectFrom('items')
        .select('path')
        .where('repo_key', '=', 'npmjs')
        .where('folder', '=', 0)
        .execute();
      expect(cached.map((r) => r.path).sort()).toEqual([
        '.npm/@acme/shared/package.json',
        '@acme/shared/-/shared-2.0.0.tgz',
      ]);

      // the remote's metadata period is over at once here: a new upstream version shows on the next read
      await publishUpstream('@acme/shared', '3.0.0', 'next');
      const fresh = (await get(`${API}/npm/@acme%2fshared`)).json();
      expect(Object.keys(fresh.versions).sort()).toEqual(['1.0.0', '2.0.0', '3.0.0']);
      expect(fresh['dist-tags']).toEqual({ latest: '1.0.0', next: '3.0.0' });
      // the upstream gone, the cached packument and tarballs still answer
      await upstream.app.close();
      expect(Object.keys((await get(`${API}/npmjs/@acme%2fshared`)).json().versions).length).toBe(3);
      expect((await get(`${API}/npm/@acme/shared/-/shared-2.0.0.tgz`)).statusCode).toBe(200);
    });

    it('searches the packages of a virtual repository', async () => {
      await publish('npm', (await publishBody('left-pad', '1.0.0')).body);
      await publish('npm', (await publishBody('@acme/padding', '1.0.0')).body);
      await publish('npm', (await publishBody('right-trim', '1.0.0')).body);
      const found = (await get(`${API}/npm/-/v1/search?text=pad&size=20`)).json();
      expect(found.total).toBe(2);
      expect(found.objects.map((o: { package: { name: string } }) => o.package.name)).toEqual([
        '@acme/padding',
        'left-pad',
      ]);
      expect(found.objects[0].package).toMatchObject({ version: '1.0.0', description: '@acme/padding for tests' });
    });
  });
});
