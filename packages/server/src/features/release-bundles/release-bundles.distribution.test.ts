import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_BUNDLE_MESSAGES, type DistributionTracker } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, createUser, login, startListeningApp as listening } from '../../test/harness.js';
import { startCountingProxy } from '../../test/tcp-proxy.js';
import { BUNDLE_DISTRIBUTION } from './release-bundles.distribution.js';

type Instance = Awaited<ReturnType<typeof listening>>;

const FILES = 200;
const FILE_BYTES = 16 * 1024;
const LIFECYCLE = '/lifecycle/api/v2';
const json = { ...ADMIN_BASIC, 'content-type': 'application/json' };

/**
 * Two real Arca instances: a release bundle distributed from one to the other through a TCP proxy
 * that counts the bytes on the wire, distributed again after a few files changed, through a
 * target lost midway, then deleted there.
 */
describe.each(ENGINES)('release bundle distribution on %s', (engine) => {
  let here: Instance;
  let there: Instance;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
  const contents = new Map<string, Buffer>();
  const call = (at: Instance, method: string, url: string, payload?: unknown, headers: Record<string, string> = json) =>
    at.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const message = (res: { json: () => unknown }) =>
    (res.json() as { errors: { message: string }[] }).errors[0]!.message;
  const deploy = async (path: string, bytes: Buffer) => {
    contents.set(path, bytes);
    const res = await here.app.inject({
      method: 'PUT',
      url: `/artifactory/libs/${path}`,
      headers: ADMIN_BASIC,
      payload: bytes,
    });
    expect(res.statusCode).toBe(201);
  };
  /** A version of every file deployed so far, or of the paths given. */
  const createVersion = async (version: string, paths?: string[]) => {
    const res = await call(here, 'POST', `${LIFECYCLE}/release_bundle`, {
      release_bundle_name: 'web',
      release_bundle_version: version,
      signing_key: 'dist-key',
      ...(paths
        ? { source_type: 'artifacts', source: { artifacts: paths.map((p) => ({ path: `libs/${p}` })) } }
        : { source_type: 'aql', source: { aql: 'items.find({"repo":"libs"})' } }),
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const distribute = (version: string, action = 'distribute') =>
    call(here, 'POST', `${LIFECYCLE}/distribution/${action}/web/${version}`, {
      distribution_rules: [{ site_name: 'edge-*' }],
      auto_create_missing_repositories: true,
    });
  /** The tracker of the latest distribution of a version, once it has ended. */
  const finished = async (version: string): Promise<DistributionTracker> => {
    let last: DistributionTracker | undefined;
    await expect
      .poll(
        async () => {
          await here.app.work.poll();
          last = (
            (
              await call(here, 'GET', `${LIFECYCLE}/distribution/trackers/web/${version}`)
            ).json() as DistributionTracker[]
          )[0];
          return last?.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .not.toBe('IN_PROGRESS');
    return last!;
  };

  beforeAll(async () => {
    [here, there] = await Promise.all([listening(engine), listening(engine)]);
    proxy = await startCountingProxy(there.port);
    const pairing = await call(there, 'POST', '/access/api/v1/pairing/token');
    const registered = await call(
      here,
      'POST',
      '/ui/api/v1/mc/api/v1/deployments',
      {
        name: 'edge-eu',
        url: proxy.url,
        pairing_token: pairing.json().token,
      },
      { ...json, ...XHR },
    );
    expect(registered.statusCode, registered.body).toBe(201);
    const cookie = (await login(here.app)).cookie;
    const key = await here.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/security/keyPairs',
      headers: { ...XHR, cookie },
      payload: { pairName: 'dist-key', pairType: 'RSA' },
    });
    expect(key.statusCode).toBe(201);
    expect((await call(here, 'PUT', '/artifactory/api/repositories/libs', { rclass: 'local' })).statusCode).toBe(200);
    for (let i = 0; i < FILES; i++) await deploy(`app/part-${String(i).padStart(3, '0')}.bin`, randomBytes(FILE_BYTES));
    await createVersion('1.0');
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await Promise.all([here?.close(), there?.close()]);
  });

  it('distributes a 200-artifact bundle; the target verifies it and holds its files', async () => {
    proxy.reset();
    const started = await distribute('1.0');
    expect(started.statusCode, started.body).toBe(202);
    expect((started.json() as { trackers: DistributionTracker[] }).trackers.map((t) => [t.target, t.status])).toEqual([
      ['edge-eu', 'IN_PROGRESS'],
    ]);
    const tracker = await finished('1.0');
    expect(tracker).toMatchObject({
      status: 'COMPLETED',
      files_total: FILES,
      files_done: FILES,
      files_sent: FILES,
      bytes_sent: FILES * FILE_BYTES,
    });
    // on the wire: the payload and the calls around it, no second copy
    expect(proxy.counted.up).toBeGreaterThan(FILES * FILE_BYTES);
    expect(proxy.counted.up).toBeLessThan(FILES * FILE_BYTES * 1.15);

    const received = (await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.0`)).json();
    expect(received).toMatchObject({ origin: 'received', artifact_count: FILES, signing_key: 'dist-key' });
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.0/verify`)).json()).toMatchObject({
      verified: true,
      signature: 'valid',
    });
    const file = await there.app.inject({ url: '/artifactory/libs/app/part-007.bin', headers: ADMIN_BASIC });
    expect(Buffer.from(file.rawPayload).equals(contents.get('app/part-007.bin')!)).toBe(true);
    const refused = await there.app.inject({
      method: 'DELETE',
      url: '/artifactory/libs/app/part-007.bin',
      headers: ADMIN_BASIC,
    });
    expect(refused.statusCode).toBe(409);
    // what a source asks before it sends: which contents the target holds, all at once
    const sha = createHash('sha256').update(contents.get('app/part-007.bin')!).digest('hex');
    const asked = await call(there, 'POST', '/artifactory/api/replication/contents', { sha256: [sha, '0'.repeat(64)] });
    expect([asked.statusCode, asked.json()]).toEqual([200, { held: [sha] }]);
    const malformed = await call(there, 'POST', '/artifactory/api/replication/contents', { sha256: ['not-a-sha'] });
    expect([malformed.statusCode, message(malformed)]).toEqual([
      400,
      'sha256.0: A SHA-256 is 64 lowercase hexadecimal digits.',
    ]);
    const anonymous = await there.app.inject({
      method: 'POST',
      url: '/artifactory/api/replication/contents',
      payload: { sha256: [sha] },
    });
    expect(anonymous.statusCode).toBe(401);
    // what webhooks are told: the distribution here, the bundle received there
    const events = async (at: Instance, type: string) =>
      (await at.app.db.selectFrom('events').select('payload').where('type', '=', type).orderBy('seq').execute()).map(
        (e) => JSON.parse(e.payload) as Record<string, unknown>,
      );
    expect((await events(here, 'distribution.changed')).map((p) => [p.status, p.target])).toEqual([
      ['started', 'edge-eu'],
      ['completed', 'edge-eu'],
    ]);
    expect(await events(there, 'release_bundle.received')).toEqual([
      expect.objectContaining({ name: 'web', version: '1.0', artifacts: FILES }),
    ]);
  });

  it('sends only the changed bytes when a new version with 5 changed files is distributed', async () => {
    // the files of 1.0 are held: a new release brings its changed files at new paths
    const paths = [...contents.keys()];
    for (let i = 0; i < 5; i++) {
      const old = `app/part-${String(i * 40).padStart(3, '0')}.bin`;
      const changed = old.replace('.bin', '-1.1.bin');
      await deploy(changed, randomBytes(FILE_BYTES));
      paths.splice(paths.indexOf(old), 1, changed);
    }
    await createVersion('1.1', paths);
    proxy.reset();
    expect((await distribute('1.1')).statusCode).toBe(202);
    const tracker = await finished('1.1');
    expect(tracker).toMatchObject({
      status: 'COMPLETED',
      files_done: FILES,
      files_sent: 5,
      bytes_sent: 5 * FILE_BYTES,
    });
    // the five files and the calls around them; the 195 unchanged ones not sent again
    expect(proxy.counted.up).toBeGreaterThan(5 * FILE_BYTES);
    expect(proxy.counted.up).toBeLessThan(5 * FILE_BYTES + 64 * 1024);
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.1/verify`)).json()).toMatchObject({
      verified: true,
    });
  });

  it('completes a distribution whose target went away midway once it is back', async () => {
    for (let i = 0; i < 5; i++) await deploy(`app/late-${i}.bin`, randomBytes(256 * 1024));
    await createVersion('1.2');
    proxy.reset();
    proxy.downAfter(300 * 1024);
    expect((await distribute('1.2')).statusCode).toBe(202);
    // the transfer breaks; the attempt is recorded and tried again
    await expect
      .poll(
        async () => {
          await here.app.work.poll();
          return (
            (await call(here, 'GET', `${LIFECYCLE}/distribution/trackers/web/1.2`)).json() as DistributionTracker[]
          )[0]!.message;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^attempt \d+ failed, trying again: /);
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.2`)).statusCode).toBe(404);
    proxy.up();
    const tracker = await finished('1.2');
    expect(tracker).toMatchObject({ status: 'COMPLETED', files_done: FILES + 10 });
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.2/verify`)).json()).toMatchObject({
      verified: true,
    });
  });

  it('aborts a distribution under way: the target never takes the bundle, and a new distribution completes', async () => {
    const nothing = await call(here, 'PUT', `${LIFECYCLE}/distribution/abort/web/1.0`);
    expect([nothing.statusCode, message(nothing)]).toEqual([
      409,
      "No distribution of release bundle 'web' version '1.0' is in progress.",
    ]);
    await deploy('app/abort-me.bin', randomBytes(FILE_BYTES));
    await createVersion('1.3');
    proxy.down();
    expect((await distribute('1.3')).statusCode).toBe(202);
    const tracker = async () =>
      ((await call(here, 'GET', `${LIFECYCLE}/distribution/trackers/web/1.3`)).json() as DistributionTracker[])[0]!;
    await expect
      .poll(
        async () => {
          await here.app.work.poll();
          return (await tracker()).message;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^attempt \d+ failed, trying again: /);

    const aborted = await call(here, 'PUT', `${LIFECYCLE}/distribution/abort/web/1.3`);
    expect(aborted.statusCode, aborted.body).toBe(200);
    expect(aborted.json()).toEqual([{ name: 'edge-eu', service_id: expect.any(String), type: 'artifactory' }]);
    const ended = await tracker();
    expect(ended).toMatchObject({ status: 'ABORTED', message: 'Aborted by admin.' });
    expect(ended.finished).not.toBeNull();
    expect((await here.app.work.get(BUNDLE_DISTRIBUTION, ended.distribution_tracker_id))?.state).toBe('stopped');
    // back online, nothing resumes: the target never records the version
    proxy.up();
    await here.app.work.poll();
    await here.app.work.idle();
    expect((await tracker()).status).toBe('ABORTED');
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.3`)).statusCode).toBe(404);
    const events = await here.app.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'distribution.changed')
      .orderBy('seq')
      .execute();
    expect(
      events
        .map((e) => JSON.parse(e.payload) as { version: string; status: string })
        .filter((e) => e.version === '1.3'),
    ).toEqual([
      expect.objectContaining({ status: 'started', target: 'edge-eu' }),
      expect.objectContaining({ status: 'aborted', target: 'edge-eu', message: 'Aborted by admin.' }),
    ]);

    expect((await distribute('1.3')).statusCode).toBe(202);
    expect(await finished('1.3')).toMatchObject({ status: 'COMPLETED' });
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.3/verify`)).json()).toMatchObject({
      verified: true,
    });
  });

  it('refuses a manifest that does not match its signature, and deletes a version from its targets', async () => {
    const version = (await call(here, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.0`)).json() as {
      key_fingerprint: string;
    };
    const manifest = (
      await here.app.inject({ url: '/artifactory/release-bundles/web/1.0/release-bundle.json', headers: ADMIN_BASIC })
    ).body;
    const row = await here.app.db
      .selectFrom('release_bundle_versions')
      .select(['signature', 'public_key'])
      .where('name', '=', 'web')
      .where('version', '=', '1.0')
      .executeTakeFirstOrThrow();
    const forged = manifest.replace('"release_bundle_version": "1.0"', '"release_bundle_version": "9.9"');
    const tampered = await call(there, 'POST', `${LIFECYCLE}/distribution/receive/web/9.9`, {
      manifest: forged,
      signature: row.signature,
      public_key: row.public_key,
      key_fingerprint: version.key_fingerprint,
      signing_key: 'dist-key',
      source_type: 'aql',
      origin: 'test',
    });
    expect([tampered.statusCode, message(tampered)]).toEqual([400, RELEASE_BUNDLE_MESSAGES.tamperedManifest]);

    expect((await distribute('1.0', 'remote_delete')).statusCode).toBe(202);
    expect(await finished('1.0')).toMatchObject({ type: 'delete', status: 'COMPLETED' });
    expect((await call(there, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.0`)).statusCode).toBe(404);
    expect((await call(here, 'GET', `${LIFECYCLE}/release_bundle/records/web/1.0`)).statusCode).toBe(200);
  });

  it('refuses to distribute in global offline mode and without the right to', async () => {
    const user = await createUser(here.app, 'no-distribute');
    const target = await call(here, 'PUT', '/artifactory/api/v2/security/permissions/readers', {
      name: 'readers',
      repo: { repositories: ['libs'], actions: { users: { 'no-distribute': ['read'] } } },
      releaseBundle: { repositories: ['release-bundles'], actions: { users: { 'no-distribute': ['read', 'write'] } } },
    });
    expect(target.statusCode, target.body).toBeLessThan(300);
    const denied = await call(
      here,
      'POST',
      `${LIFECYCLE}/distribution/distribute/web/1.1`,
      {},
      {
        ...user,
        'content-type': 'application/json',
      },
    );
    expect([denied.statusCode, message(denied)]).toEqual([403, RELEASE_BUNDLE_MESSAGES.noDistributePermission]);
    const cookie = (await login(here.app)).cookie;
    const general = async (on: boolean) =>
      here.app.inject({
        method: 'PUT',
        url: '/ui/api/v1/ui/generalConfig',
        headers: { ...XHR, cookie, 'content-type': 'application/json' },
        payload: { globalOfflineMode: on },
      });
    expect((await general(true)).statusCode).toBeLessThan(300);
    const offline = await distribute('1.1');
    expect([offline.statusCode, message(offline)]).toEqual([409, RELEASE_BUNDLE_MESSAGES.offline]);
    expect((await general(false)).statusCode).toBeLessThan(300);
  });
});
