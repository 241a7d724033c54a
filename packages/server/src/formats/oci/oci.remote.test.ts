import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ADMIN_PASSWORD, ENGINES, createRepo, startTestApp, type TestApp } from '../../test/harness.js';
import { ociFormat, upstreamScope } from './oci.format.js';

const digestOf = (data: string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

/**
 * A remote repository in front of a registry that asks for a bearer token (as Docker Hub, GHCR
 * and Harbor do): here another Arca, whose registry challenges anonymous pulls and issues tokens
 * at its realm for basic credentials.
 */
describe.each(ENGINES)('a remote registry that answers with a token challenge, on %s', (engine) => {
  let upstream: TestApp;
  let t: TestApp;
  let upstreamToken: string;
  let localToken: string;
  /** What the upstream was asked: path and the scheme of the credentials sent. */
  const seen: string[] = [];
  const config = '{"architecture":"amd64","os":"linux"}';
  const layer = 'layer bytes';
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(config), size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digestOf(layer), size: layer.length }],
  });
  const pull = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${localToken}`, accept: OCI_MANIFEST } });

  beforeAll(async () => {
    upstream = await startTestApp('sqlite');
    await createRepo(upstream.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
    upstreamToken = (
      (await upstream.app.inject({ url: '/v2/token?service=arca', headers: ADMIN_BASIC })).json() as { token: string }
    ).token;
    const push = (method: 'POST' | 'PUT', url: string, payload: string, type: string) =>
      upstream.app.inject({
        method,
        url,
        payload,
        headers: { authorization: `Bearer ${upstreamToken}`, 'content-type': type },
      });
    for (const blob of [config, layer])
      expect(
        (
          await push(
            'POST',
            `/v2/docker-local/app/blobs/uploads/?digest=${digestOf(blob)}`,
            blob,
            'application/octet-stream',
          )
        ).statusCode,
      ).toBe(201);
    for (const tag of ['1.0', '2.0'])
      expect((await push('PUT', `/v2/docker-local/app/manifests/${tag}`, manifest, OCI_MANIFEST)).statusCode).toBe(201);
    upstream.app.server.on('request', (request: IncomingMessage) => {
      const scheme = request.headers.authorization?.split(' ')[0] ?? 'none';
      seen.push(`${request.url?.split('?')[0]} ${scheme}`);
    });
    await upstream.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (upstream.app.server.address() as AddressInfo).port;

    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'docker-remote', {
      rclass: 'remote',
      packageType: 'docker',
      url: `http://127.0.0.1:${port}/`,
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    await createRepo(t.app, 'docker-wrong', {
      rclass: 'remote',
      packageType: 'docker',
      url: `http://127.0.0.1:${port}/`,
      username: 'admin',
      password: 'not-the-password',
    });
    localToken = (
      (await t.app.inject({ url: '/v2/token?service=arca', headers: ADMIN_BASIC })).json() as { token: string }
    ).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('answers the challenge with a token from the realm, then pulls with the token it holds', async () => {
    const res = await pull('/v2/docker-remote/docker-local/app/manifests/1.0');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(manifest);
    expect(seen).toEqual([
      '/v2/docker-local/app/manifests/1.0 none',
      '/v2/token Basic',
      '/v2/docker-local/app/manifests/1.0 Bearer',
    ]);
    seen.length = 0;
    for (const blob of [config, layer]) {
      const got = await pull(`/v2/docker-remote/docker-local/app/blobs/${digestOf(blob)}`);
      expect(got.statusCode).toBe(200);
      expect(got.body).toBe(blob);
    }
    // the token of the image's scope is sent at once: no second challenge, no second token
    expect(seen).toEqual([
      `/v2/docker-local/app/blobs/${digestOf(config)} Bearer`,
      `/v2/docker-local/app/blobs/${digestOf(layer)} Bearer`,
    ]);
  });

  it('caches nothing when the realm refuses the credentials', async () => {
    const res = await pull('/v2/docker-wrong/docker-local/app/manifests/1.0');
    expect(res.statusCode).toBe(404);
    expect((res.json() as { errors: { code: string }[] }).errors[0]!.code).toBe('MANIFEST_UNKNOWN');
    const stored = await t.app.db.selectFrom('items').select('path').where('repo_key', '=', 'docker-wrong').execute();
    expect(stored.filter((i) => i.path.endsWith('.json'))).toEqual([]);
  });

  it('lists the tags the upstream has, also those not pulled yet', async () => {
    const res = await pull('/v2/docker-remote/docker-local/app/tags/list');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'docker-remote/docker-local/app', tags: ['1.0', '2.0'] });
    expect(seen.at(-1)).toBe('/v2/docker-local/app/tags/list Bearer');
    // a tag only listed is pulled on demand
    expect((await pull('/v2/docker-remote/docker-local/app/manifests/2.0')).body).toBe(manifest);
  });

  it("names Docker Hub's official images library/{name}, in the path and in the token's scope", () => {
    const remote = ociFormat.remoteMetadata!;
    const hub = 'https://registry-1.docker.io/';
    expect(remote.upstreamPath!('nginx/1.27/manifest.json', hub)).toBe('v2/library/nginx/manifests/1.27');
    expect(upstreamScope('nginx/1.27/manifest.json', hub)).toBe('repository:library/nginx:pull');
    expect(remote.upstreamPath!('bitnami/redis/7/manifest.json', hub)).toBe('v2/bitnami/redis/manifests/7');
    expect(remote.upstreamPath!('nginx/1.27/manifest.json', 'https://ghcr.io/')).toBe('v2/nginx/manifests/1.27');
    expect(remote.upstreamPath!('nginx/.tags/list.json', hub)).toBe('v2/library/nginx/tags/list');
    expect(upstreamScope('nginx/.blobs/sha256__' + 'a'.repeat(64), hub)).toBe('repository:library/nginx:pull');
  });
});
