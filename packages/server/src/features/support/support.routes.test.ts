import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  login,
  put,
  startTestApp,
  type TestApp,
  zipEntries,
} from '../../test/harness.js';

const REMOTE_PASSWORD = 'Remote-upstream-Secret-4711';
const MAIL_PASSWORD = 'Mail-server-Secret-0815';
const WEBHOOK_SECRET = 'Webhook-signing-Secret-42';
const METRICS_TOKEN = 'Metrics-scrape-Secret-token-99';

describe.each(ENGINES)('support bundles on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(engine, {
      ARCA_LOG_LEVEL: 'info',
      ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ARCA_METRICS_TOKEN: METRICS_TOKEN,
    });
    cookie = (await login(t.app)).cookie;
    const console = { cookie, ...XHR };
    // every kind of secret the deployment holds
    await createRepo(t.app, 'upstream-remote', {
      rclass: 'remote',
      url: 'http://127.0.0.1:9/',
      username: 'mirror',
      password: REMOTE_PASSWORD,
    });
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await put(t.app, '/artifactory/libs-local/a.txt', 'hello');
    const mail = await t.app.inject({
      method: 'PUT',
      url: '/ui/api/v1/ui/mail',
      headers: console,
      payload: {
        enabled: true,
        host: 'smtp.example.com',
        port: 587,
        useSsl: false,
        useTls: true,
        username: 'arca',
        password: MAIL_PASSWORD,
        from: 'arca@example.com',
        subjectPrefix: '[Arca]',
        externalUrl: '',
      },
    });
    expect(mail.statusCode).toBe(200);
    // the mail server's password is sealed at rest like every other stored secret
    const stored = await t.app.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'mail')
      .executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(MAIL_PASSWORD);
    expect(stored.value).toContain('sealedPassword');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/event/api/v1/subscriptions',
      headers: ADMIN_BASIC,
      payload: {
        key: 'ci-notify',
        event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { anyLocal: true } },
        handlers: [{ url: 'http://127.0.0.1:9/hook', secret: WEBHOOK_SECRET, use_secret_for_signing: true }],
      },
    });
    expect(hook.statusCode).toBe(201);
    const issued = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: { scope: 'applied-permissions/user', expires_in: 3600 },
    });
    token = issued.json<{ access_token: string }>().access_token;
    expect(token).toBeTruthy();
    // the token is used, so that it could reach a request log
    await t.app.inject({ url: '/artifactory/libs-local/a.txt', headers: { authorization: `Bearer ${token}` } });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/ui/api/v1/ui/userSupport/${url}`,
      headers: { cookie, ...XHR },
      payload: payload as object,
    });
  const list = async () =>
    (await call('GET', 'listBundles')).json<{
      count: number;
      bundles: { id: string; status: string; size: number | null; service: string }[];
    }>();

  it('makes a zip with the logs, configuration, system information and thread dumps, and no secret in it', async () => {
    const created = await call('POST', 'generateBundle', {
      name: 'slow deploys',
      description: 'deploys took 30 s on Monday',
      parameters: { thread_dump: { count: 2, interval: 1 } },
    });
    expect(created.statusCode).toBe(202);
    const bundle = created.json<{ id: string; status: string }>();
    expect(bundle.status).toBe('in progress');
    expect((await list()).bundles.find((b) => b.id === bundle.id)?.status).toBe('in progress');
    await t.services.supportBundles.idle();
    const done = (await list()).bundles.find((b) => b.id === bundle.id)!;
    expect(done.status).toBe('success');
    expect(done.size).toBeGreaterThan(1000);

    const download = await call('GET', `downloadBundle/${bundle.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="slow_deploys-[0-9a-f]{8}\.zip"$/);
    const entries = new Map(Object.entries(await zipEntries(download.rawPayload)));
    const names = [...entries.keys()];
    const node = t.app.nodeId;
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        `logs/${node}/jfrt-service.log`,
        `logs/${node}/jfrt-request.log`,
        `logs/${node}/jfac-service.log`,
        `logs/${node}/jfac-audit.log`,
        'configuration/repositories.json',
        'configuration/settings.json',
        'configuration/security.json',
        'configuration/webhooks.json',
        'system/system.json',
        `thread-dumps/${node}-1.json`,
        `thread-dumps/${node}-2.json`,
      ]),
    );
    const manifest = JSON.parse(entries.get('manifest.json')!) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'slow deploys',
      sections: ['logs', 'configuration', 'system', 'thread-dumps'],
    });
    const system = JSON.parse(entries.get('system/system.json')!) as {
      database: { engine: string };
      store: { artifacts: number };
    };
    expect(system.database.engine).toBe(engine);
    expect(system.store.artifacts).toBeGreaterThanOrEqual(1);
    const report = JSON.parse(entries.get(`thread-dumps/${node}-1.json`)!) as { header: { nodejsVersion: string } };
    expect(report.header.nodejsVersion).toBe(process.version);
    const repositories = JSON.parse(entries.get('configuration/repositories.json')!) as {
      key: string;
      password: string;
    }[];
    expect(repositories.find((r) => r.key === 'upstream-remote')?.password).toBe('**********');
    expect(entries.get(`logs/${node}/jfrt-request.log`)).toContain('/artifactory/libs-local/a.txt');

    const everything = [...entries.values()].join('\n');
    for (const secret of [ADMIN_PASSWORD, token, REMOTE_PASSWORD, MAIL_PASSWORD, WEBHOOK_SECRET, METRICS_TOKEN]) {
      expect(everything.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the bundle`).toBe(false);
    }
  });

  it('keeps a dozen planted secrets out of every file, the environment out of dumps unless asked', async () => {
    const console = { cookie, ...XHR };
    const planted = {
      adminEnv: 'Planted-admin-Password-0001',
      awsKey: 'Planted-aws-Secret-Access-0002',
      dbUrlPassword: 'Planted-db-url-Pw-0003',
      metricsEnv: 'Planted-metrics-Token-0004',
      ldap: 'Planted-ldap-Manager-0005',
      oidc: 'Planted-oidc-Client-Secret-0006',
      proxy: 'Planted-proxy-Password-0007',
      header: 'Planted-receiver-Api-Key-0008',
      hookSecret: 'Planted-webhook-Secret-0009',
      lowerEnv: 'Planted-lower-case-Token-0010',
      remote: 'Planted-remote-Password-0011',
      apiKeyEnv: 'Planted-mixed-Api-Key-0012',
    };
    const env = {
      ARCA_ADMIN_PASSWORD: planted.adminEnv,
      AWS_SECRET_ACCESS_KEY: planted.awsKey,
      ANALYTICS_DATABASE_URL: `postgres://arca:${planted.dbUrlPassword}@db.example:5432/arca`,
      ARCA_METRICS_TOKEN: planted.metricsEnv,
      deploy_token: planted.lowerEnv,
      Partner_ApiKey: planted.apiKeyEnv,
    };
    Object.assign(process.env, env);
    try {
      const saved = await Promise.all([
        t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/ldap/settings',
          headers: console,
          payload: {
            key: 'planted',
            ldapUrl: 'ldap://127.0.0.1:9/dc=acme,dc=test',
            searchFilter: '(uid={0})',
            managerDn: 'cn=admin,dc=acme,dc=test',
            managerPassword: planted.ldap,
          },
        }),
        t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/oauth2/providers',
          headers: console,
          payload: {
            name: 'planted-id',
            displayName: 'Planted',
            issuerUrl: 'https://idp.example.com',
            clientId: 'arca',
            clientSecret: planted.oidc,
          },
        }),
        t.app.inject({
          method: 'POST',
          url: '/ui/api/v1/ui/proxies',
          headers: console,
          payload: {
            key: 'planted-proxy',
            host: 'proxy.example.com',
            port: 3128,
            username: 'p',
            password: planted.proxy,
          },
        }),
        t.app.inject({
          method: 'POST',
          url: '/event/api/v1/subscriptions',
          headers: ADMIN_BASIC,
          payload: {
            key: 'planted-hook',
            event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { anyLocal: true } },
            handlers: [
              {
                url: 'http://127.0.0.1:9/planted',
                secret: planted.hookSecret,
                use_secret_for_signing: true,
                custom_http_headers: [{ name: 'X-Receiver-Key', value: planted.header }],
              },
            ],
          },
        }),
      ]);
      expect(saved.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      await createRepo(t.app, 'planted-remote', {
        rclass: 'remote',
        url: 'http://127.0.0.1:9/',
        username: 'mirror',
        password: planted.remote,
      });
      // a secret that reached a log line is scrubbed there too
      t.app.log.warn({ note: `a careless line with ${planted.proxy} in it` }, 'planted');

      const bundleWith = async (parameters: object) => {
        const created = await call('POST', 'generateBundle', { name: 'planted', parameters });
        expect(created.statusCode).toBe(202);
        await t.services.supportBundles.idle();
        const download = await call('GET', `downloadBundle/${created.json<{ id: string }>().id}`);
        return new Map(Object.entries(await zipEntries(download.rawPayload)));
      };
      const plain = await bundleWith({ thread_dump: { count: 1, interval: 0 } });
      const dump = JSON.parse(plain.get(`thread-dumps/${t.app.nodeId}-1.json`)!) as Record<string, unknown>;
      expect(dump).not.toHaveProperty('environmentVariables');
      const asked = await bundleWith({ thread_dump: { count: 1, interval: 0, environment: true } });
      const withEnv = JSON.parse(asked.get(`thread-dumps/${t.app.nodeId}-1.json`)!) as {
        environmentVariables: Record<string, string>;
      };
      expect(withEnv.environmentVariables).toMatchObject({
        ARCA_ADMIN_PASSWORD: '**********',
        AWS_SECRET_ACCESS_KEY: '**********',
        ANALYTICS_DATABASE_URL: '**********',
        deploy_token: '**********',
      });
      expect(withEnv.environmentVariables.PATH).toBe(process.env.PATH);
      const hooks = JSON.parse(asked.get('configuration/webhooks.json')!) as { key: string; handlers: unknown }[];
      expect(JSON.stringify(hooks.find((h) => h.key === 'planted-hook'))).toContain('X-Receiver-Key');

      for (const entries of [plain, asked]) {
        for (const [file, text] of entries) {
          for (const [name, secret] of Object.entries(planted)) {
            expect(text.includes(secret), `${name} is in ${file}`).toBe(false);
          }
        }
      }
    } finally {
      for (const name of Object.keys(env)) delete process.env[name];
    }
  });

  it("makes the access service's bundle through its own call, with the access service's logs only", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/system/support/bundle',
      headers: ADMIN_BASIC,
      payload: { name: 'access only', parameters: { system: false, thread_dump: { count: 0, interval: 0 } } },
    });
    expect(created.statusCode).toBe(202);
    expect(created.json().service).toBe('access');
    await t.services.supportBundles.idle();
    const entries = new Map(
      Object.entries(await zipEntries((await call('GET', `downloadBundle/${created.json().id}`)).rawPayload)),
    );
    const logs = [...entries.keys()].filter((n) => n.startsWith('logs/'));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((n) => n.includes('/jfac-'))).toBe(true);
    expect([...entries.keys()].some((n) => n.startsWith('system/') || n.startsWith('thread-dumps/'))).toBe(false);
  });

  it('refuses a bad request with its message and makes nothing', async () => {
    const before = (await list()).count;
    const empty = await call('POST', 'generateBundle', { name: ' ', parameters: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toContain('This field is mandatory.');
    const fraction = await call('POST', 'generateBundle', {
      name: 'x',
      parameters: { thread_dump: { count: 1.5, interval: 0 } },
    });
    expect(fraction.json().errors[0].message).toContain('Whole numbers only.');
    const backwards = await call('POST', 'generateBundle', {
      name: 'x',
      parameters: { logs: { include: true, start_date: '2026-11-20', end_date: '2026-11-01' } },
    });
    expect(backwards.json().errors[0].message).toContain('The logs period ends before it starts.');
    expect((await list()).count).toBe(before);
    const user = await createUser(t.app, 'bundle-user');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/system/support/bundle',
      headers: user,
      payload: { name: 'x' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('deletes a bundle and its file; marks one a stopped node left unfinished as failed', async () => {
    const created = (
      await call('POST', 'generateBundle', {
        name: 'to delete',
        parameters: { thread_dump: { count: 0, interval: 0 } },
      })
    ).json<{ id: string }>();
    await t.services.supportBundles.idle();
    expect((await call('DELETE', `deleteBundle/${created.id}`)).statusCode).toBe(204);
    expect((await call('GET', `downloadBundle/${created.id}`)).statusCode).toBe(404);
    expect((await list()).bundles.some((b) => b.id === created.id)).toBe(false);

    await t.app.db
      .insertInto('support_bundles')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'cut short',
        description: '',
        service: 'artifactory',
        status: 'in progress',
        parameters: '{}',
        node_id: t.app.nodeId,
        file: null,
        size: null,
        error: null,
        created_at: Date.now(),
        created_by: 'admin',
        finished_at: null,
      })
      .execute();
    const busy = await call('DELETE', 'deleteBundle/00000000-0000-4000-8000-000000000001');
    expect(busy.statusCode).toBe(409);
    await t.services.supportBundles.failInterrupted();
    const failed = (await list()).bundles.find((b) => b.id === '00000000-0000-4000-8000-000000000001');
    expect(failed).toMatchObject({ status: 'failure', error: 'The node stopped while making this bundle.' });
    expect((await call('GET', 'downloadBundle/00000000-0000-4000-8000-000000000001')).statusCode).toBe(409);
  });
});
