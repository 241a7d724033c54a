import { createHash } from 'node:crypto';
import { AUTH_MESSAGES } from '@arca/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  changeSecuritySettings,
  createRepo,
  createUser,
  repositoryFiles,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const digestOf = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

describe.each(ENGINES)('the container registry on %s', (engine) => {
  let t: TestApp;
  let token: string;
  const auth = () => ({ authorization: `Bearer ${token}` });
  const call = (method: string, url: string, payload?: Buffer | string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...auth(), ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });
  const code = (res: { json: () => unknown }) => (res.json() as { errors: { code: string }[] }).errors[0]!.code;

  async function pushBlob(image: string, data: string) {
    const res = await call('POST', `/v2/docker-local/${image}/blobs/uploads/?digest=${digestOf(data)}`, data, {
      'content-type': 'application/octet-stream',
    });
    expect(res.statusCode).toBe(201);
    return { digest: digestOf(data), size: Buffer.byteLength(data) };
  }

  function imageManifest(config: { digest: string; size: number }, layers: { digest: string; size: number }[]) {
    return JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: layers.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...l })),
    });
  }

  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
    const res = await t.app.inject({ method: 'GET', url: '/v2/token?service=arca&scope=x', headers: ADMIN_BASIC });
    token = (res.json() as { token: string }).token;
  });
  afterEach(async () => {
    await t.close();
  });

  it('asks for a token with the Bearer challenge, and takes a password or an access token for one', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/v2/' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer realm="http:\/\/[^"]+\/v2\/token",service="[^"]+"$/);
    expect(anonymous.headers['docker-distribution-api-version']).toBe('registry/2.0');
    expect(code(anonymous)).toBe('UNAUTHORIZED');
    const scoped = await t.app.inject({ method: 'GET', url: '/v2/docker-local/team/app/manifests/1.0' });
    expect(scoped.headers['www-authenticate']).toContain('scope="repository:docker-local/team/app:pull"');

    expect((await call('GET', '/v2/')).statusCode).toBe(200);
    // a token answered for an access token given as the password, as docker login sends it
    const access = await t.app.inject({
      method: 'POST',
      url: '/access/api/v1/tokens',
      headers: ADMIN_BASIC,
      payload: { description: 'ci' },
    });
    const accessToken = (access.json() as { access_token: string }).access_token;
    const viaToken = await t.app.inject({
      method: 'GET',
      url: '/v2/token',
      headers: { authorization: `Basic ${Buffer.from(`admin:${accessToken}`).toString('base64')}` },
    });
    expect(viaToken.statusCode).toBe(200);
    expect((viaToken.json() as { expires_in: number }).expires_in).toBe(3600);

    // no credentials: a token only while anonymous access is on; a forged one is refused
    expect((await t.app.inject({ method: 'GET', url: '/v2/token' })).statusCode).toBe(401);
    await changeSecuritySettings(t.app, { anonymousAccess: true });
    expect((await t.app.inject({ method: 'GET', url: '/v2/token' })).statusCode).toBe(200);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/v2/',
      headers: { authorization: `Bearer ${token.slice(0, -4)}AAAA` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('pushes and pulls an image by tag and by digest, lists tags in pages, and deletes by digest', async () => {
    const config = await pushBlob('team/app', '{"architecture":"amd64","os":"linux"}');
    const layer = await pushBlob('team/app', 'layer bytes');
    const manifest = imageManifest(config, [layer]);
    for (const tag of ['1.0', '1.1', 'latest']) {
      const put = await call('PUT', `/v2/docker-local/team/app/manifests/${tag}`, manifest, {
        'content-type': OCI_MANIFEST,
      });
      expect(put.statusCode).toBe(201);
      expect(put.headers['docker-content-digest']).toBe(digestOf(manifest));
    }
    const byTag = await call('GET', '/v2/docker-local/team/app/manifests/1.0');
    expect(byTag.headers['content-type']).toBe(OCI_MANIFEST);
    expect(byTag.body).toBe(manifest);
    const head = await call('HEAD', `/v2/docker-local/team/app/manifests/${digestOf(manifest)}`);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(manifest)));
    const blob = await call('GET', `/v2/docker-local/team/app/blobs/${layer.digest}`);
    expect(blob.body).toBe('layer bytes');
    expect(blob.headers['docker-content-digest']).toBe(layer.digest);

    const page = await call('GET', '/v2/docker-local/team/app/tags/list?n=2');
    expect(page.json()).toEqual({ name: 'docker-local/team/app', tags: ['1.0', '1.1'] });
    expect(page.headers.link).toBe('</v2/docker-local/team/app/tags/list?n=2&last=1.1>; rel="next"');
    expect((await call('GET', '/v2/docker-local/team/app/tags/list?n=2&last=1.1')).json()).toEqual({
      name: 'docker-local/team/app',
      tags: ['latest'],
    });

    expect((await call('DELETE', `/v2/docker-local/team/app/manifests/${digestOf(manifest)}`)).statusCode).toBe(202);
    expect(code(await call('GET', '/v2/docker-local/team/app/manifests/1.0'))).toBe('MANIFEST_UNKNOWN');
    expect((await call('GET', '/v2/docker-local/team/app/tags/list')).json()).toEqual({
      name: 'docker-local/team/app',
      tags: [],
    });
  });

  it('assembles a chunked upload, and an interrupted one leaves no blob anyone can see', async () => {
    const start = await call('POST', '/v2/docker-local/app/blobs/uploads/');
    expect(start.statusCode).toBe(202);
    const location = start.headers.location as string;
    expect(start.headers.range).toBe('0-0');
    const first = await call('PATCH', location, 'hello ', {
      'content-type': 'application/octet-stream',
      'content-range': '0-5',
    });
    expect(first.statusCode).toBe(202);
    expect(first.headers.range).toBe('0-5');
    // a chunk that does not continue where the upload stands
    const gap = await call('PATCH', location, 'x', {
      'content-type': 'application/octet-stream',
      'content-range': '9-9',
    });
    expect(gap.statusCode).toBe(416);
    expect(await repositoryFiles(t.app)).toEqual([]);
    expect(code(await call('GET', `/v2/docker-local/app/blobs/${digestOf('hello ')}`))).toBe('BLOB_UNKNOWN');

    await call('PATCH', location, 'world', { 'content-type': 'application/octet-stream' });
    const done = await call('PUT', `${location}?digest=${digestOf('hello world')}`);
    expect(done.statusCode).toBe(201);
    expect((await call('GET', `/v2/docker-local/app/blobs/${digestOf('hello world')}`)).body).toBe('hello world');
    expect(code(await call('GET', location))).toBe('BLOB_UPLOAD_UNKNOWN');
  });

  it('mounts a blob from another image the caller may read, and stores its bytes once', async () => {
    const layer = await pushBlob('one', 'shared layer');
    const mounted = await call(
      'POST',
      `/v2/docker-local/two/blobs/uploads/?mount=${layer.digest}&from=docker-local/one`,
    );
    expect(mounted.statusCode).toBe(201);
    expect((await call('GET', `/v2/docker-local/two/blobs/${layer.digest}`)).body).toBe('shared layer');
    const binaries = await t.app.db.selectFrom('binaries').select('sha256').execute();
    expect(binaries.filter((b) => `sha256:${b.sha256}` === layer.digest)).toHaveLength(1);
    // nothing to mount from: an ordinary upload starts
    const fallback = await call(
      'POST',
      `/v2/docker-local/two/blobs/uploads/?mount=${digestOf('nope')}&from=docker-local/one`,
    );
    expect(fallback.statusCode).toBe(202);
  });

  it('refuses bad input with the protocol’s error codes and stores nothing', async () => {
    const wrongDigest = await call('POST', `/v2/docker-local/app/blobs/uploads/?digest=${digestOf('other')}`, 'data', {
      'content-type': 'application/octet-stream',
    });
    expect(wrongDigest.statusCode).toBe(400);
    expect(code(wrongDigest)).toBe('DIGEST_INVALID');

    const missing = imageManifest({ digest: digestOf('no config'), size: 9 }, []);
    const unknownBlob = await call('PUT', '/v2/docker-local/app/manifests/1.0', missing, {
      'content-type': OCI_MANIFEST,
    });
    expect(unknownBlob.statusCode).toBe(400);
    expect(code(unknownBlob)).toBe('MANIFEST_BLOB_UNKNOWN');

    const strange = await call(
      'PUT',
      '/v2/docker-local/app/manifests/1.0',
      '{"schemaVersion":2,"mediaType":"text/x-nope"}',
      {
        'content-type': 'text/x-nope',
      },
    );
    expect(code(strange)).toBe('MANIFEST_INVALID');
    expect(
      code(await call('PUT', '/v2/docker-local/app/manifests/1.0', 'not json', { 'content-type': OCI_MANIFEST })),
    ).toBe('MANIFEST_INVALID');
    const badTag = await call('PUT', '/v2/docker-local/app/manifests/-bad!', missing, { 'content-type': OCI_MANIFEST });
    expect(code(badTag)).toBe('TAG_INVALID');
    const badName = await call('GET', '/v2/docker-local/Bad_Name/tags/list');
    expect(code(badName)).toBe('NAME_INVALID');
    const digestMismatch = await call('PUT', `/v2/docker-local/app/manifests/${digestOf('x')}`, missing, {
      'content-type': OCI_MANIFEST,
    });
    expect(code(digestMismatch)).toBe('DIGEST_INVALID');
    expect(await repositoryFiles(t.app)).toEqual([]);
  });

  it('keeps images of repositories a user may not read hidden, and refuses a push without the deploy right', async () => {
    const reader = await createUser(t.app, 'reader');
    await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/reader',
      headers: ADMIN_BASIC,
      payload: { repo: { repositories: ['docker-local'], actions: { users: { reader: ['read'] } } } },
    });
    const readerToken = (
      (await t.app.inject({ method: 'GET', url: '/v2/token', headers: reader })).json() as { token: string }
    ).token;
    const push = await t.app.inject({
      method: 'POST',
      url: '/v2/docker-local/app/blobs/uploads/',
      headers: { authorization: `Bearer ${readerToken}` },
    });
    expect(push.statusCode).toBe(403);
    expect(code(push)).toBe('DENIED');
  });

  it('collects untagged manifests and unreferenced blobs, and a dry run changes nothing', async () => {
    const config = await pushBlob('app', '{"architecture":"amd64","os":"linux"}');
    const kept = await pushBlob('app', 'kept layer');
    const dropped = await pushBlob('app', 'dropped layer');
    await pushBlob('app', 'orphan blob');
    const tagged = imageManifest(config, [kept]);
    await call('PUT', '/v2/docker-local/app/manifests/1.0', tagged, { 'content-type': OCI_MANIFEST });
    const untagged = imageManifest(config, [dropped]);
    await call('PUT', `/v2/docker-local/app/manifests/${digestOf(untagged)}`, untagged, {
      'content-type': OCI_MANIFEST,
    });
    const gc = (dryRun: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/docker/gc',
        headers: { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' },
        payload: { dryRun, graceMinutes: 0 },
      });

    const before = await repositoryFiles(t.app);
    const preview = (await gc(true)).json() as { dryRun: boolean; manifests: string[]; blobs: string[]; bytes: number };
    expect(preview.dryRun).toBe(true);
    expect(preview.manifests).toEqual([`docker-local/app/.manifests/sha256__${digestOf(untagged).slice(7)}`]);
    expect(preview.blobs.sort()).toEqual(
      [digestOf('dropped layer'), digestOf('orphan blob')]
        .map((d) => `docker-local/app/.blobs/sha256__${d.slice(7)}`)
        .sort(),
    );
    expect(await repositoryFiles(t.app)).toEqual(before);

    const done = (await gc(false)).json() as { manifests: string[]; blobs: string[] };
    expect(done.manifests).toEqual(preview.manifests);
    const after = await repositoryFiles(t.app);
    expect(after.filter((p) => p.includes(dropped.digest.slice(7)))).toEqual([]);
    expect((await call('GET', '/v2/docker-local/app/manifests/1.0')).body).toBe(tagged);
    expect((await call('GET', `/v2/docker-local/app/blobs/${kept.digest}`)).body).toBe('kept layer');
    // a young push is never collected
    await pushBlob('app', 'just uploaded');
    const young = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/docker/gc',
      headers: { ...ADMIN_BASIC, 'x-requested-with': 'XMLHttpRequest' },
      payload: { dryRun: true },
    });
    expect((young.json() as { blobs: string[] }).blobs).toEqual([]);
  });

  it('answers the referrers of a manifest', async () => {
    const config = await pushBlob('app', '{}');
    const subject = imageManifest(config, []);
    await call('PUT', '/v2/docker-local/app/manifests/1.0', subject, { 'content-type': OCI_MANIFEST });
    const signature = JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      artifactType: 'application/vnd.example.signature',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', ...config },
      layers: [],
      subject: { mediaType: OCI_MANIFEST, digest: digestOf(subject), size: Buffer.byteLength(subject) },
      annotations: { signer: 'ci' },
    });
    const put = await call('PUT', `/v2/docker-local/app/manifests/${digestOf(signature)}`, signature, {
      'content-type': OCI_MANIFEST,
    });
    expect(put.headers['oci-subject']).toBe(digestOf(subject));
    const index = (await call('GET', `/v2/docker-local/app/referrers/${digestOf(subject)}`)).json() as {
      manifests: { digest: string; artifactType: string; annotations: Record<string, string> }[];
    };
    expect(index.manifests).toEqual([
      {
        mediaType: OCI_MANIFEST,
        digest: digestOf(signature),
        size: Buffer.byteLength(signature),
        artifactType: 'application/vnd.example.signature',
        annotations: { signer: 'ci' },
      },
    ]);
    const filtered = await call('GET', `/v2/docker-local/app/referrers/${digestOf(subject)}?artifactType=other/type`);
    expect((filtered.json() as { manifests: unknown[] }).manifests).toEqual([]);
  });
});

describe.each(ENGINES)('the container registry’s sessions and tokens, probed on %s', (engine) => {
  let t: TestApp;
  let ann: Record<string, string>;
  const tokenOf = async (headers: Record<string, string>) =>
    ((await t.app.inject({ url: '/v2/token?service=arca', headers })).json() as { token: string }).token;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const code = (res: { json: () => unknown }) => (res.json() as { errors: { code: string }[] }).errors[0]!.code;

  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
    await createRepo(t.app, 'docker-two', { rclass: 'local', packageType: 'docker' });
    ann = await createUser(t.app, 'ann');
    const granted = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/ann-deploy',
      headers: ADMIN_BASIC,
      payload: {
        repo: {
          repositories: ['docker-local', 'docker-two'],
          actions: { users: { ann: ['read', 'deploy', 'delete'] } },
        },
      },
    });
    expect(granted.statusCode).toBe(201);
  });
  afterEach(async () => {
    await t.close();
  });

  it('continues an upload only for whoever opened it, through the repository it was opened in', async () => {
    const admin = bearer(await tokenOf(ADMIN_BASIC));
    const annToken = bearer(await tokenOf(ann));
    const start = await t.app.inject({ method: 'POST', url: '/v2/docker-local/app/blobs/uploads/', headers: admin });
    const location = start.headers.location as string;
    const id = location.split('/').pop()!;
    const octets = { 'content-type': 'application/octet-stream' };
    expect(
      (await t.app.inject({ method: 'PATCH', url: location, headers: { ...admin, ...octets }, payload: 'mine ' }))
        .statusCode,
    ).toBe(202);
    // another user who may deploy there, and the same user through another repository, find no such upload
    const foreign = [
      await t.app.inject({ method: 'GET', url: location, headers: annToken }),
      await t.app.inject({ method: 'PATCH', url: location, headers: { ...annToken, ...octets }, payload: 'theirs' }),
      await t.app.inject({ method: 'PUT', url: `${location}?digest=${digestOf('mine ')}`, headers: annToken }),
      await t.app.inject({ method: 'DELETE', url: location, headers: annToken }),
      await t.app.inject({ method: 'GET', url: `/v2/docker-two/app/blobs/uploads/${id}`, headers: admin }),
    ];
    expect(foreign.map((res) => [res.statusCode, code(res)])).toEqual(Array(5).fill([404, 'BLOB_UPLOAD_UNKNOWN']));
    // the owner's upload is as it was, and completes
    expect((await t.app.inject({ method: 'GET', url: location, headers: admin })).headers.range).toBe('0-4');
    const done = await t.app.inject({ method: 'PUT', url: `${location}?digest=${digestOf('mine ')}`, headers: admin });
    expect(done.statusCode).toBe(201);
  });

  it('reads Content-Range strictly: a malformed, reversed or overlong range appends nothing', async () => {
    const admin = bearer(await tokenOf(ADMIN_BASIC));
    const start = await t.app.inject({ method: 'POST', url: '/v2/docker-local/app/blobs/uploads/', headers: admin });
    const location = start.headers.location as string;
    const part = (range: string, payload = 'hello') =>
      t.app.inject({
        method: 'PATCH',
        url: location,
        headers: { ...admin, 'content-type': 'application/octet-stream', 'content-range': range },
        payload,
      });
    for (const range of ['bytes=abc', '4-0', '0-99', '0-', '-4', '0-4-5', '99999999999999999999-1']) {
      const refused = await part(range);
      expect([range, refused.statusCode, code(refused)]).toEqual([range, 416, 'BLOB_UPLOAD_INVALID']);
    }
    expect((await t.app.inject({ method: 'GET', url: location, headers: admin })).headers.range).toBe('0-0');
    expect((await part('0-4')).headers.range).toBe('0-4');
    expect((await part('bytes=5-9', 'world')).headers.range).toBe('0-9');
  });

  it('takes registry tokens at the registry only, never to make tokens, and ends them with a password change', async () => {
    const token = await tokenOf(ann);
    expect((await t.app.inject({ url: '/v2/docker-local/app/tags/list', headers: bearer(token) })).statusCode).toBe(
      200,
    );
    const elsewhere = [
      await t.app.inject({ url: '/artifactory/api/repositories', headers: bearer(token) }),
      await t.app.inject({
        method: 'POST',
        url: '/access/api/v1/tokens',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: '{}',
      }),
      await t.app.inject({ method: 'POST', url: '/artifactory/api/security/apiKey', headers: bearer(token) }),
    ];
    expect(elsewhere.map((res) => res.statusCode)).toEqual([401, 401, 401]);
    expect(elsewhere[0]!.json()).toMatchObject({ errors: [{ message: AUTH_MESSAGES.registryTokenElsewhere }] });
    const renewed = await t.app.inject({ url: '/v2/token?service=arca', headers: bearer(token) });
    expect(renewed.statusCode).toBe(401);
    expect(renewed.json()).toMatchObject({ errors: [{ message: AUTH_MESSAGES.registryTokenRenew }] });
    expect(await t.app.db.selectFrom('access_tokens').select('id').execute()).toEqual([]);

    const changed = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/users/ann',
      headers: ADMIN_BASIC,
      payload: { password: 'an0ther-Passw0rd' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v2/docker-local/app/tags/list', headers: bearer(token) })).statusCode).toBe(
      401,
    );
  });
});
