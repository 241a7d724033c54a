import { createHash, createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  login,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { dispatch } from './webhooks.delivery.js';

interface Arrival {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: {
    event_id: string;
    subscription_key: string;
    domain: string;
    event_type: string;
    data: Record<string, unknown>;
  };
}

/** An HTTP receiver: records what arrives; `answer` decides the status (or holds the request). */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const held: http.ServerResponse[] = [];
  let answer: (arrival: Arrival) => number | 'hold' = () => 200;
  const server = http.createServer((req, res) => {
    // an upstream for remote repositories as well: its files are not webhook arrivals
    if (req.method === 'GET' && req.url?.startsWith('/upstream/')) {
      res.end(`upstream ${req.url}`);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const arrival = { path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) as Arrival['body'] };
      arrivals.push(arrival);
      const status = answer(arrival);
      if (status === 'hold') held.push(res);
      else {
        res.statusCode = status;
        res.end(status < 300 ? 'ok' : 'not now');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    arrivals,
    answer: (fn: typeof answer) => (answer = fn),
    /** Answers the requests held so far. */
    release: () => {
      for (const res of held.splice(0)) res.end('late');
    },
    of: (key: string) => arrivals.filter((a) => a.body.subscription_key === key),
    close: async () => {
      for (const res of held) res.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${limitMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const digestOf = (data: string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

describe.each(ENGINES)('webhook deliveries on %s', (engine) => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const subscribe = (key: string, domain: string, eventTypes: string[], criteria: object, handler: object) =>
    t.app.inject({
      method: 'POST',
      url: '/event/api/v1/subscriptions',
      headers: ADMIN_BASIC,
      payload: { key, enabled: true, event_filter: { domain, event_types: eventTypes, criteria }, handlers: [handler] },
    });
  /** Every event recorded so far made into deliveries, and every due delivery sent. */
  const settle = async () => {
    await t.services.webhooks.consumer.drain();
    await t.services.webhooks.sender.drain();
  };
  const inject = (method: string, url: string, payload?: object | string) =>
    t.app.inject({ method: method as 'GET', url, headers: ADMIN_BASIC, ...(payload !== undefined ? { payload } : {}) });

  beforeAll(async () => {
    // the receiver runs on this machine: the outbound policy is told to let webhooks reach it
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ARCA_WEBHOOK_RETRY_MAX_SECONDS: '1' });
    receiver = await startReceiver();
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(() => {
    receiver.arrivals.length = 0;
    receiver.answer(() => 200);
  });

  it('sends every event type Arca produces, in order, with the payload, secret and signature receivers check', async () => {
    const anyLocal = { anyLocal: true };
    expect(
      (
        await subscribe(
          'artifacts',
          'artifact',
          ['deployed', 'deleted', 'moved', 'copied'],
          { repoKeys: ['libs-local'] },
          {
            url: receiver.url('/artifacts'),
            secret: 'sign-with-me',
            use_secret_for_signing: true,
            custom_http_headers: [{ name: 'X-Team', value: 'platform' }],
          },
        )
      ).statusCode,
    ).toBe(201);
    await subscribe('props', 'artifact_property', ['added', 'deleted'], anyLocal, {
      url: receiver.url('/props'),
      secret: 'plain',
    });
    await subscribe('docker', 'docker', ['pushed', 'deleted'], anyLocal, { url: receiver.url('/docker') });
    await subscribe(
      'builds',
      'build',
      ['uploaded', 'promoted', 'deleted'],
      { anyBuild: true },
      { url: receiver.url('/builds') },
    );
    await subscribe('repos', 'repository', ['created', 'updated', 'deleted'], anyLocal, {
      url: receiver.url('/repos'),
    });
    await subscribe('users', 'user', ['created', 'updated', 'deleted'], {}, { url: receiver.url('/users') });
    await createRepo(t.app, 'up-remote', { rclass: 'remote', url: receiver.url('/upstream/') });
    await subscribe('cache', 'artifact', ['cached'], { anyRemote: true }, { url: receiver.url('/cache') });

    await put(t.app, '/artifactory/libs-local/app/a.txt', 'first');
    expect((await inject('GET', '/artifactory/up-remote/lib/remote.txt')).body).toBe(
      'upstream /upstream/lib/remote.txt',
    );
    await inject('POST', '/artifactory/api/copy/libs-local/app/a.txt?to=/libs-local/copies/a.txt');
    await inject('POST', '/artifactory/api/move/libs-local/copies/a.txt?to=/libs-local/moved/a.txt');
    await inject('PUT', '/artifactory/api/storage/libs-local/app/a.txt?properties=qa=passed;tier=gold');
    await inject('DELETE', '/artifactory/api/storage/libs-local/app/a.txt?properties=qa');
    await inject('DELETE', '/artifactory/libs-local/app/a.txt');

    const config = JSON.stringify({ architecture: 'arm64', os: 'linux' });
    for (const blob of [config, 'layer'])
      await inject('POST', `/v2/docker-local/team/app/blobs/uploads/?digest=${digestOf(blob)}`, blob);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digestOf('layer'), size: 5 }],
    });
    const pushed = await t.app.inject({
      method: 'PUT',
      url: '/v2/docker-local/team/app/manifests/1.0',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      payload: manifest,
    });
    expect(pushed.statusCode).toBe(201);
    expect((await inject('DELETE', '/v2/docker-local/team/app/manifests/1.0')).statusCode).toBe(202);

    const started = '2026-11-20T10:00:00.000+0000';
    await inject('PUT', '/artifactory/api/build', { name: 'web', number: '7', started });
    await inject('POST', '/artifactory/api/build/promote/web/7', { status: 'released' });
    await inject('DELETE', '/artifactory/api/build/web?buildNumbers=7');

    await createRepo(t.app, 'extra-local', { rclass: 'local' });
    await inject('POST', '/artifactory/api/repositories/extra-local', { key: 'extra-local', description: 'more' });
    await inject('DELETE', '/artifactory/api/repositories/extra-local');

    await createUser(t.app, 'carol');
    await inject('POST', '/artifactory/api/security/users/carol', { email: 'c@example.com' });
    await inject('DELETE', '/artifactory/api/security/users/carol');

    await settle();
    const kinds = (key: string) => receiver.of(key).map((a) => a.body.event_type);
    expect(kinds('artifacts')).toEqual(['deployed', 'copied', 'moved', 'deleted']);
    expect(kinds('props')).toEqual(['added', 'added', 'deleted']);
    expect(kinds('docker')).toEqual(['pushed', 'deleted']);
    expect(kinds('builds')).toEqual(['uploaded', 'promoted', 'deleted']);
    expect(kinds('repos')).toEqual(['created', 'updated', 'deleted']);
    expect(kinds('users')).toEqual(['created', 'updated', 'deleted']);
    expect(kinds('cache')).toEqual(['cached']);
    expect(receiver.of('cache')[0]!.body).toMatchObject({
      source: 'arca/remote',
      data: { repo_key: 'up-remote', path: 'lib/remote.txt', name: 'remote.txt' },
    });

    const [deployed, copied, moved, deleted] = receiver.of('artifacts');
    expect(deployed!.body).toMatchObject({
      domain: 'artifact',
      event_type: 'deployed',
      subscription_key: 'artifacts',
      source: 'arca/admin',
      data: {
        repo_key: 'libs-local',
        path: 'app/a.txt',
        name: 'a.txt',
        size: 5,
        sha256: createHash('sha256').update('first').digest('hex'),
      },
    });
    expect((deployed!.body as { jpd_origin?: string }).jpd_origin).toMatch(/^https?:\/\//);
    expect(copied!.body.data).toMatchObject({
      source_repo_path: 'libs-local/app/a.txt',
      target_repo_path: 'libs-local/copies/a.txt',
    });
    expect(moved!.body.data).toMatchObject({
      source_repo_path: 'libs-local/copies/a.txt',
      target_repo_path: 'libs-local/moved/a.txt',
      size: 5,
    });
    expect(deleted!.body.data).toMatchObject({ path: 'app/a.txt', size: 5 });
    // signed: the HMAC-SHA256 of the body with the secret, recomputed here
    for (const arrival of receiver.of('artifacts')) {
      expect(arrival.headers['x-jfrog-event-auth']).toBe(
        createHmac('sha256', 'sign-with-me').update(arrival.raw).digest('hex'),
      );
      expect(arrival.headers['x-team']).toBe('platform');
      expect(arrival.headers['content-type']).toBe('application/json');
    }
    expect(new Set(receiver.arrivals.map((a) => a.body.event_id)).size).toBe(receiver.arrivals.length);

    const props = receiver.of('props');
    expect(props.map((a) => [a.body.data.property_key, a.body.data.property_values])).toEqual([
      ['qa', ['passed']],
      ['tier', ['gold']],
      ['qa', []],
    ]);
    expect(props.every((a) => a.headers['x-jfrog-event-auth'] === 'plain')).toBe(true);
    expect(receiver.of('docker')[0]!.body.data).toMatchObject({
      repo_key: 'docker-local',
      image_name: 'team/app',
      tag: '1.0',
      platforms: [{ architecture: 'arm64', os: 'linux' }],
    });
    expect(receiver.of('docker')[1]!.body.data).toMatchObject({ image_name: 'team/app', tag: '1.0' });
    expect(receiver.of('builds')[0]!.body.data).toEqual({
      build_name: 'web',
      build_number: '7',
      build_started: started,
    });
    expect(receiver.of('repos')[0]!.body.data).toMatchObject({ repo_key: 'extra-local', repo_type: 'local' });
    expect(receiver.of('users').map((a) => a.body.data)).toEqual([
      { name: 'carol' },
      { name: 'carol' },
      { name: 'carol' },
    ]);

    const log = (await inject('GET', '/event/api/v1/subscriptions/artifacts/deliveries')).json();
    expect(log.total).toBe(4);
    expect(
      log.deliveries.every(
        (d: { state: string; lastStatus: number }) => d.state === 'delivered' && d.lastStatus === 200,
      ),
    ).toBe(true);
    const list = (await inject('GET', '/event/api/v1/subscriptions')).json() as {
      key: string;
      last_delivery: { state: string };
    }[];
    expect(list.find((w) => w.key === 'artifacts')?.last_delivery).toMatchObject({ state: 'delivered', status: 200 });
  });

  it('tells release bundle subscriptions of the bundles their criteria name', async () => {
    const cookie = (await login(t.app)).cookie;
    const key = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/security/keyPairs',
      headers: { ...XHR, cookie },
      payload: { pairName: 'hooks-key', pairType: 'RSA' },
    });
    expect(key.statusCode).toBe(201);
    await subscribe(
      'releases',
      'release_bundle',
      ['created', 'signed', 'deleted'],
      { includePatterns: ['web-*'], excludePatterns: ['web-internal'] },
      { url: receiver.url('/releases') },
    );
    await put(t.app, '/artifactory/libs-local/release/app.bin', 'release me');
    const create = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/lifecycle/api/v2/release_bundle',
        headers: { ...ADMIN_BASIC, 'x-jfrog-signing-key-name': 'hooks-key' },
        payload: {
          release_bundle_name: name,
          release_bundle_version: '1.0',
          source_type: 'artifacts',
          source: { artifacts: [{ path: 'libs-local/release/app.bin' }] },
        },
      });
    for (const name of ['web-shop', 'web-internal', 'tools']) expect((await create(name)).statusCode).toBe(201);
    expect((await inject('DELETE', '/lifecycle/api/v2/release_bundle/records/web-shop/1.0')).statusCode).toBe(204);
    await settle();
    expect(receiver.of('releases').map((a) => [a.body.event_type, a.body.data.release_bundle_name])).toEqual([
      ['created', 'web-shop'],
      ['signed', 'web-shop'],
      ['deleted', 'web-shop'],
    ]);
    expect(receiver.of('releases')[0]!.body).toMatchObject({
      domain: 'release_bundle',
      data: {
        release_bundle_name: 'web-shop',
        release_bundle_version: '1.0',
        project_key: 'default',
        release_bundle_size: 1,
      },
    });
    expect(receiver.of('releases')[1]!.body.data).toMatchObject({ signing_key: 'hooks-key' });
  });

  it('tries a receiver that answers 500 again until it answers, each attempt in the log; re-sends on request', async () => {
    await subscribe('flaky', 'artifact', ['deployed'], { repoKeys: ['libs-local'] }, { url: receiver.url('/flaky') });
    let failures = 3;
    receiver.answer((a) => (a.body.subscription_key === 'flaky' && failures-- > 0 ? 500 : 200));
    await put(t.app, '/artifactory/libs-local/flaky/one.txt', 'one');
    await put(t.app, '/artifactory/libs-local/flaky/two.txt', 'two');
    await t.services.webhooks.consumer.drain();
    await until(async () => {
      await t.services.webhooks.sender.drain();
      return receiver.of('flaky').filter((a) => a.body.data.path === 'flaky/two.txt').length === 1;
    }, 'the second delivery');
    // in order: the first delivery's three failures and success, then the second
    expect(receiver.of('flaky').map((a) => a.body.data.name)).toEqual([
      'one.txt',
      'one.txt',
      'one.txt',
      'one.txt',
      'two.txt',
    ]);
    const log = (await inject('GET', '/event/api/v1/subscriptions/flaky/deliveries')).json();
    const first = log.deliveries.find((d: { eventType: string; attempts: number }) => d.attempts === 4);
    expect(first).toMatchObject({ state: 'delivered', lastStatus: 200 });
    const detail = (await inject('GET', `/event/api/v1/subscriptions/flaky/deliveries/${first.id}`)).json();
    expect(detail.attemptsLog.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 200]);
    expect(detail.attemptsLog[0].response.body).toBe('not now');
    expect(JSON.parse(detail.attemptsLog[0].request.body)).toMatchObject({ event_type: 'deployed' });

    const resent = await inject('POST', `/event/api/v1/subscriptions/flaky/deliveries/${first.id}/resend`);
    expect(resent.statusCode).toBe(200);
    await t.services.webhooks.sender.drain();
    const ones = receiver.of('flaky').filter((a) => a.body.data.name === 'one.txt');
    expect(ones).toHaveLength(5);
    expect(new Set(ones.map((a) => a.body.event_id)).size).toBe(1);
  });

  it('keeps a receiver that hangs from delaying the others', async () => {
    await subscribe('stuck', 'artifact', ['deployed'], { repoKeys: ['libs-local'] }, { url: receiver.url('/stuck') });
    await subscribe('quick', 'artifact', ['deployed'], { repoKeys: ['libs-local'] }, { url: receiver.url('/quick') });
    receiver.answer((a) => (a.body.subscription_key === 'stuck' ? 'hold' : 200));
    await put(t.app, '/artifactory/libs-local/both.txt', 'both');
    await t.services.webhooks.consumer.drain();
    t.services.webhooks.sender.wake();
    await until(() => receiver.of('stuck').length === 1, 'the stuck receiver to hold the request');
    // while it holds it, later events still reach the quick receiver
    await put(t.app, '/artifactory/libs-local/after.txt', 'after');
    await t.services.webhooks.consumer.drain();
    t.services.webhooks.sender.wake();
    await until(() => receiver.of('quick').length === 2, 'the quick receiver');
    expect(receiver.of('stuck')).toHaveLength(1);
    const stuck = (await inject('GET', '/event/api/v1/subscriptions/stuck/deliveries')).json();
    expect(stuck.deliveries[0]).toMatchObject({ state: 'pending', attempts: 0 });
    await inject('DELETE', '/event/api/v1/subscriptions/stuck');
    receiver.release();
  });

  it('delivers what waited while the receiver was down once it is back', async () => {
    const spare = await startReceiver();
    const url = spare.url('/back');
    await subscribe('later', 'artifact', ['deployed'], { repoKeys: ['libs-local'] }, { url });
    await spare.close();
    for (const name of ['x', 'y', 'z']) await put(t.app, `/artifactory/libs-local/later/${name}.txt`, name);
    await t.services.webhooks.consumer.drain();
    await t.services.webhooks.sender.drain();
    const waiting = (await inject('GET', '/event/api/v1/subscriptions/later/deliveries?state=pending')).json();
    expect(waiting.total).toBe(3);
    const port = new URL(url).port;
    const back = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const seen: string[] = [];
    back.on('request', (req: http.IncomingMessage) => seen.push(req.url ?? ''));
    await new Promise<void>((resolve) => back.listen(Number(port), '127.0.0.1', resolve));
    try {
      await until(async () => {
        await t.services.webhooks.sender.drain();
        const page = (await inject('GET', '/event/api/v1/subscriptions/later/deliveries?state=delivered')).json();
        return page.total === 3;
      }, 'the receiver to get all three');
      expect(seen).toHaveLength(3);
    } finally {
      await new Promise((resolve) => back.close(resolve));
    }
  });
  it('does not deliver what happened before a subscription was made, however late the event is taken', async () => {
    const before = Date.now() - 1;
    await subscribe(
      'from-now-on',
      'repository',
      ['created'],
      { anyLocal: true },
      { url: receiver.url('/from-now-on') },
    );
    const created = (createdAt: number): StoredEvent => ({
      id: randomUUID(),
      seq: 2_000_000,
      type: 'repository.created',
      repoKey: 'libs-local',
      payload: { rclass: 'local', packageType: 'generic' },
      actor: 'admin',
      createdAt,
    });
    // an event recorded before the subscription, taken by a consumer that lags behind; then one after it
    const earlier = created(before);
    const later = created(Date.now());
    await dispatch(t.app, earlier);
    await dispatch(t.app, later);
    const rows = await t.app.db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('webhook_key', '=', 'from-now-on')
      .execute();
    expect(rows).toEqual([{ event_id: later.id }]);
  });

  it('matches an event against the subscriptions as the database holds them, on a node whose cache lags', async () => {
    // another node of the deployment, on the same database
    const other = await startTestApp(engine, {
      ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ...(t.config.databaseUrl ? { ARCA_DATABASE_URL: t.config.databaseUrl } : { ARCA_DATA_DIR: t.dataDir }),
    });
    try {
      const event = (path: string): StoredEvent => ({
        id: randomUUID(),
        seq: 1_000_000,
        type: 'artifact.deployed',
        repoKey: 'libs-local',
        path,
        payload: { sha256: 'a'.repeat(64), size: 1 },
        actor: 'admin',
        createdAt: Date.now(),
      });
      const template = await subscribe(
        'lagging-template',
        'artifact',
        ['deployed'],
        { anyLocal: true },
        {
          url: receiver.url('/lagging'),
        },
      );
      expect(template.statusCode).toBe(201);
      const row = await t.app.db
        .selectFrom('webhooks')
        .selectAll()
        .where('key', '=', 'lagging-template')
        .executeTakeFirstOrThrow();
      // the other node has looked at the subscriptions already (its configuration cache holds them)
      await dispatch(other.app, event('warm/a.txt'));
      // a subscription another process commits now: this node's cache has not caught up with it
      await t.app.db
        .insertInto('webhooks')
        .values({ ...row, key: 'lagging-node', created_at: Date.now() })
        .execute();
      // an event the other node takes at once is matched against the new subscription too
      expect((await dispatch(other.app, event('fresh/b.txt'))).length).toBeGreaterThanOrEqual(1);
      const rows = await t.app.db
        .selectFrom('webhook_deliveries')
        .select('webhook_key')
        .where('webhook_key', '=', 'lagging-node')
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
