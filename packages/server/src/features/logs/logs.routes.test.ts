import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logsDirOf } from '../../core/logger.js';
import { NODE_CALL_HEADER } from '../../core/node-calls.js';
import { seal } from '../../core/sealing.js';
import { ADMIN_BASIC, ENGINES, createUser, startTestApp, zipEntries, type TestApp } from '../../test/harness.js';

/** Builds an app whose node id is `nodeId` (two apps of one test process are two nodes). */
async function startNode(engine: (typeof ENGINES)[number], nodeId: string, env: Record<string, string> = {}) {
  const t = await startTestApp(engine, { ARCA_LOG_LEVEL: 'info', ARCA_NODE_ID: nodeId, ...env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return t;
}

describe.each(ENGINES)('the live log viewer on %s', (engine) => {
  let first: TestApp;
  let second: TestApp;
  const get = (t: TestApp, url: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({ url, headers });

  beforeAll(async () => {
    first = await startNode(engine, 'node-a');
    // a second node: on SQLite it shares the data directory (a sibling worker); on PostgreSQL it
    // has a data directory of its own, as a node on another machine would, and is read through HTTP
    second = await startNode(
      engine,
      'node-b',
      engine === 'sqlite' ? { ARCA_DATA_DIR: first.dataDir } : { ARCA_DATABASE_URL: first.config.databaseUrl! },
    );
  });
  afterAll(async () => {
    await second.app.close();
    if (engine === 'postgres') fs.rmSync(second.dataDir, { recursive: true, force: true });
    await first.close();
  });

  /** Reads a node's file from `size` on, through the first node, until `marker` shows (the request log is written in batches). */
  async function readUntil(nodeId: string, file: string, size: number, marker: string) {
    let content = '';
    for (let i = 0; i < 100 && !content.includes(marker); i++) {
      const res = await get(first, `/ui/api/v1/system/logs/data/jfrt?nodeId=${nodeId}&id=${file}&file_size=${size}`);
      expect(res.statusCode).toBe(200);
      const data = res.json<{ log_content: string; file_size: number }>();
      content += data.log_content;
      size = data.file_size;
      if (!content.includes(marker)) await new Promise((r) => setTimeout(r, 50));
    }
    return { content, size };
  }

  it("lists a node's files of a product and the nodes running", async () => {
    const res = await get(first, '/ui/api/v1/system/logs/config/jfrt?nodeId=node-a');
    expect(res.statusCode).toBe(200);
    const config = res.json<{ logs: string[]; nodes: string[]; refresh_rate_millis: number }>();
    expect(config.logs.slice(0, 2)).toEqual(['jfrt-service.log', 'jfrt-request.log']);
    expect(config.nodes[0]).toBe('node-a');
    expect(config.nodes).toContain('node-b');
    expect(config.refresh_rate_millis).toBe(10_000);
    const access = (await get(first, '/ui/api/v1/system/logs/config/jfac')).json<{ logs: string[] }>();
    expect(access.logs).toEqual(['jfac-service.log', 'jfac-audit.log']);
    expect((await get(first, '/ui/api/v1/system/logs/config/jfxr')).statusCode).toBe(400);
  });

  it('reads a growing file from the last size on, and from the start again after a rotation', async () => {
    const first_ = await get(first, '/ui/api/v1/system/logs/data/jfrt?id=jfrt-request.log&file_size=0');
    expect(first_.statusCode).toBe(200);
    const start = first_.json<{ file_size: number; last_update_modified: number }>();
    await get(first, '/artifactory/api/system/ping?growing-1');
    const grown = await readUntil('node-a', 'jfrt-request.log', start.file_size, 'growing-1');
    expect(
      grown.content
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line) as unknown),
    ).toBeTruthy();
    expect(grown.size).toBeGreaterThan(start.file_size);

    // the file is replaced by a shorter one (rotated): the next read starts over rather than waiting past its end
    const file = path.join(logsDirOf(first.dataDir, 'node-a'), 'jfrt-request.log');
    fs.writeFileSync(file, '{"msg":"after rotation"}\n');
    const rotated = await get(first, `/ui/api/v1/system/logs/data/jfrt?id=jfrt-request.log&file_size=${grown.size}`);
    expect(rotated.json()).toMatchObject({ log_content: '{"msg":"after rotation"}\n', file_size: 25 });
    await get(first, '/artifactory/api/system/ping?growing-2');
    expect((await readUntil('node-a', 'jfrt-request.log', 25, 'growing-2')).content).toContain('growing-2');
  });

  it("reads another node's files through the first", async () => {
    const config = (await get(first, '/ui/api/v1/system/logs/config/jfrt?nodeId=node-b')).json<{ logs: string[] }>();
    expect(config.logs).toContain('jfrt-request.log');
    await get(second, '/artifactory/api/system/ping?on-node-b');
    const read = await readUntil('node-b', 'jfrt-request.log', 0, 'on-node-b');
    expect(read.content).toContain('"url":"/artifactory/api/system/ping?on-node-b"');
    // the JFrog CLI's live-logs plugin names the node in a header
    const cli = await get(first, '/artifactory/api/system/logs/data?id=jfrt-request.log&file_size=0', {
      ...ADMIN_BASIC,
      'x-jfrog-node-id': 'node-b',
    });
    expect(cli.json<{ log_content: string }>().log_content).toContain('on-node-b');
  });

  it.runIf(engine === 'postgres')(
    "puts another machine's logs, read through it, in a support bundle, which then downloads through either node",
    async () => {
      const headers = { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' };
      const support = (t: TestApp, method: 'GET' | 'POST', url: string, payload?: object) =>
        t.app.inject({ method, url: `/ui/api/v1/ui/userSupport/${url}`, headers, ...(payload ? { payload } : {}) });
      await get(first, '/artifactory/api/system/ping?for-the-bundle');
      // the request log is written in batches: the line is on node-a's disk before the bundle is asked for
      await readUntil('node-a', 'jfrt-request.log', 0, 'for-the-bundle');
      // node-b makes the bundle: node-a's files are not on its disk
      const created = await support(second, 'POST', 'generateBundle', { name: 'two machines' });
      expect(created.statusCode).toBe(202);
      const id = created.json<{ id: string }>().id;
      await second.services.supportBundles.idle();
      const listed = (await support(first, 'GET', 'listBundles')).json<{ bundles: { id: string; status: string }[] }>();
      expect(listed.bundles.find((b) => b.id === id)?.status).toBe('success');
      expect(fs.existsSync(path.join(first.dataDir, 'support-bundles', `${id}.zip`))).toBe(false);

      // asked on node-a, the zip comes from node-b's disk through node-b
      const download = await support(first, 'GET', `downloadBundle/${id}`);
      expect(download.statusCode, download.body.slice(0, 300)).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      const entries = await zipEntries(download.rawPayload);
      expect(Object.keys(entries)).toEqual(
        expect.arrayContaining(['logs/node-a/jfrt-request.log', 'logs/node-b/jfrt-service.log']),
      );
      expect(Object.keys(entries).some((name) => name.includes('NOT-INCLUDED'))).toBe(false);
      expect(entries['logs/node-a/jfrt-request.log']).toContain('for-the-bundle');
      const direct = await support(second, 'GET', `downloadBundle/${id}`);
      expect(direct.rawPayload.equals(download.rawPayload)).toBe(true);

      // the node's own call is sealed, and answers only for a bundle it made
      const internal = `/api/internal/v1/support/bundles/${id}/file`;
      expect((await second.app.inject({ url: internal })).statusCode).toBe(401);
    },
  );

  it('refuses non-administrators, unknown files and nodes, and node calls not sealed by the deployment', async () => {
    const user = await createUser(first.app, 'log-reader');
    expect((await get(first, '/ui/api/v1/system/logs/config/jfrt', user)).statusCode).toBe(403);
    expect((await get(first, '/ui/api/v1/system/logs/config/jfrt', {})).statusCode).toBe(401);
    const traversal = await get(first, '/ui/api/v1/system/logs/data/jfrt?id=../arca.db&file_size=0');
    expect(traversal.statusCode).toBe(400);
    const other = await get(first, '/ui/api/v1/system/logs/data/jfrt?id=jfac-audit.log&file_size=0');
    expect(other.statusCode).toBe(404);
    const unknown = await get(first, '/ui/api/v1/system/logs/config/jfrt?nodeId=node-z');
    expect(unknown.json().errors[0].message).toBe("Node 'node-z' is unknown.");
    await first.app.db
      .insertInto('nodes')
      .values({
        node_id: 'node-gone',
        host: 'elsewhere',
        version: '0',
        services: '[]',
        started_at: Date.now() - 600_000,
        // stopped two minutes ago: offline, but not yet forgotten by the heartbeats
        last_heartbeat: Date.now() - 120_000,
        address: 'http://127.0.0.1:9',
      })
      .execute();
    const gone = await get(first, '/ui/api/v1/system/logs/config/jfrt?nodeId=node-gone');
    expect(gone.statusCode).toBe(503);
    expect(gone.json().errors[0].message).toBe("Node 'node-gone' is not running; what it keeps cannot be read now.");

    const internal = '/api/internal/v1/logs/data/jfrt?id=jfrt-service.log&file_size=0';
    expect((await get(first, internal, {})).statusCode).toBe(401);
    expect((await get(first, internal, { [NODE_CALL_HEADER]: 'forged' })).statusCode).toBe(401);
    const forOtherPath = await seal(
      first.app.db,
      'node-call',
      JSON.stringify({ path: '/api/internal/v1/logs/config/jfrt', until: Date.now() + 60_000 }),
    );
    expect((await get(first, internal, { [NODE_CALL_HEADER]: forOtherPath })).statusCode).toBe(401);
    const expired = await seal(first.app.db, 'node-call', JSON.stringify({ path: internal, until: Date.now() - 1 }));
    expect((await get(first, internal, { [NODE_CALL_HEADER]: expired })).statusCode).toBe(401);
    const good = await seal(first.app.db, 'node-call', JSON.stringify({ path: internal, until: Date.now() + 60_000 }));
    expect((await get(first, internal, { [NODE_CALL_HEADER]: good })).statusCode).toBe(200);
  });
});
