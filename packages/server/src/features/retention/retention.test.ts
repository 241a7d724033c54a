import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_MESSAGES, type Execution, type PreviewAnswer } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  basic,
  createRepo,
  createUser,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from '../../test/s3-server.js';

const BASE = '/ui/api/v1/ui/retention';
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A form policy over one repository: every `.bin` file without the property keep=true. */
const formPolicy = (key: string, repo: string, extra: Record<string, unknown> = {}) => ({
  key,
  description: 'old binaries',
  cronExp: '0 0 3 * * ?',
  enabled: true,
  skipTrashcan: true,
  searchCriteriaForm: {
    include: { operator: 'and', repositories: [repo], paths: [], names: ['*.bin'], properties: [] },
    exclude: { operator: 'or', repositories: [], paths: [], names: [], properties: [{ key: 'keep', value: 'true' }] },
    createdBefore: null,
    downloadedBefore: null,
  },
  ...extra,
});

describe.each(ENGINES)('retention and archive on %s', (engine) => {
  let t: TestApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(engine, { ARCA_ARCHIVE_RELEASE_GRACE_SECONDS: '0' });
    headers = { ...XHR, cookie: (await login(t.app)).cookie };
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  /** Waits for the run of a policy (or a restore) to end; answers it. */
  async function finished(kind: 'archive' | 'restore', id: string): Promise<Execution> {
    for (let i = 0; i < 600; i++) {
      const res = await call('GET', `/${kind}/executions?from=0&to=${Date.now() + 60_000}`);
      const execution = (res.json() as { executions: Execution[] }).executions.find(
        (e) => e.migrationIdentifier === id,
      );
      if (execution && execution.endedAt !== null) return execution;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the ${kind} run ${id} did not end`);
  }

  async function deployMany(repo: string, count: number, file: (i: number) => { path: string; body: string }) {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < count; i = next++) {
          const { path: where, body } = file(i);
          const res = await put(t.app, `/artifactory/${repo}/${where}`, body);
          if (res.statusCode !== 201) throw new Error(`deploy ${where}: ${res.statusCode} ${res.body}`);
        }
      }),
    );
  }

  async function previewAll(policy: object): Promise<{ count: number; totalSize: number; paths: string[] }> {
    const paths: string[] = [];
    let answer: PreviewAnswer;
    let offset = 0;
    do {
      answer = (
        await call('POST', `/archive/policies/preview?offset=${offset}&limit=500`, policy)
      ).json() as PreviewAnswer;
      paths.push(...answer.items.map((i) => `${i.repoKey}/${i.path}`));
      offset += 500;
    } while (answer.items.length === 500);
    return { count: answer.count, totalSize: answer.totalSize, paths };
  }

  async function archivedPaths(id: string): Promise<string[]> {
    const paths: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const res = await call('GET', `/executions/${id}/items?state=done&offset=${offset}&limit=500`);
      const { items } = res.json() as { items: { repoKey: string; path: string }[] };
      paths.push(...items.map((i) => `${i.repoKey}/${i.path}`));
      if (items.length < 500) return paths;
    }
  }

  // the scale is proven on SQLite; PostgreSQL runs the same queries, batches and pages over fewer
  // files (each deploy there costs twice the time, and this set-up was the suite's longest)
  const files = engine === 'sqlite' ? 10_000 : 2_500;
  const taken = files - files / 10;

  it(`archives exactly what the preview lists over ${files} artifacts, releases the hot store and restores byte for byte`, async () => {
    await createRepo(t.app, 'gen-local', { rclass: 'local' });
    // files over 100 contents; every tenth keeps itself with keep=true
    await deployMany('gen-local', files, (i) => ({
      path: `g/${i % 50}/f${i}.bin${i % 10 === 0 ? ';keep=true' : ''}`,
      body: `content ${i % 100}`,
    }));
    await put(t.app, '/artifactory/gen-local/g/readme.txt', 'not a binary');
    const policy = formPolicy('old-binaries', 'gen-local');

    const preview = await previewAll(policy);
    expect(preview.count).toBe(taken);
    expect(preview.paths).toHaveLength(taken);
    expect(preview.totalSize).toBe(
      Array.from({ length: files }, (_, i) => i)
        .filter((i) => i % 10 !== 0)
        .reduce((sum, i) => sum + `content ${i % 100}`.length, 0),
    );
    expect(preview.paths).not.toContain('gen-local/g/0/f0.bin');
    expect(preview.paths).not.toContain('gen-local/g/readme.txt');

    expect((await call('POST', '/archive/policies', policy)).statusCode).toBe(201);
    const triggered = await call('POST', '/archive/policies/old-binaries/trigger');
    expect(triggered.statusCode).toBe(202);
    const run = await finished('archive', (triggered.json() as Execution).migrationIdentifier);
    expect(run).toMatchObject({ state: 'COMPLETE', displayState: 'COMPLETE', total: taken, done: taken, failed: 0 });
    expect((await archivedPaths(run.migrationIdentifier)).sort()).toEqual([...preview.paths].sort());

    // what is left in the repository is what the policy does not take
    expect((await t.app.inject({ url: '/artifactory/gen-local/g/1/f1.bin', headers: ADMIN_BASIC })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: '/artifactory/gen-local/g/0/f0.bin', headers: ADMIN_BASIC })).body).toBe(
      'content 0',
    );
    // contents only archived files used left the hot store; the cold store holds each once
    const hot = (sha: string) =>
      fs.existsSync(path.join(t.dataDir, 'filestore', sha.slice(0, 2), sha.slice(2, 4), sha));
    const cold = (sha: string) =>
      fs.existsSync(path.join(t.dataDir, 'coldstore', sha.slice(0, 2), sha.slice(2, 4), sha));
    expect(hot(sha256('content 1'))).toBe(false);
    expect(cold(sha256('content 1'))).toBe(true);
    expect(hot(sha256('content 10'))).toBe(true);
    const info = (await call('GET', '/archive/storageinfo')).json() as {
      binariesSummary: Record<string, number>;
      history: { day: string }[];
    };
    // 45 folders hold archived files: g/0, g/10 … g/40 hold only files kept with keep=true
    expect(info.binariesSummary).toMatchObject({ binariesCount: 90, artifactsCount: taken, itemsCount: taken + 45 });
    // each content is kept once: the 90 contents stand for all the archived files
    expect(info.binariesSummary.optimization).toBeGreaterThan(100 * (1 - 100 / taken));
    expect(info.history.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));

    // the archive search finds them; a restore puts one back with its properties and checksums
    const search = await t.app.inject({
      method: 'POST',
      url: `${BASE}/search`,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: JSON.stringify({ name: 'f11.*', repositories: ['gen-local'] }),
    });
    expect(search.json()).toMatchObject({
      total: 1,
      limited: false,
      results: [{ repo: 'gen-local', path: 'g/11/f11.bin' }],
    });
    const restore = await call('POST', '/restore', {
      restoreToOriginal: true,
      itemsToRestore: [{ repoKey: 'gen-local', path: 'g/11/f11.bin' }],
    });
    expect(restore.statusCode).toBe(202);
    const restored = await finished('restore', (restore.json() as Execution).migrationIdentifier);
    expect(restored).toMatchObject({ label: 'Restoring', state: 'COMPLETE', done: 1 });
    const back = await t.app.inject({ url: '/artifactory/gen-local/g/11/f11.bin', headers: ADMIN_BASIC });
    expect(sha256(back.rawPayload)).toBe(sha256('content 11'));
    const storage = await t.app.inject({
      url: '/artifactory/api/storage/gen-local/g/11/f11.bin',
      headers: ADMIN_BASIC,
    });
    expect(storage.json()).toMatchObject({
      checksums: { sha256: sha256('content 11'), sha1: createHash('sha1').update('content 11').digest('hex') },
    });
    expect(hot(sha256('content 11'))).toBe(true);
    // the archive no longer holds it; the content stays cold for the other files that use it
    expect(cold(sha256('content 11'))).toBe(true);
    const again = await t.app.inject({
      method: 'POST',
      url: `${BASE}/search`,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: JSON.stringify({ name: 'f11.bin' }),
    });
    expect((again.json() as { total: number }).total).toBe(0);
  }, 300_000);

  it('keeps properties through archive and restore, to the original place or elsewhere', async () => {
    await createRepo(t.app, 'props-local', { rclass: 'local' });
    await createRepo(t.app, 'other-local', { rclass: 'local' });
    await put(t.app, '/artifactory/props-local/a/one.bin;team=core;tier=gold', 'one');
    await put(t.app, '/artifactory/props-local/a/two.bin', 'two');
    await put(t.app, '/artifactory/props-local/a/three.bin', 'three');
    await call('POST', '/archive/policies', formPolicy('props', 'props-local', { skipTrashcan: false }));
    const run = await finished(
      'archive',
      ((await call('POST', '/archive/policies/props/trigger')).json() as Execution).migrationIdentifier,
    );
    expect(run.done).toBe(3);
    // through the trash can when the policy does not skip it
    const trash = await t.app.inject({
      url: '/artifactory/api/storage/auto-trashcan/props-local/a/one.bin',
      headers: ADMIN_BASIC,
    });
    expect(trash.statusCode).toBe(200);

    // a file now at the original place is not overwritten: that item fails, the others go back
    await put(t.app, '/artifactory/props-local/a/two.bin', 'a new two');
    const restore = await call('POST', '/restore', {
      restoreToOriginal: true,
      itemsToRestore: [
        { repoKey: 'props-local', path: 'a/one.bin' },
        { repoKey: 'props-local', path: 'a/two.bin' },
      ],
    });
    const ended = await finished('restore', (restore.json() as Execution).migrationIdentifier);
    expect(ended).toMatchObject({
      state: 'COMPLETE_WITH_ERRORS',
      displayState: 'COMPLETE_WITH_ERRORS',
      done: 1,
      failed: 1,
    });
    const failures = (await call('GET', `/executions/${ended.migrationIdentifier}/items?state=failed`)).json() as {
      items: { path: string; error: string }[];
    };
    expect(failures.items).toEqual([
      expect.objectContaining({ path: 'a/two.bin', error: "A file already exists at 'props-local/a/two.bin'." }),
    ]);
    const props = await t.app.inject({
      url: '/artifactory/api/storage/props-local/a/one.bin?properties',
      headers: ADMIN_BASIC,
    });
    expect(props.json()).toMatchObject({ properties: { team: ['core'], tier: ['gold'] } });
    expect((await t.app.inject({ url: '/artifactory/props-local/a/two.bin', headers: ADMIN_BASIC })).body).toBe(
      'a new two',
    );

    // elsewhere: under the central destination, by repository and path
    const central = await call('POST', '/restore', {
      restoreToOriginal: false,
      centralDestinationPath: 'other-local/restored',
      itemsToRestore: [{ repoKey: 'props-local', path: 'a/three.bin' }],
    });
    expect((await finished('restore', (central.json() as Execution).migrationIdentifier)).done).toBe(1);
    expect(
      (await t.app.inject({ url: '/artifactory/other-local/restored/props-local/a/three.bin', headers: ADMIN_BASIC }))
        .body,
    ).toBe('three');
  });

  it('takes files by age and downloads, and AQL policies; a form cannot come back from AQL', async () => {
    await createRepo(t.app, 'age-local', { rclass: 'local' });
    for (const name of ['old-unused', 'old-used', 'new']) await put(t.app, `/artifactory/age-local/${name}.bin`, name);
    await t.app.inject({ url: '/artifactory/age-local/old-used.bin', headers: ADMIN_BASIC });
    // downloads are counted in memory and written a moment later: once written, the clock below stays
    await expect
      .poll(async () => {
        const row = await t.app.db
          .selectFrom('items')
          .select('download_count')
          .where('repo_key', '=', 'age-local')
          .where('name', '=', 'old-used.bin')
          .executeTakeFirstOrThrow();
        return Number(row.download_count);
      })
      .toBe(1);
    // the clock of these files: two deployed a year ago, one of them downloaded last week
    const yearAgo = Date.now() - 365 * 86_400_000;
    await t.app.db
      .updateTable('items')
      .set({ created_at: yearAgo })
      .where('repo_key', '=', 'age-local')
      .where('name', 'in', ['old-unused.bin', 'old-used.bin'])
      .execute();
    await t.app.db
      .updateTable('items')
      .set({ last_downloaded: Date.now() - 7 * 86_400_000 })
      .where('repo_key', '=', 'age-local')
      .where('name', '=', 'old-used.bin')
      .execute();
    const form = formPolicy('ages', 'age-local').searchCriteriaForm;
    const preview = async (criteria: object) =>
      (
        (
          await call('POST', '/archive/policies/preview', { searchCriteriaForm: { ...form, ...criteria } })
        ).json() as PreviewAnswer
      ).items
        .map((i) => i.name)
        .sort();
    expect(await preview({ createdBefore: { value: 6, unit: 'months' } })).toEqual(['old-unused.bin', 'old-used.bin']);
    expect(await preview({ downloadedBefore: { value: 1, unit: 'months' } })).toEqual(['old-unused.bin']);
    expect(await preview({ downloadedBefore: { value: 3, unit: 'days' } })).toEqual(['old-unused.bin', 'old-used.bin']);

    const converted = await call('POST', '/archive/policies/convertToAql', {
      searchCriteriaForm: { ...form, createdBefore: { value: 6, unit: 'months' } },
    });
    const { aqlQuery } = converted.json() as { aqlQuery: string };
    expect(aqlQuery).toContain('"created":{"$before":"6mo"}');
    const saved = await call('POST', '/archive/policies', { key: 'aql-ages', cronExp: '0 3 * * *', aqlQuery });
    expect(saved.json()).toMatchObject({ basis: 'aql', searchCriteriaForm: null, aqlQuery });
    const back = await call('PUT', '/archive/policies/aql-ages', {
      key: 'aql-ages',
      cronExp: '0 3 * * *',
      searchCriteriaForm: form,
    });
    expect(messages(back)).toEqual([RETENTION_MESSAGES.aqlOneWay]);
    const run = await finished(
      'archive',
      ((await call('POST', '/archive/policies/aql-ages/trigger')).json() as Execution).migrationIdentifier,
    );
    expect(run.done).toBe(2);
    expect((await t.app.inject({ url: '/artifactory/age-local/new.bin', headers: ADMIN_BASIC })).statusCode).toBe(200);
  });

  it('refuses bad policies with the spec messages and changes nothing', async () => {
    await createRepo(t.app, 'valid-local', { rclass: 'local' });
    await createRepo(t.app, 'valid-remote', { rclass: 'remote', url: 'https://repo.example.com/' });
    const cases: [object, string][] = [
      [formPolicy('no-cron', 'valid-local', { cronExp: '' }), RETENTION_MESSAGES.cronEmpty],
      [formPolicy('bad-cron', 'valid-local', { cronExp: 'every day' }), RETENTION_MESSAGES.cronInvalid],
      [formPolicy('bad-cron', 'valid-local', { cronExp: '0 0 3 * * ? 2001' }), RETENTION_MESSAGES.cronInvalid],
      [formPolicy('', 'valid-local'), RETENTION_MESSAGES.keyRequired],
      [formPolicy('1st', 'valid-local'), RETENTION_MESSAGES.keyFormat],
      [{ key: 'nothing', cronExp: '0 3 * * *' }, RETENTION_MESSAGES.criteriaMissing],
      [
        { key: 'no-repo', cronExp: '0 3 * * *', searchCriteriaForm: { include: { repositories: [] } } },
        RETENTION_MESSAGES.repositoryMissing,
      ],
      [formPolicy('remote', 'valid-remote'), "Repository 'valid-remote' does not exist or is not a local repository."],
      [{ key: 'builds', cronExp: '0 3 * * *', aqlQuery: 'builds.find({})' }, RETENTION_MESSAGES.aqlDomain],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/archive/policies', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(messages(res)).toEqual([message]);
    }
    const aql = await call('POST', '/archive/policies', {
      key: 'bad-aql',
      cronExp: '0 3 * * *',
      aqlQuery: 'items.find({"colour":"red"})',
    });
    expect(aql.statusCode).toBe(400);
    expect(messages(aql)[0]).toMatch(/Unknown field 'colour'/);
    const names = ((await call('GET', '/archive/policies')).json() as { key: string }[]).map((p) => p.key);
    for (const key of ['no-cron', 'bad-cron', 'nothing', 'no-repo', 'remote', 'builds', 'bad-aql'])
      expect(names).not.toContain(key);

    expect((await call('POST', '/archive/policies', formPolicy('twice', 'valid-local'))).statusCode).toBe(201);
    const twice = await call('POST', '/archive/policies', formPolicy('twice', 'valid-local'));
    expect(twice.statusCode).toBe(409);
    expect(messages(twice)).toEqual(["A policy named 'twice' already exists."]);
    const disabled = await call(
      'PUT',
      '/archive/policies/twice',
      formPolicy('twice', 'valid-local', { enabled: false }),
    );
    expect(disabled.json()).toMatchObject({ enabled: false, nextExecutionTime: null });
    expect(messages(await call('POST', '/archive/policies/twice/trigger'))).toEqual([
      "The policy 'twice' is disabled: enable it to run it.",
    ]);
    expect(messages(await call('POST', '/archive/policies/twice/stop'))).toEqual([
      "The policy 'twice' is not running.",
    ]);

    // the cron check the form calls
    const cron = await t.app.inject({
      url: '/ui/api/v1/ui/crontime?cron=0%200%203%20*%20*%20%3F&isReplication=false',
      headers,
    });
    expect(cron.statusCode).toBe(200);
    const runs = (cron.json() as { nextRuns: number[] }).nextRuns;
    expect(runs).toHaveLength(5);
    expect(new Date(runs[0]!).getHours()).toBe(3);
    const badCron = await t.app.inject({ url: '/ui/api/v1/ui/crontime?cron=61%20*%20*%20*%20*', headers });
    expect(messages(badCron)).toEqual([RETENTION_MESSAGES.cronInvalid]);

    // the archive search's parameters
    const search = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `${BASE}/search`,
        headers: { ...headers, 'content-type': 'text/plain' },
        payload,
      });
    expect(messages(await search('{"before":"yesterday-ish"}'))).toEqual([RETENTION_MESSAGES.paramsInvalid]);
    expect(messages(await search('not json'))).toEqual([RETENTION_MESSAGES.paramsInvalid]);
    expect(messages(await search('{"checksum":"abc"}'))).toEqual([RETENTION_MESSAGES.checksumLength]);
    const day = (await search('{"after":"2026-01-02","before":"2026-01-02"}')).json() as {
      range: { from: number; to: number };
    };
    expect(day.range).toEqual({ from: Date.UTC(2026, 0, 2), to: Date.UTC(2026, 0, 3) - 1 });
  });

  it('is for administrators only', async () => {
    await createUser(t.app, 'reader');
    const asUser = { ...XHR, cookie: (await login(t.app, 'reader', 'reader-Passw0rd')).cookie };
    for (const [method, url] of [
      ['GET', `${BASE}/archive/policies`],
      ['POST', `${BASE}/archive/policies/preview`],
      ['GET', `${BASE}/archive/executions`],
      ['POST', `${BASE}/restore`],
      ['POST', `${BASE}/search`],
      ['GET', `${BASE}/archive/storageinfo`],
      ['GET', '/artifactory/api/retention/archive/policies'],
    ] as const) {
      // a console session counts on the console's calls only
      if (url.startsWith(BASE))
        expect(
          (await t.app.inject({ method, url, headers: asUser, payload: method === 'POST' ? {} : undefined }))
            .statusCode,
          url,
        ).toBe(403);
      expect((await t.app.inject({ method, url, headers: basic('reader', 'reader-Passw0rd') })).statusCode, url).toBe(
        403,
      );
      expect((await t.app.inject({ method, url, headers: XHR })).statusCode, url).toBe(401);
    }
  });

  it('stops when asked and at its duration limit, each item moved once', async () => {
    await createRepo(t.app, 'stop-local', { rclass: 'local' });
    await deployMany('stop-local', 1500, (i) => ({ path: `s/f${i}.bin`, body: `stop ${i}` }));
    await call('POST', '/archive/policies', formPolicy('stoppable', 'stop-local'));
    const started = (await call('POST', '/archive/policies/stoppable/trigger')).json() as Execution;
    expect(messages(await call('POST', '/archive/policies/stoppable/trigger'))).toEqual([
      "The policy 'stoppable' is running: stop it or wait for its run to end.",
    ]);
    expect((await call('POST', '/archive/policies/stoppable/stop')).statusCode).toBe(202);
    const stopped = await finished('archive', started.migrationIdentifier);
    expect(stopped.state).toBe('STOPPED_BY_USER');
    expect(stopped.done).toBeLessThan(1500);
    const left = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('items')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('repo_key', '=', 'stop-local')
            .where('folder', '=', 0)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await left()).toBe(1500 - stopped.done);

    // a run at its duration limit ends cleanly, the rest left for the next run
    await call('PUT', '/archive/policies/stoppable', formPolicy('stoppable', 'stop-local', { durationInMinutes: 1 }));
    const limited = (await call('POST', '/archive/policies/stoppable/trigger')).json() as Execution;
    // the limit is reached at once: its deadline set to now, as a minute would have passed
    await t.app.db
      .updateTable('archive_executions')
      .set({ deadline: Date.now() })
      .where('id', '=', limited.migrationIdentifier)
      .execute();
    const ended = await finished('archive', limited.migrationIdentifier);
    expect(ended.state).toBe('COMPLETE');
    expect(ended.message).toMatch(/duration limit \(1 min\)/);
    expect(await left()).toBe(1500 - stopped.done - ended.done);

    const archived = await t.app.db
      .selectFrom('archived_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('repo_key', '=', 'stop-local')
      .executeTakeFirstOrThrow();
    expect(Number(archived.n)).toBe(stopped.done + ended.done);
  });
});

describe('an archive whose cold store is an S3 bucket', () => {
  let s3: S3TestServer;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server('arca-cold');
    // the SDK takes its credentials from the process's environment
    Object.assign(process.env, S3_TEST_CREDENTIALS);
    // the hot store on the file system, the cold one in the bucket under a prefix
    t = await startTestApp('sqlite', {
      ARCA_COLD_STORE: 's3',
      ARCA_COLD_S3_BUCKET: s3.bucket,
      ARCA_COLD_S3_PREFIX: 'archive',
      ARCA_COLD_S3_ENDPOINT: s3.endpoint,
      ARCA_S3_REGION: 'us-east-1',
      ARCA_ARCHIVE_RELEASE_GRACE_SECONDS: '0',
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('keeps archived bytes in the bucket and brings them back unchanged', async () => {
    const headers = { ...XHR, cookie: (await login(t.app)).cookie };
    await createRepo(t.app, 'cold-local', { rclass: 'local' });
    await put(t.app, '/artifactory/cold-local/a/one.bin', 'one in the bucket');
    const policy = {
      key: 'to-bucket',
      cronExp: '0 3 * * *',
      skipTrashcan: true,
      ...{ searchCriteriaForm: { include: { repositories: ['cold-local'] } } },
    };
    expect(
      (await t.app.inject({ method: 'POST', url: `${BASE}/archive/policies`, headers, payload: policy })).statusCode,
    ).toBe(201);
    await t.app.inject({ method: 'POST', url: `${BASE}/archive/policies/to-bucket/trigger`, headers });
    await t.app.work.idle();
    const sha = sha256('one in the bucket');
    const object = path.join(s3.directory, s3.bucket, 'archive', 'sha256', sha.slice(0, 2), sha.slice(2, 4), sha);
    expect(fs.readdirSync(path.dirname(path.dirname(object))).length).toBeGreaterThan(0);
    const info = (await t.app.inject({ url: `${BASE}/archive/storageinfo`, headers })).json() as {
      store: { type: string; location: string };
    };
    expect(info.store).toMatchObject({ type: 's3' });
    expect(info.store.location).toContain('s3://arca-cold/archive/');
    await t.app.inject({
      method: 'POST',
      url: `${BASE}/restore`,
      headers,
      payload: { itemsToRestore: [{ repoKey: 'cold-local', path: 'a/one.bin' }] },
    });
    await t.app.work.idle();
    expect((await t.app.inject({ url: '/artifactory/cold-local/a/one.bin', headers: ADMIN_BASIC })).body).toBe(
      'one in the bucket',
    );
  });
});
