import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { logsDirOf, pruneLogs } from '../../core/logger.js';
import { ADMIN_BASIC, ENGINES, XHR, login, startTestApp, type TestApp } from '../../test/harness.js';
import { findAdoptionMetric } from './system.store.js';

describe.each(ENGINES)('system calls on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startTestApp(engine);
    cookie = (await login(t.app)).cookie;
  });
  afterEach(async () => {
    await t.close();
  });

  it('migrates an empty database to the whole schema', async () => {
    const tables = (await t.app.db.introspection.getTables()).map((table) => table.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        'adoption_metrics',
        'licenses',
        'login_failures',
        'nodes',
        'sessions',
        'settings',
        'users',
      ]),
    );
    const admins = await t.app.db.selectFrom('users').select('name').where('admin', '=', 1).execute();
    expect(admins).toEqual([{ name: 'admin' }]);
  });

  it('answers ping and version the Artifactory way', async () => {
    const ping = await t.app.inject({ url: '/artifactory/api/system/ping' });
    expect(ping.body).toBe('OK');
    expect(ping.headers['content-type']).toContain('text/plain');
    const answer = await t.app.inject({ url: '/artifactory/api/system/version' });
    // tools read the Artifactory API level; Arca's own version stays visible beside it
    expect(answer.json()).toEqual({
      version: '7.90.0',
      revision: expect.any(String),
      addons: expect.arrayContaining(['artifactory']),
      license: 'OSS',
      arca: { version: '0.1.0', revision: expect.any(String) },
    });
    expect(answer.headers['x-arca-version']).toBe('0.1.0');
    expect(((await t.app.inject({ url: '/ui/api/v1/system/version' })).json() as { version: string }).version).toBe(
      '0.1.0',
    );
    const accessPing = await t.app.inject({ url: '/access/api/v1/system/ping' });
    expect([accessPing.statusCode, accessPing.body]).toEqual([200, 'OK']);
  });

  it('lists this node Online and keeps only Online nodes in the HA map', async () => {
    const now = Date.now();
    await t.app.db
      .insertInto('nodes')
      .values({
        node_id: 'old-node',
        host: 'h2',
        version: '0.0.9',
        services: '["artifactory","mc"]',
        started_at: now - 600_000,
        last_heartbeat: now - 120_000,
        address: null,
      })
      .execute();
    const nodes = (await t.app.inject({ url: '/ui/api/v1/system/status/nodes', headers: { cookie } })).json().nodes;
    expect(nodes.map((n: { node_id: string; status: string }) => [n.node_id, n.status])).toEqual(
      expect.arrayContaining([
        [t.app.nodeId, 'Online'],
        ['old-node', 'Offline'],
      ]),
    );
    const ha = (await t.app.inject({ url: '/ui/api/v1/system/status/ha', headers: { cookie } })).json().services;
    expect(ha.artifactory.map((n: { node_id: string }) => n.node_id)).toEqual([t.app.nodeId]);
    // 'mc' runs only on the offline node in this deployment's default list? It runs here too, so it stays;
    // a service that only an offline node runs is dropped:
    await t.app.db
      .updateTable('nodes')
      .set({ services: '["artifactory"]' })
      .where('node_id', '=', t.app.nodeId)
      .execute();
    const reduced = (await t.app.inject({ url: '/ui/api/v1/system/status/ha', headers: { cookie } })).json().services;
    expect(Object.keys(reduced)).toEqual(['artifactory']);
  });

  it('removes a node that stopped from the topology, refuses a running one, and records who did it', async () => {
    const now = Date.now();
    await t.app.db
      .insertInto('nodes')
      .values({
        node_id: 'dead-node',
        host: 'h3',
        version: '0.0.9',
        services: '["artifactory"]',
        started_at: now - 600_000,
        last_heartbeat: now - 120_000,
        address: null,
      })
      .execute();
    const remove = (serviceId: string, nodeId: string, headers: Record<string, string> = { cookie, ...XHR }) =>
      t.app.inject({ method: 'DELETE', url: `/ui/api/v1/access/api/v1/topology/${serviceId}/${nodeId}`, headers });
    const running = await remove(`arca@${t.app.nodeId}`, t.app.nodeId);
    expect(running.statusCode).toBe(409);
    expect(running.json().errors[0].message).toBe(
      `Node '${t.app.nodeId}' is running; only a node that stopped can be removed.`,
    );
    expect((await remove('arca@nowhere', 'nowhere')).json().errors[0].message).toBe("Node 'nowhere' is unknown.");
    expect((await remove('arca@dead-node', 'dead-node', XHR)).statusCode).toBe(401);
    expect((await remove('arca@dead-node', 'dead-node')).statusCode).toBe(204);
    const nodes = (await t.app.inject({ url: '/ui/api/v1/system/status/nodes', headers: { cookie } })).json().nodes;
    expect(nodes.map((n: { node_id: string }) => n.node_id)).toEqual([t.app.nodeId]);
    const audit = await t.app.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'node.removed')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: 'admin', category: 'system', target: 'dead-node' });
    // the public path, as scripts call it
    const again = await t.app.inject({
      method: 'DELETE',
      url: '/access/api/v1/topology/arca@dead-node/dead-node',
      headers: ADMIN_BASIC,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses node status to anonymous callers', async () => {
    expect((await t.app.inject({ url: '/ui/api/v1/system/status/nodes' })).statusCode).toBe(401);
  });

  it('stores adoption metrics as running totals', async () => {
    const send = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/ui/api/v1/system/adoptionMetric', headers: { ...XHR, cookie }, payload });
    expect((await send({ featureName: 'licenses', action: 'open' })).statusCode).toBe(204);
    expect((await send({ featureName: 'licenses', action: 'open', type: 'Increase', value: 2 })).statusCode).toBe(204);
    expect((await findAdoptionMetric(t.app.db, 'licenses', 'open'))?.total).toBe(3);
    expect((await send({ featureName: '', action: 'open' })).statusCode).toBe(400);
  });

  it('answers which services are enabled and the feature flags', async () => {
    const services = (await t.app.inject({ url: '/ui/api/v1/system/ismicroserviceenabled' })).json().services;
    expect(services).toMatchObject({ artifactory: true, access: true, xray: false, distribution: false });
    // only what this build provides is reported as running
    expect(Object.keys(services).filter((name) => services[name])).toEqual(['artifactory', 'access']);
    const version = (await t.app.inject({ url: '/artifactory/api/system/version' })).json();
    expect(version.addons).toEqual(['artifactory', 'access']);
    const features = (await t.app.inject({ url: '/ui/api/v1/system/featuresConfig' })).json();
    expect(features.features).toBeTypeOf('object');
  });

  it("writes each process's service, request and audit logs to <data>/logs/<node>", async () => {
    // the request log is written at level info
    await t.close();
    t = await startTestApp(engine, { ARCA_LOG_LEVEL: 'info' });
    await login(t.app, 'admin', 'wrong');
    await t.app.inject({ url: '/artifactory/api/system/ping' });
    const dir = logsDirOf(t.dataDir, t.app.nodeId);
    // what a support bundle reads while the server runs: the lines gathered a moment ago are there
    await t.app.flushLogs();
    expect(fs.readFileSync(path.join(dir, 'jfrt-request.log'), 'utf8')).toContain(
      '"url":"/artifactory/api/system/ping"',
    );
    await t.app.close();
    expect(fs.readFileSync(path.join(dir, 'jfac-service.log'), 'utf8')).toContain('login failed');
    const audit = fs
      .readFileSync(path.join(dir, 'jfac-audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: 'admin', category: 'auth', action: 'sign-in', outcome: 'failure' }),
    );
    const requests = fs.readFileSync(path.join(dir, 'jfrt-request.log'), 'utf8');
    expect(requests).toContain('"url":"/artifactory/api/system/ping"');
    expect(fs.existsSync(path.join(dir, 'jfrt-service.log'))).toBe(true);
    t = { ...t, close: async () => fs.rmSync(t.dataDir, { recursive: true, force: true }) } as TestApp;
  });

  it('removes rotated log files past retention, never the files being written', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-logs-'));
    try {
      const old = Date.now() / 1000 - 40 * 86_400;
      for (const name of ['jfrt-service.log', 'jfrt-service.2026-10-01.1.log', 'jfrt-service.2026-11-20.1.log']) {
        fs.writeFileSync(path.join(dir, name), 'x\n');
      }
      fs.utimesSync(path.join(dir, 'jfrt-service.log'), old, old);
      fs.utimesSync(path.join(dir, 'jfrt-service.2026-10-01.1.log'), old, old);
      expect(pruneLogs(dir, 30)).toBe(1);
      expect(fs.readdirSync(dir).sort()).toEqual(['jfrt-service.2026-11-20.1.log', 'jfrt-service.log']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('publishes an OpenAPI document generated from the call schemas', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    const login = doc.paths['/ui/api/v1/ui/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['user', 'password']);
  });

  it('documents each Artifactory-compatible call with a summary, and JSON answers and bodies with their shapes', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            summary?: string;
            requestBody?: { content: Record<string, { schema: { properties?: object } }> };
            responses: Record<string, { content?: Record<string, { schema: object }> }>;
          }
        >
      >;
    };
    // [method, path, answers JSON with a shape, takes a body]
    const calls: [string, string, boolean, boolean][] = [
      ['get', '/artifactory/api/system/version', true, false],
      ['get', '/access/api/v1/system/ping', false, false],
      ['get', '/artifactory/api/repositories/{key}', true, false],
      ['post', '/artifactory/api/security/unlockUsers', false, true],
      ['post', '/artifactory/api/security/unlockAllUsers', false, false],
      ['get', '/artifactory/api/security/permissions', true, false],
      ['get', '/artifactory/api/security/permissions/{name}', true, false],
      ['put', '/artifactory/api/security/permissions/{name}', false, true],
      ['get', '/artifactory/api/security/encryptedPassword', false, false],
      ['post', '/access/api/v1/tokens', true, true],
      ['get', '/access/api/v1/tokens', true, false],
      ['post', '/access/api/v1/tokens/revoke', false, true],
      ['delete', '/access/api/v1/tokens/{id}', false, false],
      ['get', '/access/api/v1/cert/root', false, false],
      ['post', '/artifactory/api/security/token', true, true],
      ['post', '/artifactory/api/security/token/revoke', true, true],
      ['get', '/artifactory/api/storage/{*}', false, false],
      ['get', '/artifactory/api/storageinfo', true, false],
      ['get', '/artifactory/api/archive/download/{*}', false, false],
      ['patch', '/artifactory/api/metadata/{*}', false, true],
      ['put', '/artifactory/api/build', false, true],
      ['get', '/artifactory/api/build', true, false],
      ['get', '/artifactory/api/build/{name}', true, false],
      ['get', '/artifactory/api/build/{name}/{number}', true, false],
      ['post', '/artifactory/api/build/promote/{name}/{number}', true, true],
      ['delete', '/artifactory/api/build/{name}', false, false],
      ['post', '/artifactory/api/build/rename/{name}', false, false],
    ];
    for (const [method, path, json, body] of calls) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op!.summary, `${method} ${path}`).toBeTruthy();
      if (json) expect(op!.responses['200']?.content?.['application/json']?.schema, `${method} ${path}`).toBeDefined();
      if (body) expect(op!.requestBody, `${method} ${path}`).toBeDefined();
    }
    const build = doc.paths['/artifactory/api/build']!.put!.requestBody!.content['application/json']!.schema;
    expect(Object.keys(build.properties!)).toEqual(expect.arrayContaining(['name', 'number', 'started', 'modules']));
  });

  it('answers JSON errors for unknown API paths', async () => {
    const res = await t.app.inject({ url: '/ui/api/v1/no/such/call', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      errors: [{ status: 404, message: 'The object you were looking for could not be found.' }],
    });
  });
});

describe('the console in history mode', () => {
  it('answers index.html for every non-API path under /ui/ and files as they are', async () => {
    const dataDir = fs.mkdtempSync(path.join(process.cwd(), 'node_modules', '.arca-web-'));
    const webDir = path.join(dataDir, 'web');
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-123.js'), 'console.log(1)');
    const config = loadConfig({
      ARCA_DATA_DIR: dataDir,
      ARCA_WEB_DIR: webDir,
      ARCA_LOG_STDOUT: 'false',
      ARCA_LOG_LEVEL: 'warn',
      ARCA_ADMIN_PASSWORD: 'x',
    });
    const { app } = await buildApp(config);
    try {
      for (const url of ['/ui/', '/ui/login', '/ui/admin/management/users', '/ui/some/unknown/page']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>console</title>');
      }
      const asset = await app.inject({ url: '/ui/assets/app-123.js' });
      expect(asset.body).toBe('console.log(1)');
      expect(asset.headers['cache-control']).toContain('immutable');
      expect((await app.inject({ url: '/ui/assets/missing.js' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/ui/api/v1/unknown' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/' })).headers.location).toBe('/ui/');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
