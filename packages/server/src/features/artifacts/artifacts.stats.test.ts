import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import {
  ADMIN_BASIC,
  ENGINES,
  changeSecuritySettings,
  createRepo,
  createUser,
  enrolTotp,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

describe.each(ENGINES)('reads on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/a.txt', 'hello');
  });
  afterEach(async () => {
    await t.close();
  });

  it('counts downloads (not HEAD or 304) and answers them with ?stats', async () => {
    const reader = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs-local'], actions: { users: { ann: ['read'] } } } },
    });
    const first = await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: ADMIN_BASIC });
    await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: reader });
    await t.app.inject({ method: 'HEAD', url: '/artifactory/libs-local/a.txt', headers: reader });
    await t.app.inject({
      url: '/artifactory/libs-local/a.txt',
      headers: { ...reader, 'if-none-match': first.headers.etag as string },
    });
    const stats = (
      await t.app.inject({ url: '/artifactory/api/storage/libs-local/a.txt?stats', headers: ADMIN_BASIC })
    ).json();
    expect(stats).toMatchObject({ downloadCount: 2, lastDownloadedBy: 'ann', remoteDownloadCount: 0 });
    expect(Date.now() - stats.lastDownloaded).toBeLessThan(60_000);
    expect(stats.uri).toMatch(/\/artifactory\/api\/storage\/libs-local\/a\.txt$/);
  });

  it('writes the downloads counted in memory when the server stops', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: ADMIN_BASIC });
    await t.app.close();
    const { app } = await buildApp(t.config);
    try {
      const row = await app.db
        .selectFrom('items')
        .select('download_count')
        .where('path', '=', 'a.txt')
        .executeTakeFirstOrThrow();
      expect(Number(row.download_count)).toBe(3);
    } finally {
      await app.close();
    }
  });

  it('serves from per-process caches yet sees a permission change on the next request of every process', async () => {
    const ann = await createUser(t.app, 'ann');
    // a second process on the same database, as a second worker or node is
    const { app: other } = await buildApp(t.config);
    try {
      const read = async () =>
        Promise.all(
          [t.app, other].map(
            async (app) => (await app.inject({ url: '/artifactory/libs-local/a.txt', headers: ann })).statusCode,
          ),
        );
      expect(await read()).toEqual([403, 403]);
      await t.app.inject({
        method: 'PUT',
        url: '/artifactory/api/v2/security/permissions/ann',
        headers: ADMIN_BASIC,
        payload: { repo: { repositories: ['libs-local'], actions: { users: { ann: ['read'] } } } },
      });
      expect(await read()).toEqual([200, 200]);
      await other.inject({
        method: 'DELETE',
        url: '/artifactory/api/v2/security/permissions/ann',
        headers: ADMIN_BASIC,
      });
      expect(await read()).toEqual([403, 403]);
      // settings and repositories too
      await changeSecuritySettings(t.app, { anonymousAccess: true });
      await other.inject({
        method: 'PUT',
        url: '/artifactory/api/v2/security/permissions/anon',
        headers: ADMIN_BASIC,
        payload: { repo: { repositories: ['libs-local'], actions: { users: { anonymous: ['read'] } } } },
      });
      expect((await t.app.inject({ url: '/artifactory/libs-local/a.txt' })).statusCode).toBe(200);
      await changeSecuritySettings(other, { anonymousAccess: false });
      expect((await t.app.inject({ url: '/artifactory/libs-local/a.txt' })).statusCode).toBe(401);
      await other.inject({
        method: 'POST',
        url: '/artifactory/api/repositories/libs-local',
        headers: ADMIN_BASIC,
        payload: { description: 'changed elsewhere' },
      });
      const seen = await t.app.inject({ url: '/artifactory/api/repositories/libs-local', headers: ADMIN_BASIC });
      expect(seen.json().description).toBe('changed elsewhere');
      // a password changed on one process ends the old one's verified credentials on the other
      await other.inject({
        method: 'PUT',
        url: '/artifactory/api/v2/security/permissions/ann',
        headers: ADMIN_BASIC,
        payload: { repo: { repositories: ['libs-local'], actions: { users: { ann: ['read'] } } } },
      });
      expect((await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: ann })).statusCode).toBe(200);
      await other.inject({
        method: 'POST',
        url: '/artifactory/api/security/users/ann',
        headers: ADMIN_BASIC,
        payload: { password: 'Another-passw0rd-9' },
      });
      expect((await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: ann })).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('keeps verified tokens, passwords and groups per process, yet sees a revocation, a group change or a second factor on the next request of every process', async () => {
    const ann = await createUser(t.app, 'ann');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/security/groups/readers',
      headers: ADMIN_BASIC,
      payload: { description: 'readers', userNames: ['ann'] },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/readers',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['libs-local'], actions: { groups: { readers: ['read'] } } } },
    });
    const issued = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: ann,
      payload: { description: 'ci' },
    });
    const bearer = { authorization: `Bearer ${(issued.json() as { access_token: string }).access_token}` };
    const { app: other } = await buildApp(t.config);
    try {
      const read = async (headers: Record<string, string>) =>
        Promise.all(
          [t.app, other].map(
            async (app) => (await app.inject({ url: '/artifactory/libs-local/a.txt', headers })).statusCode,
          ),
        );
      // twice: the second request of each process is answered from its caches
      for (let i = 0; i < 2; i++) {
        expect(await read(bearer)).toEqual([200, 200]);
        expect(await read(ann)).toEqual([200, 200]);
      }
      // leaving the group takes its rights away at once, for the password and the token alike
      await other.inject({
        method: 'POST',
        url: '/artifactory/api/security/groups/readers',
        headers: ADMIN_BASIC,
        payload: { userNames: [] },
      });
      expect(await read(bearer)).toEqual([403, 403]);
      expect(await read(ann)).toEqual([403, 403]);
      await other.inject({
        method: 'POST',
        url: '/artifactory/api/security/groups/readers',
        headers: ADMIN_BASIC,
        payload: { userNames: ['ann'] },
      });
      expect(await read(ann)).toEqual([200, 200]);
      // a revoked token ends on both
      const [token] = (
        (await t.app.inject({ url: '/access/api/v1/tokens', headers: ann })).json() as {
          tokens: { token_id: string }[];
        }
      ).tokens;
      const revoked = await other.inject({
        method: 'DELETE',
        url: `/access/api/v1/tokens/${token!.token_id}`,
        headers: ADMIN_BASIC,
      });
      expect(revoked.statusCode).toBe(200);
      expect(await read(bearer)).toEqual([401, 401]);
      // a second factor enrolled through one process ends the password alone on the other
      expect(await read(ann)).toEqual([200, 200]);
      await enrolTotp(other, 'ann', 'ann-Passw0rd');
      expect(await read(ann)).toEqual([401, 401]);
    } finally {
      await other.close();
    }
  });
});
