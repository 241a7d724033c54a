import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, XHR, createRepo, login, put, startTestApp, type TestApp } from '../../test/harness.js';
import { plantTask } from '../../test/work.js';

/**
 * Deleting a repository with its content: its progress lives in the database, so that every node
 * answers it, and a deletion whose node died is taken up by another where it stopped.
 */
describe.each(ENGINES)('repository deletion across nodes on %s', (engine) => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    // the node looks for due work only when the test says so (its poll), not on its own every second
    t = await startTestApp(engine, { ARCA_WORK_POLL_MS: '3600000' });
    headers = { ...XHR, cookie: (await login(t.app)).cookie };
    await createRepo(t.app, 'big-local', { rclass: 'local' });
    for (let i = 0; i < 12; i++) {
      expect((await put(t.app, `/artifactory/big-local/dir${i % 3}/f${i}.txt`, `content ${i}`)).statusCode).toBe(201);
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const progress = async () =>
    (await t.app.inject({ url: '/ui/api/v1/ui/admin/repositories/big-local/delete', headers })).json() as {
      state: string;
      files: number;
      deletedFiles: number;
    };
  /** The console's Delete Repository, the key typed. */
  const askDeletion = () =>
    t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/admin/repositories/big-local/delete',
      headers,
      payload: { confirmKey: 'big-local' },
    });
  /** A deletion another node started, its lease until `leaseUntil`: past, that node died. */
  const deletionOfAnotherNode = (leaseUntil: number) =>
    plantTask(t.app.db, {
      kind: 'repository-deletion',
      task_key: 'big-local',
      payload: { actor: 'admin', sourceIp: '10.1.2.3', files: 12, bytes: 130 },
      holder: 'node-gone',
      lease_until: leaseUntil,
    });
  const files = async () =>
    (
      await t.app.db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('repo_key', '=', 'big-local')
        .executeTakeFirstOrThrow()
    ).n;

  it('answers a finished deletion with its figures afterwards', async () => {
    const done = await askDeletion();
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ state: 'done', files: 12, deletedFiles: 12 });
    expect(await progress()).toMatchObject({ state: 'done', files: 12, deletedFiles: 12 });
    expect((await t.app.inject({ url: '/artifactory/api/repositories/big-local', headers })).statusCode).toBe(404);
  });

  it('leaves a deletion another live node holds to it, changing nothing', async () => {
    await deletionOfAnotherNode(Date.now() + 60_000);
    const asked = await askDeletion();
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ state: 'running', files: 12, deletedFiles: 0 });
    expect(Number(await files())).toBe(15);
    // the kernel leaves it too: its node still holds it
    expect(await t.app.work.poll()).toBe(0);
    expect(Number(await files())).toBe(15);
  });

  it('takes up the deletion of a node that died, finishes it and records it for the one who asked', async () => {
    await deletionOfAnotherNode(Date.now() - 1);
    expect(await progress()).toMatchObject({ state: 'running', deletedFiles: 0 });
    // any node's next look for due work takes it over
    expect(await t.app.work.poll()).toBe(1);
    await t.app.work.idle();
    expect(await progress()).toMatchObject({ state: 'done', files: 12, deletedFiles: 12 });
    expect(Number(await files())).toBe(0);
    expect((await t.app.inject({ url: '/artifactory/api/repositories/big-local', headers })).statusCode).toBe(404);
    const audit = await t.app.db
      .selectFrom('audit_events')
      .selectAll()
      .where('category', '=', 'repository')
      .where('action', '=', 'delete')
      .execute();
    expect(audit.map((a) => [a.actor, a.source_ip, a.target])).toEqual([['admin', '10.1.2.3', 'big-local']]);
    const deleted = await t.app.db
      .selectFrom('events')
      .select('type')
      .where('type', '=', 'repository.deleted')
      .where('repo_key', '=', 'big-local')
      .execute();
    expect(deleted).toHaveLength(1);
  });
});
