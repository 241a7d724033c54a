import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENT_MESSAGES, REPLICATION_MESSAGES } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, messages, startListeningApp as listening } from '../../test/harness.js';
import { plantTask } from '../../test/work.js';

type Instance = Awaited<ReturnType<typeof listening>>;

const API = '/ui/api/v1/mc/api/v1/replications';
const admin = { ...ADMIN_BASIC, ...XHR };

async function makeRepo(at: Instance, key: string) {
  const res = await at.app.inject({
    method: 'PUT',
    url: `/artifactory/api/repositories/${key}`,
    headers: ADMIN_BASIC,
    payload: { rclass: 'local', packageType: 'generic' },
  });
  expect(res.statusCode).toBeLessThan(300);
}

const deploy = (at: Instance, repo: string, path: string, body: string) =>
  at.app.inject({ method: 'PUT', url: `/artifactory/${repo}/${path}`, headers: ADMIN_BASIC, payload: body });

const filesOf = async (at: Instance, repo: string) =>
  new Map(
    (
      await at.app.db
        .selectFrom('items')
        .select(['path', 'sha256'])
        .where('repo_key', '=', repo)
        .where('folder', '=', 0)
        .execute()
    ).map((r) => [r.path, r.sha256]),
  );

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(ENGINES)('replications on %s', (engine) => {
  let here: Instance;
  let there: Instance;
  let deploymentId = '';

  beforeAll(async () => {
    [here, there] = await Promise.all([listening(engine), listening(engine)]);
    const pairing = await there.app.inject({
      method: 'POST',
      url: '/access/api/v1/pairing/token',
      headers: ADMIN_BASIC,
    });
    const registered = await here.app.inject({
      method: 'POST',
      url: '/ui/api/v1/mc/api/v1/deployments',
      headers: admin,
      payload: { name: 'there', url: there.url, pairing_token: pairing.json().token },
    });
    deploymentId = registered.json().id;
    for (const key of ['libs', 'mirror']) await makeRepo(here, key);
    for (const key of ['libs', 'incoming']) await makeRepo(there, key);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([here?.close(), there?.close()]);
  });

  /** Runs a replication now and waits for its run to end. */
  async function run(key: string) {
    const started = await here.app.inject({ method: 'POST', url: `${API}/${key}/run`, headers: admin });
    expect(started.statusCode).toBe(200);
    const id = started.json().run_id as string;
    for (;;) {
      const res = await here.app.inject({
        method: 'GET',
        url: `${API}/runs/${encodeURIComponent(id)}`,
        headers: admin,
      });
      const { run, output } = res.json();
      if (run.status !== 'running') return { ...run, output } as Record<string, number | string>;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('refuses what cannot replicate, and saves nothing', async () => {
    const refused = async (payload: object) => {
      const res = await here.app.inject({ method: 'POST', url: API, headers: admin, payload });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    const base = { key: 'x', repo_key: 'libs', deployment_id: deploymentId, remote_repo_key: 'libs', strategy: 'push' };
    expect(await refused(base)).toBe(`cron: ${REPLICATION_MESSAGES.noTrigger}`);
    expect(await refused({ ...base, strategy: 'pull', event_based: true })).toBe(
      `event_based: ${REPLICATION_MESSAGES.eventPull}`,
    );
    expect(await refused({ ...base, cron: '0 0 * * * *', repo_key: 'nope' })).toBe(REPLICATION_MESSAGES.notLocal);
    expect(await refused({ ...base, cron: '0 0 * * * *', remote_repo_key: 'nope' })).toBe(
      REPLICATION_MESSAGES.remoteRepo,
    );
    expect(await refused({ ...base, cron: '0 0 * * * *', deployment_id: 'nope' })).toBe(
      REPLICATION_MESSAGES.unknownDeployment,
    );
    expect((await here.app.inject({ method: 'GET', url: API, headers: admin })).json()).toEqual([]);
  });

  it('pushes 1 000 artifacts, then only what changed, mirrors deletions and sends no bytes the other side holds', async () => {
    for (let i = 0; i < 1000; i++) await deploy(here, 'libs', `org/app/${i % 10}/file-${i}.txt`, `content ${i}`);
    await deploy(here, 'libs', 'skip/me.tmp', 'excluded');
    const created = await here.app.inject({
      method: 'POST',
      url: API,
      headers: admin,
      payload: {
        key: 'libs-push',
        repo_key: 'libs',
        deployment_id: deploymentId,
        remote_repo_key: 'libs',
        strategy: 'push',
        cron: '0 0 3 * * *',
        exclude_patterns: ['**/*.tmp'],
        sync_deletes: true,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().next_run).not.toBeNull();

    const first = await run('libs-push');
    expect(first).toMatchObject({ status: 'success', files_total: 1000, files_transferred: 1000, files_failed: 0 });
    const copied = await filesOf(there, 'libs');
    expect(copied.size).toBe(1000);
    expect(copied.get('org/app/7/file-7.txt')).toBe(sha256('content 7'));
    expect(copied.has('skip/me.tmp')).toBe(false);

    // nothing changed: nothing moves
    expect(await run('libs-push')).toMatchObject({ status: 'success', files_total: 0, bytes_transferred: 0 });

    // 10 changed, 5 deleted here, one new file whose content the other side holds under another path
    for (let i = 0; i < 10; i++) await deploy(here, 'libs', `org/app/${i}/file-${i}.txt`, `changed ${i}`);
    for (let i = 990; i < 995; i++)
      await here.app.inject({
        method: 'DELETE',
        url: `/artifactory/libs/org/app/${i % 10}/file-${i}.txt`,
        headers: ADMIN_BASIC,
      });
    await deploy(here, 'libs', 'copy/of-42.txt', 'content 42');
    const third = await run('libs-push');
    expect(third).toMatchObject({
      status: 'success',
      files_transferred: 10,
      files_deduplicated: 1,
      files_deleted: 5,
      bytes_transferred: 10 * 'changed 0'.length,
    });
    const after = await filesOf(there, 'libs');
    expect(after.size).toBe(996);
    expect(after.get('org/app/3/file-3.txt')).toBe(sha256('changed 3'));
    expect(after.has('org/app/0/file-990.txt')).toBe(false);
    expect(String(third.output)).toContain('11 to send, 5 to delete');

    // a run of a node that died: it blocks a new one while its lease lasts, then any node takes
    // it over and ends it, comparing the two sides again (what was sent is not sent twice)
    await here.app.db
      .insertInto('replication_runs')
      .values({
        id: 'abandoned',
        replication_key: 'libs-push',
        trigger: 'schedule',
        status: 'running',
        node_id: 'node-gone',
        started_at: Date.now() - 60_000,
        finished_at: null,
        files_total: 10,
        files_done: 3,
        files_transferred: 3,
        files_deduplicated: 0,
        files_properties: 0,
        files_deleted: 0,
        files_failed: 0,
        bytes_transferred: 30,
        output: '2026-11-28T10:00:00.000Z Push libs → there libs',
      })
      .execute();
    const task = await plantTask(here.app.db, {
      kind: 'replication-run',
      task_key: 'abandoned',
      serial_key: 'replication:libs-push',
      payload: { replicationKey: 'libs-push', trigger: 'schedule' },
      holder: 'node-gone',
      lease_until: Date.now() + 60_000,
    });
    const blocked = await here.app.inject({ method: 'POST', url: `${API}/libs-push/run`, headers: admin });
    expect(blocked.statusCode).toBe(409);
    expect(messages(blocked)[0]).toBe(REPLICATION_MESSAGES.running);
    await here.app.db
      .updateTable('work_tasks')
      .set({ lease_until: Date.now() - 1 })
      .where('id', '=', task)
      .execute();
    await here.app.work.poll();
    await here.app.work.idle();
    const taken = await here.app.inject({ method: 'GET', url: `${API}/runs/abandoned`, headers: admin });
    expect(taken.json().run).toMatchObject({ status: 'success', files_transferred: 3, bytes_transferred: 30 });
    expect(taken.json().output).toContain('Taken over from node-gone: comparing the two sides again.');
    expect(taken.json().output).toContain('0 to send, 0 to delete');

    // the history lists the four runs
    const history = await here.app.inject({ method: 'GET', url: `${API}/runs?strategy=push`, headers: admin });
    expect(history.json()).toHaveLength(4);
  }, 180_000);

  it('pulls from the other deployment, with properties, and pushes each change on its own as it happens', async () => {
    for (let i = 0; i < 1000; i++) await deploy(there, 'incoming', `pkg/${i % 20}/${i}.bin`, `remote ${i}`);
    await there.app.inject({
      method: 'PUT',
      url: '/artifactory/incoming/pkg/tagged.bin;release=1.0;team=core',
      headers: ADMIN_BASIC,
      payload: 'tagged',
    });
    const created = await here.app.inject({
      method: 'POST',
      url: API,
      headers: admin,
      payload: {
        key: 'incoming-pull',
        repo_key: 'mirror',
        deployment_id: deploymentId,
        remote_repo_key: 'incoming',
        strategy: 'pull',
        cron: '0 0 4 * * *',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(await run('incoming-pull')).toMatchObject({ status: 'success', files_transferred: 1001 });
    expect((await filesOf(here, 'mirror')).size).toBe(1001);
    const props = await here.app.inject({
      method: 'GET',
      url: '/artifactory/api/storage/mirror/pkg/tagged.bin?properties',
      headers: ADMIN_BASIC,
    });
    expect(props.json().properties).toMatchObject({ release: ['1.0'], team: ['core'] });
    expect(await run('incoming-pull')).toMatchObject({ files_total: 0 });
    // then only what changed there comes: one changed, one whose content is here already (no download)
    await deploy(there, 'incoming', 'pkg/3/3.bin', 'remote 3, changed');
    await deploy(there, 'incoming', 'pkg/extra.bin', 'remote 7');
    expect(await run('incoming-pull')).toMatchObject({
      status: 'success',
      files_transferred: 1,
      files_deduplicated: 1,
      bytes_transferred: 'remote 3, changed'.length,
    });
    expect((await filesOf(here, 'mirror')).get('pkg/3/3.bin')).toBe(sha256('remote 3, changed'));

    // an event replication: each deploy and delete reaches the other side on its own
    const live = await here.app.inject({
      method: 'POST',
      url: API,
      headers: admin,
      payload: {
        key: 'mirror-live',
        repo_key: 'mirror',
        deployment_id: deploymentId,
        remote_repo_key: 'libs',
        strategy: 'push',
        event_based: true,
        sync_deletes: true,
      },
    });
    expect(live.statusCode).toBe(201);
    await deploy(here, 'mirror', 'live/one.txt', 'live one');
    const until = Date.now() + 20_000;
    while (!(await filesOf(there, 'libs')).has('live/one.txt') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect((await filesOf(there, 'libs')).get('live/one.txt')).toBe(sha256('live one'));
    await here.app.inject({ method: 'DELETE', url: '/artifactory/mirror/live/one.txt', headers: ADMIN_BASIC });
    while ((await filesOf(there, 'libs')).has('live/one.txt') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect((await filesOf(there, 'libs')).has('live/one.txt')).toBe(false);
    // the run records the delete once the other side has answered it; event runs are kept per hour, so
    // the two changes are summed over the replication's event runs (they may fall in two hours)
    const eventTotals = async () => {
      const runs = (
        await here.app.inject({ method: 'GET', url: `${API}/runs?strategy=push`, headers: admin })
      ).json() as { trigger: string; replication_key: string; files_transferred: number; files_deleted: number }[];
      const live = runs.filter((r) => r.replication_key === 'mirror-live');
      return {
        triggers: [...new Set(live.map((r) => r.trigger))],
        files_transferred: live.reduce((sum, r) => sum + r.files_transferred, 0),
        files_deleted: live.reduce((sum, r) => sum + r.files_deleted, 0),
      };
    };
    await expect
      .poll(eventTotals, { timeout: 20_000 })
      .toEqual({ triggers: ['event'], files_transferred: 1, files_deleted: 1 });
    // the topology links this deployment and the other by the replications, in the direction bytes travel
    const topology = (
      await here.app.inject({ method: 'GET', url: '/ui/api/v1/mc/api/v1/topology', headers: admin })
    ).json();
    expect(topology.nodes.map((n: { name: string }) => n.name)).toEqual(['Arca', 'there']);
    expect(topology.nodes[1].storage.repositories).toBeGreaterThanOrEqual(2);
    expect(topology.links).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'replication', from: deploymentId, to: 'local', status: 'success' }),
        expect.objectContaining({ kind: 'replication', from: 'local', to: deploymentId }),
      ]),
    );
    // the traffic between the deployments: the other one, with what the replications moved
    const usage = (
      await here.app.inject({ method: 'GET', url: '/ui/api/v1/mc/api/ui/v1/system/usage/p2p?top=5', headers: admin })
    ).json();
    const moved = (await here.app.inject({ method: 'GET', url: `${API}/runs?limit=1000`, headers: admin })).json() as {
      bytes_transferred: number;
    }[];
    expect(usage.top).toEqual([
      expect.objectContaining({ name: 'there', bytes: moved.reduce((sum, r) => sum + r.bytes_transferred, 0) }),
    ]);
    expect(usage.top[0].bytes).toBeGreaterThan(0);
    // the deployment cannot be unregistered while replications use it
    const refused = await here.app.inject({
      method: 'DELETE',
      url: `/ui/api/v1/mc/api/v1/deployments/${deploymentId}`,
      headers: admin,
    });
    expect(refused.statusCode).toBe(409);
    expect(messages(refused)[0]).toBe(DEPLOYMENT_MESSAGES.hasReplications);
    // a deployment stopped answering: the run fails and says why
    await there.app.close();
    const down = await run('incoming-pull');
    expect(down.status).toBe('failed');
    expect(String(down.output)).toMatch(/Failed:/);
  }, 120_000);
});
