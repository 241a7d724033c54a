import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, put, startTestApp, type TestApp } from '../../test/harness.js';

const checksums = (body: string) => ({
  sha1: createHash('sha1').update(body).digest('hex'),
  sha256: createHash('sha256').update(body).digest('hex'),
  md5: createHash('md5').update(body).digest('hex'),
});

/** A build-info document as JFrog's CLI writes it (`jf rt build-publish`). */
function buildInfo(number: string, artifact: { name: string; body: string }, started: string) {
  return {
    version: '1.0.1',
    name: 'app-build',
    number,
    buildAgent: { name: 'GENERIC', version: '2.52.0' },
    agent: { name: 'jfrog-cli-go', version: '2.52.0' },
    started,
    durationMillis: 12000,
    principal: 'ci',
    url: `https://ci.example/app/${number}`,
    vcs: [{ url: 'https://git.example/app.git', revision: `rev${number}`, branch: 'main', message: 'fix' }],
    modules: [
      {
        type: 'generic',
        id: 'app-build',
        artifacts: [
          { type: 'jar', name: artifact.name, path: `org/app/${artifact.name}`, ...checksums(artifact.body) },
        ],
        dependencies: [{ id: 'lib.jar', type: 'jar', scopes: ['compile'], ...checksums('library') }],
      },
    ],
    properties: { 'buildInfo.env.CI': 'true', 'buildInfo.env.RUN': number },
  };
}

describe.each(ENGINES)('the build API on %s', (engine) => {
  let t: TestApp;
  let reader: Record<string, string>;
  let outsider: Record<string, string>;
  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string> = ADMIN_BASIC,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const exists = async (url: string) => (await call('GET', url)).statusCode === 200;

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const key of ['libs-staging', 'libs-release', 'libs-deps']) await createRepo(t.app, key, { rclass: 'local' });
    await put(t.app, '/artifactory/libs-staging/org/app/app-1.0.jar;build.name=app-build;build.number=1', 'app one');
    await put(t.app, '/artifactory/libs-staging/org/app/app-1.1.jar;build.name=app-build;build.number=2', 'app two');
    await put(t.app, '/artifactory/libs-deps/lib/lib.jar', 'library');
    reader = await createUser(t.app, 'ci-reader');
    outsider = await createUser(t.app, 'outsider');
    await call('PUT', '/artifactory/api/v2/security/permissions/builds-read', ADMIN_BASIC, {
      build: {
        repositories: ['artifactory-build-info'],
        'include-patterns': ['app-build/**'],
        actions: { users: { 'ci-reader': ['read'] } },
      },
    });
    await call('PUT', '/artifactory/api/v2/security/permissions/all-repos', ADMIN_BASIC, {
      repo: { repositories: ['ANY'], actions: { users: { outsider: ['read', 'write'] } } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes build info as the CLI sends it, lists builds and runs, and answers a run with its document', async () => {
    const bad = await call('PUT', '/artifactory/api/build', ADMIN_BASIC, { number: '1', started: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe("name: Build info needs a 'name'.");
    const undated = await call('PUT', '/artifactory/api/build', ADMIN_BASIC, {
      name: 'x',
      number: '1',
      started: 'soon',
    });
    expect(undated.json().errors[0].message).toBe("'started' is no date: soon");
    expect((await call('GET', '/artifactory/api/build/x')).statusCode).toBe(404);
    for (const [number, name, body, started] of [
      ['1', 'app-1.0.jar', 'app one', '2026-11-20T10:00:00.000+0000'],
      ['2', 'app-1.1.jar', 'app two', '2026-11-21T10:00:00.000+0000'],
    ] as const) {
      const res = await call('PUT', '/artifactory/api/build', ADMIN_BASIC, buildInfo(number, { name, body }, started));
      expect(res.statusCode).toBe(204);
    }
    const list = (await call('GET', '/artifactory/api/build')).json() as {
      builds: { uri: string; lastStarted: string }[];
    };
    expect(list.builds).toEqual([{ uri: '/app-build', lastStarted: '2026-11-21T10:00:00.000+0000' }]);
    const runs = (await call('GET', '/artifactory/api/build/app-build')).json() as { buildsNumbers: { uri: string }[] };
    expect(runs.buildsNumbers.map((r) => r.uri)).toEqual(['/2', '/1']);
    const one = (await call('GET', '/artifactory/api/build/app-build/1')).json() as {
      buildInfo: Record<string, unknown>;
      uri: string;
    };
    expect(one.buildInfo).toMatchObject({ name: 'app-build', number: '1', agent: { name: 'jfrog-cli-go' } });
    expect(one.uri).toMatch(/\/artifactory\/api\/build\/app-build\/1$/);
    // stored in the build-info repository, where it can be browsed
    const stored = await call('GET', '/artifactory/api/storage/artifactory-build-info/app-build?list&deep=1');
    expect((stored.json() as { files: { uri: string }[] }).files.map((f) => f.uri)).toHaveLength(2);
    expect((await call('GET', '/artifactory/api/build/app-build/9')).statusCode).toBe(404);
  });

  it('answers the AQL builds domain with the runs the caller may read', async () => {
    const aql = (text: string, headers: Record<string, string> = ADMIN_BASIC) =>
      t.app.inject({
        method: 'POST',
        url: '/artifactory/api/search/aql',
        headers: { ...headers, 'content-type': 'text/plain' },
        payload: text,
      });
    const found = (await aql('builds.find({"name":"app-build","number":{"$gte":"2"}})')).json() as {
      results: Record<string, string>[];
    };
    expect(found.results).toEqual([
      expect.objectContaining({
        'build.name': 'app-build',
        'build.number': '2',
        'build.started': '2026-11-21T10:00:00.000+0000',
        'build.created_by': 'admin',
      }),
    ]);
    const sorted = (
      await aql('builds.find({"build.name":{"$match":"app*"}}).sort({"$asc":["number"]})', reader)
    ).json() as {
      results: Record<string, string>[];
    };
    expect(sorted.results.map((r) => r['build.number'])).toEqual(['1', '2']);
    expect(((await aql('builds.find()', outsider)).json() as { results: unknown[] }).results).toEqual([]);
    expect((await aql('builds.find({"@x":"y"})')).statusCode).toBe(400);
  });

  it('diffs two runs: artifacts new and removed, dependencies unchanged, properties updated', async () => {
    const diff = (await call('GET', '/artifactory/api/build/app-build/2?diff=1')).json() as Record<
      string,
      Record<string, { name?: string; id?: string; key?: string }[]>
    >;
    expect(diff.artifacts!.new!.map((a) => a.name)).toEqual(['app-1.1.jar']);
    expect(diff.artifacts!.removed!.map((a) => a.name)).toEqual(['app-1.0.jar']);
    expect(diff.dependencies!.unchanged!.map((d) => d.id)).toEqual(['lib.jar']);
    expect(diff.properties!.updated!.map((p) => p.key)).toEqual(['buildInfo.env.RUN']);
  });

  it('promotes a run: a dry run changes nothing, a copy lands in the target with the status recorded', async () => {
    const dry = await call('POST', '/artifactory/api/build/promote/app-build/1', ADMIN_BASIC, {
      status: 'released',
      targetRepo: 'libs-release',
      copy: true,
      dryRun: true,
    });
    expect(dry.statusCode).toBe(200);
    expect((dry.json() as { messages: { message: string }[] }).messages[0]!.message).toContain('Would copy');
    expect(await exists('/artifactory/libs-release/org/app/app-1.0.jar')).toBe(false);
    const done = await call('POST', '/artifactory/api/build/promote/app-build/1', ADMIN_BASIC, {
      status: 'released',
      comment: 'ship it',
      ciUser: 'jenkins',
      sourceRepo: 'libs-staging',
      targetRepo: 'libs-release',
      copy: true,
    });
    expect(done.statusCode).toBe(200);
    expect(await exists('/artifactory/libs-release/org/app/app-1.0.jar')).toBe(true);
    expect(await exists('/artifactory/libs-staging/org/app/app-1.0.jar')).toBe(true);
    const statuses = (
      (await call('GET', '/artifactory/api/build/app-build/1')).json() as {
        buildInfo: { statuses: Record<string, string>[] };
      }
    ).buildInfo.statuses;
    expect(statuses).toEqual([
      expect.objectContaining({
        status: 'released',
        comment: 'ship it',
        repository: 'libs-release',
        ciUser: 'jenkins',
        user: 'admin',
      }),
    ]);
  });

  it('promotes dependencies of the scopes asked, sets properties on what it promotes, and changes a status alone', async () => {
    const promote = (body: object) => call('POST', '/artifactory/api/build/promote/app-build/2', ADMIN_BASIC, body);
    const properties = async (url: string) =>
      ((await call('GET', `/artifactory/api/storage/${url}?properties`)).json() as { properties?: object }).properties;
    const scoped = await promote({
      status: 'staged',
      targetRepo: 'libs-release',
      copy: true,
      dependencies: true,
      scopes: ['runtime'],
      properties: { 'release.channel': ['stable'] },
    });
    expect(scoped.statusCode).toBe(200);
    expect(await properties('libs-release/org/app/app-1.1.jar')).toMatchObject({ 'release.channel': ['stable'] });
    // lib.jar is a compile dependency
    expect(await exists('/artifactory/libs-release/lib/lib.jar')).toBe(false);
    await promote({
      status: 'staged',
      targetRepo: 'libs-release',
      copy: true,
      artifacts: false,
      dependencies: true,
      scopes: ['compile'],
    });
    expect(await exists('/artifactory/libs-release/lib/lib.jar')).toBe(true);
    expect(await exists('/artifactory/libs-deps/lib/lib.jar')).toBe(true);

    const tested = await promote({ status: 'tested', sourceRepo: 'libs-staging', properties: { qa: ['passed'] } });
    expect(tested.statusCode).toBe(200);
    expect(await properties('libs-staging/org/app/app-1.1.jar')).toMatchObject({ qa: ['passed'] });
    expect(await properties('libs-release/org/app/app-1.1.jar')).not.toHaveProperty('qa');
    const statuses = (
      (await call('GET', '/artifactory/api/build/app-build/2')).json() as {
        buildInfo: { statuses: Record<string, string>[] };
      }
    ).buildInfo.statuses;
    expect(statuses.map((s) => `${s.status} ${s.repository ?? '-'}`)).toEqual([
      'staged libs-release',
      'staged libs-release',
      'tested -',
    ]);
    // a bad target changes nothing
    const bad = await promote({ status: 'x', targetRepo: 'no-such-repo', properties: { qa: ['failed'] } });
    expect(bad.statusCode).toBe(404);
    expect(await properties('libs-staging/org/app/app-1.1.jar')).toMatchObject({ qa: ['passed'] });
  });

  it("links files to the builds that produced or used them (the artifact's Builds tab)", async () => {
    const builds = (repoKey: string, path: string) =>
      call('GET', `/ui/api/v1/ui/artifactbuilds?repoKey=${repoKey}&path=${path}`, {
        ...ADMIN_BASIC,
        'x-requested-with': 'XMLHttpRequest',
      });
    const produced = (await builds('libs-staging', 'org/app/app-1.0.jar')).json() as {
      producedBy: { name: string; number: string }[];
      usedBy: unknown[];
    };
    expect(produced.producedBy.map((b) => `${b.name}#${b.number}`)).toEqual(['app-build#1']);
    const used = (await builds('libs-deps', 'lib/lib.jar')).json() as { usedBy: { number: string }[] };
    expect(used.usedBy.map((b) => b.number)).toEqual(['2', '1']);
  });

  it('enforces the build resources of permission targets, and no repository grant reaches build info', async () => {
    expect((await call('GET', '/artifactory/api/build/app-build/1', reader)).statusCode).toBe(200);
    const refused = await call(
      'PUT',
      '/artifactory/api/build',
      reader,
      buildInfo('3', { name: 'x.jar', body: 'x' }, '2026-11-22T10:00:00.000+0000'),
    );
    expect(refused.statusCode).toBe(403);
    expect((await call('DELETE', '/artifactory/api/build/app-build?buildNumbers=1', reader)).statusCode).toBe(403);
    // 'ANY' repositories with read and write: no build, no build-info file
    // no build the outsider may read: an empty list, as Artifactory answers it
    const none = await call('GET', '/artifactory/api/build', outsider);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ builds: [] });
    expect((await call('GET', '/artifactory/api/build/app-build/1', outsider)).statusCode).toBe(404);
    const file = (
      await call('GET', '/artifactory/api/storage/artifactory-build-info/app-build?list&deep=1')
    ).json() as {
      files: { uri: string }[];
    };
    expect([403, 404]).toContain(
      (await call('GET', `/artifactory/artifactory-build-info/app-build${file.files[0]!.uri}`, outsider)).statusCode,
    );
    expect(
      (
        await call(
          'PUT',
          '/artifactory/api/build',
          outsider,
          buildInfo('4', { name: 'y.jar', body: 'y' }, '2026-11-22T11:00:00.000+0000'),
        )
      ).statusCode,
    ).toBe(403);
    expect((await call('DELETE', '/artifactory/api/repositories/artifactory-build-info')).statusCode).toBe(409);
  });

  it('renames a build and deletes runs with their artifacts, each an event of the outbox', async () => {
    expect((await call('POST', '/artifactory/api/build/rename/app-build?to=app')).statusCode).toBe(200);
    expect((await call('GET', '/artifactory/api/build/app-build')).statusCode).toBe(404);
    const runs = (await call('GET', '/artifactory/api/build/app')).json() as { buildsNumbers: { uri: string }[] };
    expect(runs.buildsNumbers.map((r) => r.uri)).toEqual(['/2', '/1']);
    expect(
      ((await call('GET', '/artifactory/api/build/app/1')).json() as { buildInfo: { name: string } }).buildInfo.name,
    ).toBe('app');

    const removed = await call('DELETE', '/artifactory/api/build/app?buildNumbers=1&artifacts=1');
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', '/artifactory/api/build/app/1')).statusCode).toBe(404);
    expect(await exists('/artifactory/libs-staging/org/app/app-1.0.jar')).toBe(false);
    expect(await exists('/artifactory/libs-release/org/app/app-1.0.jar')).toBe(false);
    expect(await exists('/artifactory/libs-staging/org/app/app-1.1.jar')).toBe(true);
    const events = await t.app.db
      .selectFrom('events')
      .select('type')
      .where('type', 'like', 'build.%')
      .orderBy('seq')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'build.uploaded',
      'build.uploaded',
      ...Array<string>(4).fill('build.promoted'),
      'build.deleted',
    ]);
  });

  it('publishes a build into a project, lists builds by project and answers the per-project figures', async () => {
    const ui = (url: string) =>
      call('GET', `/ui/api/v1/${url}`, { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' });
    const web = (number: string, started: string) => ({
      ...buildInfo(number, { name: 'web.js', body: 'web' }, started),
      name: 'web-build',
    });
    const unknown = await call(
      'PUT',
      '/artifactory/api/build?project=nope',
      ADMIN_BASIC,
      web('1', '2026-11-22T09:00:00.000+0000'),
    );
    expect(unknown.statusCode).toBe(404);
    expect((await call('GET', '/artifactory/api/build/web-build')).statusCode).toBe(404);

    await call(
      'POST',
      '/ui/api/v1/projects',
      { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' },
      {
        projectKey: 'web',
        displayName: 'Web',
      },
    );
    for (const [number, started] of [
      ['1', '2026-11-22T09:00:00.000+0000'],
      ['2', '2026-11-23T09:00:00.000+0000'],
    ] as const)
      expect(
        (await call('PUT', '/artifactory/api/build?project=web', ADMIN_BASIC, web(number, started))).statusCode,
      ).toBe(204);
    const names = (url: string) => ui(url).then((r) => (r.json() as { name: string }[]).map((b) => b.name));
    expect(await names('ui/builds/names?projectKey=web')).toEqual(['web-build']);
    expect(await names('ui/builds/names?projectKey=default')).toEqual(['app', 'web-build']);
    const rest = (await call('GET', '/artifactory/api/build?project=web')).json() as { builds: { uri: string }[] };
    expect(rest.builds.map((b) => b.uri)).toEqual(['/web-build']);
    expect((await ui('ui/builds/projectInfo')).json()).toEqual([
      { projectKey: 'web', builds: 1, runs: 2, lastStarted: '2026-11-23T09:00:00.000+0000' },
    ]);
    // what the caller may not read is not counted
    expect(
      (
        await call('GET', '/ui/api/v1/ui/builds/projectInfo', { ...reader, 'x-requested-with': 'XMLHttpRequest' })
      ).json(),
    ).toEqual([]);
  });

  it('previews the builds that build patterns of a permission target cover', async () => {
    const preview = (body: object, headers: Record<string, string> = ADMIN_BASIC) =>
      call(
        'POST',
        '/ui/api/v1/ui/permissiontargets/buildPatterns',
        { ...headers, 'x-requested-with': 'XMLHttpRequest' },
        body,
      );
    expect((await preview({ includePatterns: ['**'] })).json()).toEqual(['app', 'web-build']);
    expect((await preview({ includePatterns: ['web-*/**'] })).json()).toEqual(['web-build']);
    expect((await preview({ includePatterns: ['**'], excludePatterns: ['app/**'] })).json()).toEqual(['web-build']);
    expect((await preview({ includePatterns: ['**'] }, reader)).statusCode).toBe(403);
  });
});

describe.each(ENGINES)('build promotion by a user with some rights, on %s', (engine) => {
  let t: TestApp;
  let promoter: Record<string, string>;
  const call = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    headers: Record<string, string> = ADMIN_BASIC,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
  const exists = async (url: string) => (await call('GET', url)).statusCode === 200;
  const statuses = async () =>
    (
      (await call('GET', '/artifactory/api/build/mixed/1')).json() as {
        buildInfo: { statuses?: { status: string }[] };
      }
    ).buildInfo.statuses ?? [];

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const key of ['libs-staging', 'libs-secret', 'libs-release', 'libs-other']) {
      await createRepo(t.app, key, { rclass: 'local' });
    }
    await put(t.app, '/artifactory/libs-staging/org/app/app.jar', 'app');
    await put(t.app, '/artifactory/libs-secret/org/hidden/hidden.jar', 'hidden');
    const published = await call('PUT', '/artifactory/api/build', ADMIN_BASIC, {
      version: '1.0.1',
      name: 'mixed',
      number: '1',
      started: '2026-11-22T10:00:00.000+0000',
      modules: [
        {
          id: 'mixed',
          artifacts: [
            { name: 'app.jar', path: 'org/app/app.jar', ...checksums('app') },
            { name: 'hidden.jar', path: 'org/hidden/hidden.jar', ...checksums('hidden') },
          ],
        },
      ],
    });
    expect(published.statusCode).toBe(204);
    promoter = await createUser(t.app, 'promoter');
    await call('PUT', '/artifactory/api/v2/security/permissions/promoter', ADMIN_BASIC, {
      build: {
        repositories: ['artifactory-build-info'],
        'include-patterns': ['mixed/**'],
        actions: { users: { promoter: ['read', 'annotate'] } },
      },
      repo: {
        repositories: ['libs-staging', 'libs-release'],
        actions: { users: { promoter: ['read', 'write'] } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('considers only files the caller may read, and names no other in its answer', async () => {
    const promote = (body: object) => call('POST', '/artifactory/api/build/promote/mixed/1', promoter, body);
    const dry = await promote({ status: 'released', targetRepo: 'libs-release', copy: true, dryRun: true });
    expect(dry.statusCode).toBe(200);
    const said = JSON.stringify(dry.json());
    expect(said).toContain('Would copy libs-staging/org/app/app.jar to libs-release/org/app/app.jar');
    expect(said).not.toMatch(/libs-secret|hidden/);
    const done = await promote({ status: 'released', targetRepo: 'libs-release', copy: true });
    expect(done.statusCode).toBe(200);
    expect(JSON.stringify(done.json())).not.toMatch(/libs-secret|hidden/);
    expect(await exists('/artifactory/libs-release/org/app/app.jar')).toBe(true);
    expect(await exists('/artifactory/libs-release/org/hidden/hidden.jar')).toBe(false);
    expect(await exists('/artifactory/libs-secret/org/hidden/hidden.jar')).toBe(true);
  });

  it('lists runs that started at the same time by number, highest first', async () => {
    for (const number of ['9', '10', '2']) {
      const published = await call('PUT', '/artifactory/api/build', ADMIN_BASIC, {
        version: '1.0.1',
        name: 'same-time',
        number,
        started: '2026-11-22T10:00:00.000+0000',
        modules: [],
      });
      expect(published.statusCode).toBe(204);
    }
    const history = (await call('GET', '/ui/api/v1/ui/builds/history/same-time')).json() as { number: string }[];
    expect(history.map((r) => r.number)).toEqual(['10', '9', '2']);
  });

  it('records a status on a target only with the deploy right there', async () => {
    const before = await statuses();
    // nothing to copy (artifacts: false): only the status would be recorded on the target
    const refused = await call('POST', '/artifactory/api/build/promote/mixed/1', promoter, {
      status: 'shipped',
      targetRepo: 'libs-other',
      artifacts: false,
    });
    expect([403, 404]).toContain(refused.statusCode);
    expect(await statuses()).toEqual(before);
    const allowed = await call('POST', '/artifactory/api/build/promote/mixed/1', promoter, {
      status: 'shipped',
      targetRepo: 'libs-release',
      artifacts: false,
    });
    expect(allowed.statusCode).toBe(200);
    expect((await statuses()).map((s) => s.status)).toContain('shipped');
  });
});

describe.each(ENGINES)('AQL across items and builds on %s', (engine) => {
  let t: TestApp;
  let dev: Record<string, string>;
  const aql = (text: string, headers: Record<string, string> = ADMIN_BASIC) =>
    t.app.inject({
      method: 'POST',
      url: '/artifactory/api/search/aql',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: text,
    });
  const results = async (text: string, headers?: Record<string, string>) => {
    const res = await aql(text, headers);
    expect(res.statusCode).toBe(200);
    return (res.json() as { results: Record<string, unknown>[] }).results;
  };
  const publish = (name: string, number: string, artifacts: string[], dependencies: string[]) =>
    t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/build',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify({
        version: '1.0.1',
        name,
        number,
        started: `2026-11-2${number}T10:00:00.000+0000`,
        modules: [
          {
            id: `${name}-module`,
            artifacts: artifacts.map((body) => ({ name: `${body}.jar`, type: 'jar', ...checksums(body) })),
            dependencies: dependencies.map((body) => ({ id: `${body}.jar`, type: 'jar', ...checksums(body) })),
          },
        ],
      }),
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    for (const key of ['libs', 'secret']) await createRepo(t.app, key, { rclass: 'local' });
    await put(t.app, '/artifactory/libs/app/app.jar', 'app');
    await put(t.app, '/artifactory/libs/lib/lib.jar', 'lib');
    await put(t.app, '/artifactory/secret/tool/tool.jar', 'tool');
    expect((await publish('app', '1', ['app'], ['lib', 'tool'])).statusCode).toBe(204);
    expect((await publish('hidden', '2', ['tool'], ['lib'])).statusCode).toBe(204);
    dev = await createUser(t.app, 'dev');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/dev',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify({
        repo: { repositories: ['libs'], actions: { users: { dev: ['read'] } } },
        build: {
          repositories: ['artifactory-build-info'],
          'include-patterns': ['app/**'],
          actions: { users: { dev: ['read'] } },
        },
      }),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds the artifacts and dependencies of a build, and the builds of an artifact', async () => {
    const artifacts = await results(
      'items.find({"artifact.module.build.name":"app","artifact.module.build.number":"1"})',
    );
    expect(artifacts.map((r) => r.name)).toEqual(['app.jar']);
    const dependencies = await results('items.find({"dependency.module.build.name":"app"}).include("name","repo")');
    expect(dependencies.map((r) => `${r.repo}/${r.name}`).sort()).toEqual(['libs/lib.jar', 'secret/tool.jar']);
    // one build file must meet both: no artifact of app is numbered 2
    expect(
      await results('items.find({"artifact.module.build.name":"app","artifact.module.build.number":"2"})'),
    ).toEqual([]);
    const withBuilds = await results(
      'items.find({"name":"lib.jar"}).include("name","dependency.module.build.name","dependency.module.build.number")',
    );
    expect(withBuilds).toEqual([
      {
        name: 'lib.jar',
        dependencies: [
          {
            modules: [
              { builds: [{ 'build.name': 'app', 'build.number': '1' }] },
              { builds: [{ 'build.name': 'hidden', 'build.number': '2' }] },
            ],
          },
        ],
      },
    ]);
    const builds = await results('builds.find({"module.artifact.item.name":"app.jar"}).include("name","number")');
    expect(builds.map((b) => b['build.name'])).toEqual(['app']);
    const items = await results(
      'builds.find({"name":"app"}).include("name","module.artifact.item.name","module.dependency.item.repo","module.dependency.item.name")',
    );
    expect(items).toEqual([
      expect.objectContaining({
        'build.name': 'app',
        modules: [
          {
            artifacts: [{ items: [{ name: 'app.jar' }] }],
            dependencies: [
              {
                items: [
                  { repo: 'libs', name: 'lib.jar' },
                  { repo: 'secret', name: 'tool.jar' },
                ],
              },
            ],
          },
        ],
      }),
    ]);
  });

  it('reaches only builds and items the caller may read', async () => {
    // dev reads build 'app' and repository 'libs', neither 'hidden' nor 'secret'
    const deps = await results(
      'items.find({"dependency.module.build.name":{"$match":"*"}}).include("name","dependency.module.build.name")',
      dev,
    );
    expect(deps).toEqual([{ name: 'lib.jar', dependencies: [{ modules: [{ builds: [{ 'build.name': 'app' }] }] }] }]);
    expect(await results('items.find({"artifact.module.build.name":"hidden"})', dev)).toEqual([]);
    const builds = await results('builds.find({"module.dependency.item.name":"tool.jar"})', dev);
    expect(builds).toEqual([]);
    const items = await results('builds.find({"name":"app"}).include("name","module.dependency.item.name")', dev);
    expect(items).toEqual([
      expect.objectContaining({ modules: [{ dependencies: [{ items: [{ name: 'lib.jar' }] }] }] }),
    ]);
  });
});
