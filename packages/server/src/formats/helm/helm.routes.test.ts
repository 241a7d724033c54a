import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  XHR,
  createRepo,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const API = '/artifactory/api/helm';

/** A chart archive as `helm package` makes it: one top folder named as the chart. */
async function chartOf(name: string, version: string, extra: Record<string, string> = {}, folder = name) {
  const pack = tar.pack();
  const files = {
    'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: ${version}\nappVersion: "1.16"\ndescription: The ${name} chart\nkeywords: [web]\ndependencies:\n  - name: common\n    version: 2.x.x\n    repository: https://charts.example.com\n`,
    'values.yaml': 'replicas: 1\n',
    'templates/deployment.yaml': 'kind: Deployment\n',
    'README.md': `# ${name}\n`,
    ...extra,
  };
  for (const [file, text] of Object.entries(files)) pack.entry({ name: `${folder}/${file}` }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** What Helm's documentation requires of `index.yaml`, checked on a parsed index. */
function expectHelmIndex(index: Record<string, unknown>) {
  expect(index.apiVersion).toBe('v1');
  expect(Number.isNaN(Date.parse(String(index.generated)))).toBe(false);
  for (const versions of Object.values(index.entries as Record<string, Record<string, unknown>[]>)) {
    for (const v of versions) {
      expect(v).toMatchObject({
        apiVersion: expect.any(String),
        name: expect.any(String),
        version: expect.any(String),
      });
      expect(v.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isNaN(Date.parse(String(v.created)))).toBe(false);
      expect(Array.isArray(v.urls) && v.urls.length > 0).toBe(true);
    }
  }
}

describe.each(ENGINES)('Helm chart repository on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await createRepo(t.app, 'helm-local', { rclass: 'local', packageType: 'helm' });
  });
  afterEach(async () => {
    await t.close();
  });
  const get = (url: string, app = t.app) => app.inject({ method: 'GET', url, headers: ADMIN_BASIC });
  const index = async (repo: string, app = t.app) =>
    parseYaml((await get(`${API}/${repo}/index.yaml`, app)).body) as {
      entries: Record<string, Record<string, unknown>[]>;
    } & Record<string, unknown>;

  it('lists deployed charts in index.yaml as Helm documents it, newest first, and a chart round-trips by its url', async () => {
    const first = await chartOf('web', '1.0.0');
    const second = await chartOf('web', '1.2.0-rc.1');
    expect((await put(t.app, `${API}/helm-local/web-1.0.0.tgz`, first)).statusCode).toBe(201);
    // the repository's own address takes charts too, in folders
    expect((await put(t.app, '/artifactory/helm-local/rc/web-1.2.0-rc.1.tgz', second)).statusCode).toBe(201);
    const parsed = await index('helm-local');
    expectHelmIndex(parsed);
    expect(parsed.entries.web!.map((v) => v.version)).toEqual(['1.2.0-rc.1', '1.0.0']);
    expect(parsed.entries.web![1]).toMatchObject({
      name: 'web',
      appVersion: '1.16',
      description: 'The web chart',
      urls: ['web-1.0.0.tgz'],
      digest: createHash('sha256').update(first).digest('hex'),
      dependencies: [{ name: 'common', version: '2.x.x', repository: 'https://charts.example.com' }],
    });
    // a client resolves the url against the index's address
    const url = new URL(
      String((parsed.entries.web![0]!.urls as string[])[0]),
      `http://localhost${API}/helm-local/index.yaml`,
    );
    expect((await get(url.pathname)).rawPayload.equals(second)).toBe(true);

    // deleted in the console: it leaves the index
    await t.app.inject({ method: 'DELETE', url: '/artifactory/helm-local/rc', headers: ADMIN_BASIC });
    expect((await index('helm-local')).entries.web!.map((v) => v.version)).toEqual(['1.0.0']);
  });

  it('refuses a chart named otherwise than its Chart.yaml, a corrupt archive and a version deployed again with other content', async () => {
    const misnamed = await put(t.app, `${API}/helm-local/api-1.0.0.tgz`, await chartOf('web', '1.0.0'));
    expect(misnamed.statusCode).toBe(400);
    expect(misnamed.json().errors[0].message).toBe(
      "'api-1.0.0.tgz' holds the chart web 1.0.0: a chart is deployed as web-1.0.0.tgz. Nothing was stored.",
    );
    const corrupt = await put(t.app, `${API}/helm-local/web-1.0.0.tgz`, Buffer.from('not a chart'));
    expect(corrupt.json().errors[0].message).toContain('not a readable gzipped tar archive');
    const folder = await put(t.app, `${API}/helm-local/web-1.0.0.tgz`, await chartOf('web', '1.0.0', {}, 'other'));
    expect(folder.json().errors[0].message).toContain("its top folder 'other' is not named as the chart 'web'");
    expect((await get('/artifactory/api/storage/helm-local/web-1.0.0.tgz')).statusCode).toBe(404);

    const chart = await chartOf('web', '1.0.0');
    expect((await put(t.app, `${API}/helm-local/web-1.0.0.tgz`, chart)).statusCode).toBe(201);
    const other = await put(
      t.app,
      `${API}/helm-local/v2/web-1.0.0.tgz`,
      await chartOf('web', '1.0.0', { 'values.yaml': 'replicas: 3\n' }),
    );
    expect(other.statusCode).toBe(409);
    expect((await index('helm-local')).entries.web!.map((v) => v.urls)).toEqual([['web-1.0.0.tgz']]);
  });

  it('proxies another chart repository with its links rewritten, and merges it into a virtual repository', async () => {
    const upstream = await startTestApp(engine);
    try {
      await createRepo(upstream.app, 'charts', { rclass: 'local', packageType: 'helm' });
      await put(upstream.app, `${API}/charts/db-3.1.0.tgz`, await chartOf('db', '3.1.0'));
      await put(upstream.app, `${API}/charts/web-0.9.0.tgz`, await chartOf('web', '0.9.0'));
      await upstream.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (upstream.app.server.address() as AddressInfo).port;
      await createRepo(t.app, 'helm-remote', {
        rclass: 'remote',
        packageType: 'helm',
        url: `http://127.0.0.1:${port}${API}/charts`,
        username: 'admin',
        password: ADMIN_PASSWORD,
      });
      await createRepo(t.app, 'helm', {
        rclass: 'virtual',
        packageType: 'helm',
        repositories: ['helm-local', 'helm-remote'],
        defaultDeploymentRepo: 'helm-local',
      });
      await put(t.app, `${API}/helm/web-1.0.0.tgz`, await chartOf('web', '1.0.0'));
      const merged = await index('helm');
      expectHelmIndex(merged);
      expect(Object.keys(merged.entries)).toEqual(['db', 'web']);
      expect(merged.entries.web!.map((v) => v.version)).toEqual(['1.0.0', '0.9.0']);
      expect(merged.entries.db![0]!.urls).toEqual(['db-3.1.0.tgz']);
      const chart = await get(`${API}/helm/db-3.1.0.tgz`);
      expect(chart.statusCode).toBe(200);
      expect(
        chart.rawPayload.equals(await get(`${API}/charts/db-3.1.0.tgz`, upstream.app).then((r) => r.rawPayload)),
      ).toBe(true);
      // the catalogue lists the proxied chart too, once cached
      await t.services.catalogueIndexer.drain();
      const found = await t.app.inject({
        method: 'POST',
        url: '/ui/api/v1/mds/packages',
        headers: { ...ADMIN_BASIC, ...XHR },
        payload: {
          query: '{ packages(filter: { package_type: ["helm"] }) { edges { node { name latestVersion } } } }',
        },
      });
      expect(found.json().data.packages.edges.map((e: { node: unknown }) => e.node)).toEqual([
        { name: 'db', latestVersion: '3.1.0' },
        { name: 'web', latestVersion: '1.0.0' },
      ]);
    } finally {
      await upstream.close();
    }
  });
});
