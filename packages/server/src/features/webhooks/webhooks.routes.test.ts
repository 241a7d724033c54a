import http from 'node:http';
import os from 'node:os';
import dns from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES, WEBHOOK_SECRET_MASK } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  countRows,
  createRepo,
  createUser,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const subscription = (key: string, url: string, extra: Record<string, unknown> = {}) => ({
  key,
  description: 'CI',
  enabled: true,
  event_filter: {
    domain: 'artifact',
    event_types: ['deployed', 'deleted'],
    criteria: { anyLocal: true, anyRemote: false, repoKeys: [], includePatterns: [], excludePatterns: [] },
  },
  handlers: [{ handler_type: 'webhook', url, secret: 'pssst', custom_http_headers: [{ name: 'X-Team', value: 'a' }] }],
  ...extra,
});

describe.each(ENGINES)('webhook subscriptions on %s', (engine) => {
  let t: TestApp;
  let open: TestApp;
  let receiver: http.Server;
  let receiverUrl = '';
  let answer = 200;
  let dev: Record<string, string> = {};
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    app?: TestApp,
    auth: Record<string, string> = ADMIN_BASIC,
  ) =>
    (app ?? t).app.inject({
      method,
      url: `/event/api/v1${url}`,
      headers: { ...auth, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    // a deployment whose outbound policy lets webhooks reach this machine (the test's receiver)
    open = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    dev = await createUser(t.app, 'dev');
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = answer;
        res.end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    receiver.close();
    await open.close();
    await t.close();
  });

  it('creates, reads (secret masked), updates (key in the body ignored, mask kept) and deletes a subscription', async () => {
    const created = await call('POST', '/subscriptions', subscription('ci-hook', 'https://ci.example.com/hook'));
    expect(created.statusCode).toBe(201);
    const read = (await call('GET', '/subscriptions/ci-hook')).json();
    expect(read).toMatchObject({
      key: 'ci-hook',
      enabled: true,
      event_filter: { domain: 'artifact', event_types: ['deployed', 'deleted'] },
      handlers: [
        {
          url: 'https://ci.example.com/hook',
          secret: WEBHOOK_SECRET_MASK,
          custom_http_headers: [{ name: 'X-Team', value: 'a' }],
        },
      ],
      last_delivery: null,
    });
    const stored = await t.app.db
      .selectFrom('webhooks')
      .select('handlers')
      .where('key', '=', 'ci-hook')
      .executeTakeFirstOrThrow();
    expect(stored.handlers).not.toContain('pssst');

    const changed = await call('PUT', '/subscriptions/ci-hook', {
      ...subscription('ignored-key', 'https://ci.example.com/hook'),
      description: 'changed',
      handlers: [{ handler_type: 'webhook', url: 'https://ci.example.com/hook', secret: WEBHOOK_SECRET_MASK }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      key: 'ci-hook',
      description: 'changed',
      handlers: [{ secret: WEBHOOK_SECRET_MASK }],
    });
    // a new address does not inherit the secret: it must be given again
    const moved = await call('PUT', '/subscriptions/ci-hook', {
      ...subscription('ci-hook', 'https://ci.example.com/other'),
      description: 'changed',
      handlers: [{ handler_type: 'webhook', url: 'https://ci.example.com/other', secret: WEBHOOK_SECRET_MASK }],
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().handlers[0]).not.toHaveProperty('secret');
    expect((await call('GET', '/subscriptions/ignored-key')).statusCode).toBe(404);
    expect((await call('GET', '/subscriptions')).json().map((w: { key: string }) => w.key)).toEqual(['ci-hook']);

    expect((await call('DELETE', '/subscriptions/ci-hook')).statusCode).toBe(204);
    expect((await call('GET', '/subscriptions/ci-hook')).statusCode).toBe(404);
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select('action')
      .where('category', '=', 'webhook')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'update', 'delete']);
  });

  it('answers the domains with their event types', async () => {
    const answer = (await call('GET', '/domains')).json() as { domain: string; event_types: string[] }[];
    expect(answer.find((d) => d.domain === 'docker')?.event_types).toEqual(['pushed', 'deleted']);
    expect(answer.map((d) => d.domain)).toEqual([
      'artifact',
      'artifact_property',
      'docker',
      'build',
      'repository',
      'user',
      'release_bundle',
      'artifactory_release_bundle',
      'distribution',
      'destination',
      'security',
    ]);
  });

  it('refuses bad bodies with the spec’s messages and changes nothing', async () => {
    const before = await countRows(t.app, 'webhooks');
    const refused = async (body: unknown) => {
      const res = await call('POST', '/subscriptions', body);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      return messages(res);
    };
    expect(await refused(subscription('1abc', 'https://x.example.com'))).toContainEqual(
      expect.stringContaining(WEBHOOK_MESSAGES.nameFormat),
    );
    expect(await refused(subscription('a b', 'https://x.example.com'))).toContainEqual(
      expect.stringContaining(WEBHOOK_MESSAGES.nameFormat),
    );
    expect(await refused(subscription('okname', 'not a url'))).toContainEqual(
      expect.stringContaining(WEBHOOK_MESSAGES.invalidUrl),
    );
    expect(
      await refused({
        ...subscription('okname', 'https://x.example.com'),
        handlers: [{ url: 'https://x.example.com', custom_http_headers: [{ name: 'X-Only-Name', value: '' }] }],
      }),
    ).toContainEqual(expect.stringContaining(WEBHOOK_MESSAGES.headerIncomplete));
    expect(
      await refused({
        ...subscription('okname', 'https://x.example.com'),
        event_filter: { domain: 'artifact', event_types: ['pushed'], criteria: {} },
      }),
    ).toContainEqual(expect.stringContaining("'pushed' is not an event of the artifact domain."));
    expect(
      await refused({
        ...subscription('okname', 'https://x.example.com'),
        handlers: [{ url: 'https://x.example.com', proxy: 'corp' }],
      }),
    ).toEqual(["There is no proxy 'corp'."]);
    expect(
      await refused({
        ...subscription('okname', 'https://x.example.com'),
        event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { repoKeys: ['nope'] } },
      }),
    ).toEqual(["Repository 'nope' does not exist."]);
    await call('POST', '/subscriptions', subscription('taken', 'https://x.example.com'));
    expect(await refused(subscription('TAKEN', 'https://x.example.com'))).toEqual([WEBHOOK_MESSAGES.nameExists]);
    expect(await countRows(t.app, 'webhooks')).toBe(before + 1);
    await call('DELETE', '/subscriptions/taken');
  });

  it('refuses receivers on loopback, link-local and metadata addresses, named or resolved', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
    ]) {
      const res = await call('POST', '/subscriptions', subscription('ssrf', url));
      expect(res.statusCode, url).toBe(400);
      expect(messages(res)[0], url).toMatch(/loopback or link-local|this host/);
    }
    // a name that resolves to this machine (the host's own name, in most images) is refused on save too
    const own = os.hostname();
    const resolved = await dns.lookup(own, { all: true }).catch(() => []);
    if (resolved.some((a) => a.address.startsWith('127.') || a.address === '::1')) {
      const res = await call('POST', '/subscriptions', subscription('ssrf', `http://${own}/hook`));
      expect(messages(res)[0]).toMatch(/resolves to .*loopback or link-local/);
    }
    expect(await countRows(t.app, 'webhooks')).toBe(0);
  });

  it('refuses a redirect to a loopback address the allow-list does not name, at delivery', async () => {
    const target = http.createServer((req, res) => res.end('should not be reached'));
    let reached = 0;
    target.on('request', () => reached++);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetPort = (target.address() as AddressInfo).port;
    const redirector = http.createServer((req, res) => {
      res.statusCode = 307;
      res.setHeader('location', `http://127.0.0.1:${targetPort}/inside`);
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectorPort = (redirector.address() as AddressInfo).port;
    // only the redirecting host is allowed, by host and port
    const narrow = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: `127.0.0.1:${redirectorPort}` });
    try {
      const res = await call(
        'POST',
        '/subscriptions/test',
        subscription('probe', `http://127.0.0.1:${redirectorPort}/`),
        narrow,
      );
      expect([res.statusCode, messages(res)]).toEqual([504, [WEBHOOK_MESSAGES.testUnreachable]]);
      expect(reached).toBe(0);
    } finally {
      await narrow.close();
      redirector.close();
      target.close();
    }
  });

  it('tests a handler: the receiver’s answer, or the spec’s messages when it fails or cannot be reached', async () => {
    answer = 200;
    const ok = await call('POST', '/subscriptions/test', subscription('probe', receiverUrl), open);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 200, message: WEBHOOK_MESSAGES.testSent });
    answer = 500;
    const failed = await call('POST', '/subscriptions/test', subscription('probe', receiverUrl), open);
    expect([failed.statusCode, messages(failed)]).toEqual([502, [WEBHOOK_MESSAGES.testFailed]]);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const unreachable = await call(
      'POST',
      '/subscriptions/test',
      subscription('probe', `http://127.0.0.1:${port}/`),
      open,
    );
    expect([unreachable.statusCode, messages(unreachable)]).toEqual([504, [WEBHOOK_MESSAGES.testUnreachable]]);
    answer = 200;
  });

  it('sends the stored secret only to the stored address when a test asks for it by its mask', async () => {
    const heard: { url: string; signature: string | undefined }[] = [];
    const listener = http.createServer((req, res) => {
      heard.push({ url: req.url ?? '', signature: req.headers['x-jfrog-event-auth'] as string | undefined });
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      expect((await call('POST', '/subscriptions', subscription('signed-hook', `${at}/real`), open)).statusCode).toBe(
        201,
      );
      const probe = await call(
        'POST',
        '/subscriptions/test',
        {
          ...subscription('signed-hook', `${at}/attacker`),
          handlers: [{ handler_type: 'webhook', url: `${at}/attacker`, secret: WEBHOOK_SECRET_MASK }],
        },
        open,
      );
      expect(probe.statusCode).toBe(200);
      expect(heard.map((h) => h.url)).toEqual(['/real']);
      expect(heard[0]!.signature).toBeTruthy();
    } finally {
      listener.close();
    }
  });

  it('is for administrators only: 403 on every call, 401 without credentials', async () => {
    for (const [method, url, body] of [
      ['GET', '/subscriptions'],
      ['POST', '/subscriptions', subscription('x1', 'https://x.example.com')],
      ['GET', '/subscriptions/x1'],
      ['PUT', '/subscriptions/x1', subscription('x1', 'https://x.example.com')],
      ['DELETE', '/subscriptions/x1'],
      ['POST', '/subscriptions/test', subscription('x1', 'https://x.example.com')],
      ['GET', '/domains'],
      ['GET', '/subscriptions/x1/deliveries'],
      ['POST', '/subscriptions/x1/deliveries/resend'],
    ] as const) {
      const res = await call(method, url, body, undefined, dev);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const anonymous = await t.app.inject({ url: '/event/api/v1/subscriptions' });
    expect(anonymous.statusCode).toBe(401);
  });
});
