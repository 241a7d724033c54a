import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_MESSAGES, RELEASE_BUNDLE_MESSAGES, formatMessage } from '@arca/contracts';
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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const fill = formatMessage;
const LIFECYCLE = '/lifecycle/api/v2';

interface Version {
  release_bundle_version: string;
  artifact_count: number;
  source_type: string;
  environments: string[];
  current_environment: string | null;
}

describe.each(ENGINES)('release bundles on %s', (engine) => {
  let t: TestApp;
  let signer: Record<string, string>;
  const json = { ...ADMIN_BASIC, 'content-type': 'application/json' };
  const call = (method: string, url: string, payload?: unknown, headers: Record<string, string> = json) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const create = (body: Record<string, unknown>, headers: Record<string, string> = signer) =>
    call('POST', `${LIFECYCLE}/release_bundle`, body, headers);
  const message = (res: { json: () => unknown }) =>
    (res.json() as { errors: { message: string }[] }).errors[0]!.message;
  const manifestOf = async (name: string, version: string) =>
    t.app.inject({ url: `/artifactory/release-bundles/${name}/${version}/release-bundle.json`, headers: ADMIN_BASIC });

  beforeAll(async () => {
    t = await startTestApp(engine);
    const admin = { ...XHR, cookie: (await login(t.app)).cookie, 'content-type': 'application/json' };
    for (const [pairName, pairType] of [
      ['release-gpg', 'GPG'],
      ['release-rsa', 'RSA'],
    ])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/ui/api/v1/ui/security/keyPairs',
            headers: admin,
            payload: { pairName, pairType, alias: `${pairName}@example.org` },
          })
        ).statusCode,
      ).toBe(201);
    signer = { ...json, 'x-jfrog-signing-key-name': 'release-gpg' };
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
    await createRepo(t.app, 'maven-libs', { rclass: 'local', packageType: 'maven' });
    for (const name of ['dev-local', 'qa-local', 'prod-local'])
      await createRepo(t.app, name, { rclass: 'local', packageType: 'generic' });
    for (const [path, body] of [
      ['app/app-1.0.jar', 'the app'],
      ['app/README.txt', 'read me'],
      ['app/conf/settings.yaml', 'settings'],
      ['other/tool.bin', 'a tool'],
    ] as const)
      expect((await put(t.app, `/artifactory/libs/${path}`, body)).statusCode).toBe(201);
    await put(
      t.app,
      '/artifactory/maven-libs/org/acme/core/2.0/core-2.0.pom',
      '<project><groupId>org.acme</groupId><artifactId>core</artifactId><version>2.0</version></project>',
    );
    await put(t.app, '/artifactory/maven-libs/org/acme/core/2.0/core-2.0.jar', 'core jar');
    await put(t.app, '/artifactory/libs/free/x.txt', 'free');
    await t.services.catalogueIndexer.drain();
    const build = await call('PUT', '/artifactory/api/build', {
      version: '1.0.1',
      name: 'app-build',
      number: '7',
      started: '2026-11-20T10:00:00.000+0000',
      modules: [
        {
          id: 'app',
          artifacts: [
            { type: 'jar', name: 'app-1.0.jar', sha1: sha1('the app'), sha256: sha256('the app'), md5: md5('the app') },
          ],
          dependencies: [
            { id: 'tool', type: 'bin', sha1: sha1('a tool'), sha256: sha256('a tool'), md5: md5('a tool') },
          ],
        },
      ],
    });
    expect(build.statusCode).toBe(204);
  });
  afterAll(() => t?.close());

  it('makes versions from artifacts, an AQL query, a build, another bundle and a package, each signed and verifiable', async () => {
    const fromArtifacts = await create({
      release_bundle_name: 'web',
      release_bundle_version: '1.0.0',
      description: 'the first release',
      source_type: 'artifacts',
      source: {
        artifacts: [{ path: 'libs/app/app-1.0.jar', sha256: sha256('the app') }, { path: 'libs/app/README.txt' }],
      },
    });
    expect(fromArtifacts.statusCode).toBe(201);
    expect(fromArtifacts.json()).toMatchObject({
      repository_key: 'release-bundles',
      release_bundle_name: 'web',
      release_bundle_version: '1.0.0',
    });
    const fromAql = await create(
      {
        release_bundle_name: 'web',
        release_bundle_version: '1.1.0',
        source_type: 'aql',
        source: { aql: 'items.find({"repo":"libs","path":{"$match":"app*"}})' },
      },
      { ...json, 'x-jfrog-signing-key-name': 'release-rsa' },
    );
    expect(fromAql.statusCode).toBe(201);
    const fromBuild = await create({
      release_bundle_name: 'web',
      release_bundle_version: '2.0.0',
      source_type: 'builds',
      source: { builds: [{ build_name: 'app-build', build_number: '7', include_dependencies: true }] },
    });
    expect(fromBuild.statusCode).toBe(201);
    const fromBundle = await create({
      release_bundle_name: 'platform',
      release_bundle_version: '1',
      sources: [
        {
          source_type: 'release_bundles',
          release_bundles: [{ release_bundle_name: 'web', release_bundle_version: '1.0.0' }],
        },
        {
          source_type: 'packages',
          packages: [
            {
              package_type: 'maven',
              package_name: 'org.acme:core',
              package_version: '2.0',
              repository_key: 'maven-libs',
            },
          ],
        },
      ],
    });
    expect(fromBundle.statusCode, fromBundle.body).toBe(201);

    const versions = (await call('GET', `${LIFECYCLE}/release_bundle/records/web`)).json() as {
      release_bundles: Version[];
      total: number;
    };
    expect(versions.total).toBe(3);
    expect(versions.release_bundles.map((v) => [v.release_bundle_version, v.artifact_count, v.source_type])).toEqual([
      ['2.0.0', 2, 'builds'],
      ['1.1.0', 3, 'aql'],
      ['1.0.0', 2, 'artifacts'],
    ]);
    const content = async (name: string, version: string) =>
      (
        (await call('GET', `${LIFECYCLE}/release_bundle/records/${name}/${version}/content`)).json() as {
          artifacts: { repository_key: string; path: string; sha256: string; source: string }[];
        }
      ).artifacts;
    expect((await content('web', '2.0.0')).map((a) => `${a.repository_key}/${a.path} ${a.source}`)).toEqual([
      'libs/app/app-1.0.jar build app-build/7',
      'libs/other/tool.bin build app-build/7',
    ]);
    expect((await content('web', '1.1.0')).map((a) => a.path)).toEqual([
      'app/README.txt',
      'app/app-1.0.jar',
      'app/conf/settings.yaml',
    ]);
    const platform = await content('platform', '1');
    expect(platform.map((a) => `${a.repository_key}/${a.path}`)).toEqual([
      'libs/app/README.txt',
      'libs/app/app-1.0.jar',
      'maven-libs/org/acme/core/2.0/core-2.0.jar',
      'maven-libs/org/acme/core/2.0/core-2.0.pom',
    ]);
    expect(platform[1]!.sha256).toBe(sha256('the app'));

    // the manifest is stored, lists every path with its SHA-256, and verifies with either kind of key
    const manifest = (await manifestOf('web', '1.1.0')).json() as { artifacts: { path: string; sha256: string }[] };
    expect(manifest.artifacts).toContainEqual(
      expect.objectContaining({ path: 'app/app-1.0.jar', sha256: sha256('the app') }),
    );
    for (const version of ['1.0.0', '1.1.0', '2.0.0']) {
      const verified = (await call('GET', `${LIFECYCLE}/release_bundle/records/web/${version}/verify`)).json();
      expect(verified).toMatchObject({ verified: true, signature: 'valid', message: RELEASE_BUNDLE_MESSAGES.verified });
    }
    const names = (await call('GET', `${LIFECYCLE}/release_bundle/names`)).json() as {
      release_bundles: { release_bundle_name: string; release_bundle_version_latest: string; versions: number }[];
    };
    expect(
      names.release_bundles.map((b) => [b.release_bundle_name, b.release_bundle_version_latest, b.versions]),
    ).toEqual([
      ['platform', '1', 1],
      ['web', '2.0.0', 3],
    ]);
    // an artifact's release bundles (the console's artifact tab)
    const holding = (
      await call('GET', `/ui/api/v1/distribution/api/ui/release_bundle/checksum/${sha256('the app')}?num_of_rows=10`)
    ).json() as { release_bundles: { name: string; version: string }[] };
    expect(holding.release_bundles.map((b) => `${b.name} ${b.version}`).sort()).toEqual([
      'platform 1',
      'web 1.0.0',
      'web 1.1.0',
      'web 2.0.0',
    ]);
  });

  it('refuses what is wrong with the spec of a bundle, and leaves nothing behind', async () => {
    const base = { release_bundle_name: 'broken', release_bundle_version: '1.0' };
    const artifacts = (list: unknown[]) => ({ ...base, source_type: 'artifacts', source: { artifacts: list } });
    const cases: [Record<string, unknown>, Record<string, string>, number, string][] = [
      [
        { ...artifacts([{ path: 'libs/app/app-1.0.jar' }]), release_bundle_name: '-bad' },
        signer,
        400,
        RELEASE_BUNDLE_MESSAGES.nameFormat,
      ],
      [artifacts([{ path: 'libs/app/app-1.0.jar' }]), json, 400, RELEASE_BUNDLE_MESSAGES.signingKeyMissing],
      [
        artifacts([{ path: 'libs/app/app-1.0.jar' }]),
        { ...json, 'x-jfrog-signing-key-name': 'nope' },
        404,
        fill(RELEASE_BUNDLE_MESSAGES.signingKeyNotFound, { name: 'nope' }),
      ],
      [
        artifacts([{ path: 'libs/free/x.txt' }, { path: 'libs/app/missing.jar' }]),
        signer,
        404,
        fill(RELEASE_BUNDLE_MESSAGES.artifactNotFound, { path: 'libs/app/missing.jar' }),
      ],
      [
        artifacts([{ path: 'libs/app/app-1.0.jar', sha256: sha256('other') }]),
        signer,
        409,
        fill(RELEASE_BUNDLE_MESSAGES.checksumMismatch, {
          path: 'libs/app/app-1.0.jar',
          expected: sha256('other'),
          actual: sha256('the app'),
        }),
      ],
      [
        { ...base, source_type: 'aql', source: { aql: 'items.find({"repo":"nothing-here"})' } },
        signer,
        400,
        RELEASE_BUNDLE_MESSAGES.empty,
      ],
      [
        { ...base, source_type: 'aql', source: { aql: 'builds.find({})' } },
        signer,
        400,
        RELEASE_BUNDLE_MESSAGES.aqlItemsOnly,
      ],
      [
        { ...base, source_type: 'builds', source: { builds: [{ build_name: 'app-build', build_number: '8' }] } },
        signer,
        404,
        fill(RELEASE_BUNDLE_MESSAGES.buildNotFound, { name: 'app-build', number: '8' }),
      ],
      [
        { ...base, source_type: 'builds' },
        signer,
        400,
        `source.builds: ${fill(RELEASE_BUNDLE_MESSAGES.sourceMissing, { type: 'builds' })}`,
      ],
    ];
    for (const [body, headers, status, text] of cases) {
      const res = await create(body, headers);
      expect([res.statusCode, message(res)], JSON.stringify(body)).toEqual([status, expect.stringContaining(text)]);
    }
    const duplicate = await create({
      release_bundle_name: 'web',
      release_bundle_version: '1.0.0',
      source_type: 'artifacts',
      source: { artifacts: [{ path: 'libs/other/tool.bin' }] },
    });
    expect([duplicate.statusCode, message(duplicate)]).toEqual([
      409,
      fill(RELEASE_BUNDLE_MESSAGES.exists, { name: 'web', version: '1.0.0' }),
    ]);
    // nothing of the refused bundles exists: no version, no manifest, no hold on its files
    expect((await call('GET', `${LIFECYCLE}/release_bundle/records/broken`)).statusCode).toBe(404);
    expect((await manifestOf('broken', '1.0')).statusCode).toBe(404);
    expect((await put(t.app, '/artifactory/libs/free/x.txt', 'free, changed')).statusCode).toBe(201);
  });

  it("keeps a version's artifacts as they are until the version is deleted", async () => {
    const body = {
      release_bundle_name: 'locked',
      release_bundle_version: '1',
      source_type: 'artifacts',
      source: { artifacts: [{ path: 'libs/app/conf/settings.yaml' }] },
    };
    expect((await create(body)).statusCode).toBe(201);
    const held = fill(ARTIFACT_MESSAGES.held, {
      path: 'libs/app/conf/settings.yaml',
      holder: 'release bundle web 1.1.0',
    });
    const heldByThis = (res: { statusCode: number; json: () => unknown }) => {
      expect(res.statusCode).toBe(409);
      expect(message(res)).toMatch(
        /^'libs\/app\/conf\/settings.yaml' is part of release bundle (web 1\.1\.0|locked 1) and cannot be deleted, moved or overwritten\.$/,
      );
    };
    expect(held).toContain('cannot be deleted');
    heldByThis(await call('DELETE', '/artifactory/libs/app/conf/settings.yaml'));
    heldByThis(await call('DELETE', '/artifactory/libs/app/conf'));
    heldByThis(await put(t.app, '/artifactory/libs/app/conf/settings.yaml', 'changed'));
    heldByThis(await call('POST', '/artifactory/api/move/libs/app/conf/settings.yaml?to=/libs/moved.yaml'));
    // the same content again changes nothing, and a copy of it elsewhere is free
    expect((await put(t.app, '/artifactory/libs/app/conf/settings.yaml', 'settings')).statusCode).toBe(201);
    expect(
      (await call('POST', '/artifactory/api/copy/libs/app/conf/settings.yaml?to=/libs/copied.yaml')).statusCode,
    ).toBe(200);
    expect((await call('DELETE', '/artifactory/libs/copied.yaml')).statusCode).toBe(204);
    // the manifest itself is held too
    const manifestDelete = await call('DELETE', '/artifactory/release-bundles/locked/1/release-bundle.json');
    expect([manifestDelete.statusCode, message(manifestDelete)]).toEqual([
      409,
      fill(ARTIFACT_MESSAGES.held, {
        path: 'release-bundles/locked/1/release-bundle.json',
        holder: 'release bundle locked 1',
      }),
    ]);
    // a repository holding bundled files is not deleted
    const repoDelete = await call('DELETE', '/artifactory/api/repositories/libs');
    expect(repoDelete.statusCode).toBe(409);
    expect(message(repoDelete)).toMatch(
      /^The repository 'libs' holds artifacts of release bundle .+: delete that first\.$/,
    );

    expect((await call('DELETE', `${LIFECYCLE}/release_bundle/records/locked/1`)).statusCode).toBe(204);
    expect((await call('GET', `${LIFECYCLE}/release_bundle/records/locked/1`)).statusCode).toBe(404);
    expect((await manifestOf('locked', '1')).statusCode).toBe(404);
    // still held by web 1.1.0 (made from the same file), free once that goes too
    const stillHeld = await call('DELETE', '/artifactory/libs/app/conf/settings.yaml');
    expect([stillHeld.statusCode, message(stillHeld)]).toEqual([409, held]);
  });

  it('leaves the files a version holds where they are when a retention policy archives their repository', async () => {
    await createRepo(t.app, 'retained', { rclass: 'local', packageType: 'generic' });
    for (const name of ['a', 'b', 'c'])
      expect((await put(t.app, `/artifactory/retained/${name}.bin`, `binary ${name}`)).statusCode).toBe(201);
    const kept = await create({
      release_bundle_name: 'kept',
      release_bundle_version: '1',
      source_type: 'artifacts',
      source: { artifacts: [{ path: 'retained/a.bin' }, { path: 'retained/b.bin' }] },
    });
    expect(kept.statusCode, kept.body).toBe(201);
    const admin = { ...XHR, cookie: (await login(t.app)).cookie, 'content-type': 'application/json' };
    const retention = (method: string, url: string, payload?: unknown) =>
      call(method, `/ui/api/v1/ui/retention${url}`, payload, admin);
    const policy = {
      key: 'old-retained',
      description: 'every binary of retained',
      cronExp: '0 0 3 * * ?',
      enabled: true,
      skipTrashcan: true,
      searchCriteriaForm: {
        include: { operator: 'and', repositories: ['retained'], paths: [], names: ['*.bin'], properties: [] },
        exclude: { operator: 'or', repositories: [], paths: [], names: [], properties: [] },
        createdBefore: null,
        downloadedBefore: null,
      },
    };
    const preview = async () =>
      (
        (await retention('POST', '/archive/policies/preview?offset=0&limit=100', policy)).json() as {
          items: { path: string }[];
        }
      ).items
        .map((i) => i.path)
        .sort();
    expect(await preview()).toEqual(['c.bin']);
    expect((await retention('POST', '/archive/policies', policy)).statusCode).toBe(201);
    const triggered = await retention('POST', '/archive/policies/old-retained/trigger');
    const id = (triggered.json() as { migrationIdentifier: string }).migrationIdentifier;
    await expect
      .poll(
        async () => {
          const runs = (await retention('GET', `/archive/executions?from=0&to=${Date.now() + 60_000}`)).json() as {
            executions: { migrationIdentifier: string; endedAt: number | null; done: number }[];
          };
          const run = runs.executions.find((e) => e.migrationIdentifier === id);
          return run?.endedAt ? run.done : undefined;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(1);
    expect((await t.app.inject({ url: '/artifactory/retained/a.bin', headers: ADMIN_BASIC })).body).toBe('binary a');
    expect((await t.app.inject({ url: '/artifactory/retained/b.bin', headers: ADMIN_BASIC })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/artifactory/retained/c.bin', headers: ADMIN_BASIC })).statusCode).toBe(404);
    expect((await call('GET', `${LIFECYCLE}/release_bundle/records/kept/1/verify`)).json()).toMatchObject({
      verified: true,
    });
    // once the version is gone, its files are the policy's like any other
    expect((await call('DELETE', `${LIFECYCLE}/release_bundle/records/kept/1`)).statusCode).toBe(204);
    expect(await preview()).toEqual(['a.bin', 'b.bin']);
  });

  it('detects a manifest changed after it was signed, and artifacts changed behind its back', async () => {
    expect(
      (
        await create({
          release_bundle_name: 'audited',
          release_bundle_version: '1',
          source_type: 'artifacts',
          source: { artifacts: [{ path: 'libs/app/README.txt' }] },
        })
      ).statusCode,
    ).toBe(201);
    const verify = async () =>
      (await call('GET', `${LIFECYCLE}/release_bundle/records/audited/1/verify`)).json() as {
        verified: boolean;
        signature: string;
        message: string;
        artifacts_failed: { path: string; reason: string }[];
      };
    expect((await verify()).verified).toBe(true);
    // someone with access to the storage points the README at other bytes
    await put(t.app, '/artifactory/libs/elsewhere.txt', 'forged');
    await t.app.db
      .updateTable('items')
      .set({ sha256: sha256('forged') })
      .where('repo_key', '=', 'libs')
      .where('path', '=', 'app/README.txt')
      .execute();
    const changed = await verify();
    expect(changed).toMatchObject({
      verified: false,
      signature: 'valid',
      message: fill(RELEASE_BUNDLE_MESSAGES.artifactsChanged, { count: '1' }),
    });
    expect(changed.artifacts_failed).toEqual([
      { path: 'libs/app/README.txt', reason: `SHA-256 is now ${sha256('forged')}` },
    ]);
    // and the manifest itself, replaced by one that lists the forged bytes
    const manifest = (await manifestOf('audited', '1')).json() as { artifacts: { sha256: string }[] };
    manifest.artifacts[0]!.sha256 = sha256('forged');
    const forged = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await put(t.app, '/artifactory/libs/forged-manifest.json', forged);
    await t.app.db
      .updateTable('items')
      .set({ sha256: createHash('sha256').update(forged).digest('hex'), size: forged.length })
      .where('repo_key', '=', 'release-bundles')
      .where('path', '=', 'audited/1/release-bundle.json')
      .execute();
    expect(await verify()).toMatchObject({
      verified: false,
      signature: 'invalid',
      message: RELEASE_BUNDLE_MESSAGES.tamperedManifest,
    });
  });

  it('gives release managers the bundles their permission targets name, and nothing else', async () => {
    const manager = await createUser(t.app, 'release-manager');
    const reader = await createUser(t.app, 'bundle-reader');
    const target = await call('PUT', '/artifactory/api/v2/security/permissions/releases', {
      name: 'releases',
      repo: {
        repositories: ['libs'],
        actions: { users: { 'release-manager': ['read'], 'bundle-reader': ['read'] } },
      },
      releaseBundle: {
        repositories: ['release-bundles'],
        'include-patterns': ['mobile-*/**'],
        actions: { users: { 'release-manager': ['read', 'write', 'delete'], 'bundle-reader': ['read'] } },
      },
    });
    expect(target.statusCode, target.body).toBeLessThan(300);
    const body = (name: string) => ({
      release_bundle_name: name,
      release_bundle_version: '1',
      signing_key: 'release-gpg',
      source_type: 'artifacts',
      source: { artifacts: [{ path: 'libs/app/app-1.0.jar' }] },
    });
    const asManager = { ...manager, 'content-type': 'application/json' };
    expect((await create(body('mobile-app'), asManager)).statusCode).toBe(201);
    const refused = await create(body('desktop-app'), asManager);
    expect(refused.statusCode, refused.body).toBe(403);
    expect([refused.statusCode, message(refused)]).toEqual([
      403,
      "You do not have deploy permission on 'release-bundles/desktop-app/1'.",
    ]);
    expect((await create(body('mobile-web'), { ...reader, 'content-type': 'application/json' })).statusCode).toBe(403);
    expect((await call('GET', `${LIFECYCLE}/release_bundle/records/mobile-app/1`, undefined, reader)).statusCode).toBe(
      200,
    );
    expect((await call('GET', `${LIFECYCLE}/release_bundle/records/web/1.0.0`, undefined, reader)).statusCode).toBe(
      404,
    );
    const visible = (await call('GET', `${LIFECYCLE}/release_bundle/names`, undefined, reader)).json() as {
      release_bundles: { release_bundle_name: string }[];
    };
    expect(visible.release_bundles.map((b) => b.release_bundle_name)).toEqual(['mobile-app']);
    expect(
      (await call('DELETE', `${LIFECYCLE}/release_bundle/records/mobile-app/1`, undefined, reader)).statusCode,
    ).toBe(403);
    expect(
      (await call('DELETE', `${LIFECYCLE}/release_bundle/records/mobile-app/1`, undefined, manager)).statusCode,
    ).toBe(204);
  });

  it('promotes a version through DEV, QA and PROD, recording each promotion and refusing what rights and environments forbid', async () => {
    const environments = (await call('GET', '/access/api/v1/environments')).json() as { name: string }[];
    expect(environments.map((e) => e.name)).toEqual(['DEV', 'QA', 'PROD']);
    const promote = (environment: string, query = '', headers = json, extra: Record<string, unknown> = {}) =>
      call('POST', `${LIFECYCLE}/promotion/records/web/1.0.0${query}`, { environment, ...extra }, headers);
    // an environment needs repositories first
    const empty = await promote('DEV');
    expect([empty.statusCode, message(empty)]).toEqual([
      400,
      fill(RELEASE_BUNDLE_MESSAGES.environmentEmpty, { name: 'DEV' }),
    ]);
    const unknown = await promote('STAGING');
    expect([unknown.statusCode, message(unknown)]).toEqual([
      404,
      fill(RELEASE_BUNDLE_MESSAGES.environmentNotFound, { name: 'STAGING' }),
    ]);
    for (const [name, repo] of [
      ['DEV', 'dev-local'],
      ['QA', 'qa-local'],
      ['PROD', 'prod-local'],
    ])
      expect(
        (await call('PUT', `/access/api/v1/environments/${name}`, { description: name, repositories: [repo] }))
          .statusCode,
      ).toBe(200);
    const notLocal = await call('PUT', '/access/api/v1/environments/QA', { repositories: ['release-nope'] });
    expect([notLocal.statusCode, message(notLocal)]).toEqual([
      400,
      fill(RELEASE_BUNDLE_MESSAGES.notLocalRepository, { key: 'release-nope' }),
    ]);

    const dev = await promote('DEV');
    expect(dev.statusCode, dev.body).toBe(200);
    expect(dev.json()).toMatchObject({ environment: 'DEV', included_repository_keys: ['dev-local'] });
    const copied = await t.app.inject({
      url: '/artifactory/api/storage/dev-local/app/app-1.0.jar?properties',
      headers: ADMIN_BASIC,
    });
    expect(copied.json().properties).toMatchObject({
      'release-bundle.name': ['web'],
      'release-bundle.version': ['1.0.0'],
      'release-bundle.environment': ['DEV'],
    });

    // a user who may deploy to QA but not to PROD promotes to QA only
    const qaUser = await createUser(t.app, 'qa-lead');
    await call('PUT', '/artifactory/api/v2/security/permissions/qa', {
      name: 'qa',
      repo: { repositories: ['qa-local'], actions: { users: { 'qa-lead': ['read', 'write'] } } },
      releaseBundle: {
        repositories: ['release-bundles'],
        actions: { users: { 'qa-lead': ['read', 'write'] } },
      },
    });
    const asQa = { ...qaUser, 'content-type': 'application/json' };
    expect((await promote('QA', '', asQa)).statusCode).toBe(200);
    const forbidden = await promote('PROD', '', asQa);
    expect([forbidden.statusCode, message(forbidden)]).toEqual([
      403,
      "You do not have deploy permission on 'prod-local/app/README.txt'.",
    ]);
    // other content where the bundle's file would go: refused, recorded as failed, nothing left copied
    await put(t.app, '/artifactory/prod-local/app/app-1.0.jar', 'an older app');
    const conflicting = await promote('PROD', '?operation=move');
    expect([conflicting.statusCode, message(conflicting)]).toEqual([
      409,
      fill(RELEASE_BUNDLE_MESSAGES.promotionConflict, { path: 'prod-local/app/app-1.0.jar' }),
    ]);
    expect(
      (await t.app.inject({ url: '/artifactory/prod-local/app/README.txt', headers: ADMIN_BASIC })).statusCode,
    ).toBe(404);
    // with overwrite it goes through; the move takes the QA copies away
    const prod = await promote('PROD', '?operation=move', json, { overwrite_existing_artifacts: true });
    expect(prod.statusCode, prod.body).toBe(200);
    expect((await t.app.inject({ url: '/artifactory/prod-local/app/app-1.0.jar', headers: ADMIN_BASIC })).body).toBe(
      'the app',
    );
    expect(
      (await t.app.inject({ url: '/artifactory/qa-local/app/app-1.0.jar', headers: ADMIN_BASIC })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: '/artifactory/dev-local/app/app-1.0.jar', headers: ADMIN_BASIC })).statusCode,
    ).toBe(200);

    const records = (await call('GET', `${LIFECYCLE}/promotion/records/web/1.0.0`)).json() as {
      promotions: {
        environment: string;
        status: string;
        created_by: string;
        operation: string;
        messages: { text: string }[];
      }[];
    };
    expect(records.promotions.map((p) => [p.environment, p.status, p.created_by, p.operation])).toEqual([
      ['PROD', 'COMPLETED', 'admin', 'move'],
      ['PROD', 'FAILED', 'admin', 'move'],
      ['QA', 'COMPLETED', 'qa-lead', 'copy'],
      ['DEV', 'COMPLETED', 'admin', 'copy'],
    ]);
    expect(records.promotions[1]!.messages[0]!.text).toBe(
      fill(RELEASE_BUNDLE_MESSAGES.promotionConflict, { path: 'prod-local/app/app-1.0.jar' }),
    );
    const version = (await call('GET', `${LIFECYCLE}/release_bundle/records/web/1.0.0`)).json() as Version;
    expect([version.environments, version.current_environment]).toEqual([['DEV', 'QA', 'PROD'], 'PROD']);
    // an environment with promotion records stays
    const keep = await call('DELETE', '/access/api/v1/environments/QA');
    expect([keep.statusCode, message(keep)]).toEqual([
      409,
      fill(RELEASE_BUNDLE_MESSAGES.environmentInUse, { name: 'QA' }),
    ]);
    const extra = await call('POST', '/access/api/v1/environments', { name: 'STAGING', repositories: [] });
    expect(extra.statusCode).toBe(201);
    expect((await call('DELETE', '/access/api/v1/environments/STAGING')).statusCode).toBe(204);
  });
});
