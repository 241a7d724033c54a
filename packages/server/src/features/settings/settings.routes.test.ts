import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  createUser,
  login,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { startHttpProxy } from '../../test/http-proxy.js';

const API = '/ui/api/v1';
/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(ENGINES)('general settings, logo and proxies on %s', (engine) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let upstream: http.Server;
  let upstreamPort: number;
  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      if (request.url === '/files/lib.txt') response.end('bytes from the upstream');
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as AddressInfo).port;
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    admin = { ...XHR, cookie: (await login(t.app)).cookie };
    await createRepo(t.app, 'files', { rclass: 'local' });
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('answers the defaults, then puts the server name in the titles and the URL base in links', async () => {
    const first = await send('GET', '/ui/generalConfig');
    expect(first.json()).toMatchObject({
      serverName: '',
      customUrlBase: '',
      fileUploadMaxSizeMb: 100,
      dateFormat: '',
      logoUploaded: false,
      effectiveServerName: 'Arca',
      reverseProxy: { dockerReverseProxyMethod: 'REPOPATHPREFIX', useHttp: true, httpPort: 80 },
    });
    const settings = { ...first.json(), serverName: 'Acme Artifacts', customUrlBase: 'https://artifacts.acme.test/' };
    const saved = await send('PUT', '/ui/generalConfig', settings);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      effectiveServerName: 'Acme Artifacts',
      customUrlBase: 'https://artifacts.acme.test',
      effectiveUrlBase: 'https://artifacts.acme.test',
    });
    expect((await t.app.inject({ url: `${API}/ui/auth/screen/globalState` })).json().serverName).toBe('Acme Artifacts');
    expect((await t.app.inject({ url: `${API}/ui/auth/screen/footer` })).json().serverName).toBe('Acme Artifacts');
    const deployed = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/files/a/b.txt',
      headers: ADMIN_BASIC,
      payload: 'x',
    });
    expect(deployed.json().downloadUri).toBe('https://artifacts.acme.test/artifactory/files/a/b.txt');
  });

  it('refuses a bad URL, name or reverse proxy with the message and keeps what was saved', async () => {
    const current = (await send('GET', '/ui/generalConfig')).json();
    const bad = async (changes: Record<string, unknown>) => {
      const res = await send('PUT', '/ui/generalConfig', { ...current, ...changes });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await bad({ customUrlBase: 'ftp://nope' })).toBe('Enter a valid URL.');
    expect(await bad({ logoUrl: 'not a url' })).toBe('Enter a valid URL.');
    expect(await bad({ serverName: 'Acme <script>' })).toContain(
      'The server name may hold letters, digits, spaces, dots, dashes and underscores only.',
    );
    const proxy = current.reverseProxy;
    expect(await bad({ reverseProxy: { ...proxy, useHttp: false, useHttps: false } })).toBe(
      'Choose HTTP, HTTPS or both.',
    );
    expect(
      await bad({
        reverseProxy: {
          ...proxy,
          dockerReverseProxyMethod: 'PORTPERREPO',
          reverseProxyRepositories: [{ repoKey: 'nope', port: 5001 }],
        },
      }),
    ).toBe("There is no repository 'nope'.");
    expect(
      await bad({
        reverseProxy: {
          ...proxy,
          dockerReverseProxyMethod: 'PORTPERREPO',
          reverseProxyRepositories: [{ repoKey: 'docker-local', port: 80 }],
        },
      }),
    ).toBe('Port 80 is used twice.');
    expect((await send('GET', '/ui/generalConfig')).json()).toEqual(current);
  });

  it('writes the nginx configuration of the reverse proxy settings, a server per Docker repository port', async () => {
    const current = (await send('GET', '/ui/generalConfig')).json();
    await send('PUT', '/ui/generalConfig', {
      ...current,
      reverseProxy: {
        ...current.reverseProxy,
        serverName: 'artifacts.acme.test',
        dockerReverseProxyMethod: 'PORTPERREPO',
        reverseProxyRepositories: [{ repoKey: 'docker-local', port: 5001 }],
      },
    });
    const conf = await send('GET', '/ui/reverseProxy/nginx');
    expect(conf.headers['content-type']).toContain('text/plain');
    expect(conf.body).toContain('server_name artifacts.acme.test;');
    expect(conf.body).toContain('listen 5001;');
    expect(conf.body).toContain('rewrite ^/v2/(?!token$)(.+)$ /v2/docker-local/$1 break;');
    const rest = await t.app.inject({
      url: '/artifactory/api/system/configuration/webServer',
      headers: ADMIN_BASIC,
    });
    expect(rest.json()).toMatchObject({ serverName: 'artifacts.acme.test', dockerReverseProxyMethod: 'PORTPERREPO' });
  });

  it('keeps console uploads within the upload limit and stores nothing larger', async () => {
    const current = (await send('GET', '/ui/generalConfig')).json();
    await send('PUT', '/ui/generalConfig', { ...current, fileUploadMaxSizeMb: 1 });
    expect((await t.app.inject({ url: `${API}/ui/auth/screen/globalState` })).json().fileUploadMaxSizeMb).toBe(1);
    const upload = (bytes: number) =>
      t.app.inject({
        method: 'PUT',
        url: `${API}/ui/artifact/upload?repoKey=files&path=big/file-${bytes}.bin`,
        headers: { ...admin, 'content-type': 'application/octet-stream' },
        payload: Buffer.alloc(bytes, 1),
      });
    const large = await upload(1024 * 1024 + 1);
    expect(large.statusCode).toBe(413);
    expect(messages(large)[0]).toBe('The file is larger than the upload limit of 1 MB (General Settings).');
    expect(
      (await t.app.inject({ url: '/artifactory/files/big/file-1048577.bin', headers: ADMIN_BASIC })).statusCode,
    ).toBe(404);
    expect((await upload(1024 * 1024)).statusCode).toBe(201);
    await send('PUT', '/ui/generalConfig', { ...current, fileUploadMaxSizeMb: 100 });
  });

  it('shows an uploaded logo in the footer to anyone and refuses what is not an image', async () => {
    const upload = (body: Buffer, type = 'image/png') =>
      t.app.inject({
        method: 'POST',
        url: `${API}/ui/generalConfig/logo`,
        headers: { ...admin, 'content-type': type },
        payload: body,
      });
    expect(messages(await upload(Buffer.from('<html>no</html>')))[0]).toBe(
      'The logo must be a PNG, JPEG, GIF, SVG or WebP image.',
    );
    const tooLarge = await upload(Buffer.concat([PNG, Buffer.alloc(600 * 1024)]));
    expect(tooLarge.statusCode).toBe(400);
    expect((await upload(PNG)).statusCode).toBe(204);
    const footer = (await t.app.inject({ url: `${API}/ui/auth/screen/footer` })).json();
    expect(footer.userLogo).toMatch(/^\/ui\/api\/v1\/ui\/generalConfig\/logo\?v=[0-9a-f]{12}$/);
    const image = await t.app.inject({ url: footer.userLogo });
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png']);
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await send('DELETE', '/ui/generalConfig/logo')).statusCode).toBe(204);
    expect((await t.app.inject({ url: `${API}/ui/auth/screen/footer` })).json().userLogo).toBeNull();
    await createUser(t.app, 'plain');
    const asUser = { ...XHR, cookie: (await login(t.app, 'plain', 'plain-Passw0rd')).cookie };
    expect((await send('POST', '/ui/generalConfig/logo', undefined, asUser)).statusCode).toBe(403);
    expect((await send('GET', '/ui/generalConfig', undefined, asUser)).statusCode).toBe(403);
  });

  it('keeps proxies with their password sealed and masked, one default, and refuses to remove one in use', async () => {
    const bad = await send('POST', '/ui/proxies', { key: '1bad', host: 'proxy.acme.test', port: 3128 });
    expect(messages(bad)[0]).toContain('The key starts with a letter');
    const created = await send('POST', '/ui/proxies', {
      key: 'corp',
      host: 'proxy.acme.test',
      port: 3128,
      username: 'svc',
      password: 'Proxy-Secret-1',
      defaultProxy: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ key: 'corp', passwordSet: true, defaultProxy: true, usedBy: [] });
    expect(created.body).not.toContain('Proxy-Secret-1');
    const row = await t.app.db.selectFrom('proxies').selectAll().where('key', '=', 'corp').executeTakeFirstOrThrow();
    expect(row.password).not.toContain('Proxy-Secret-1');
    expect((await send('POST', '/ui/proxies', { key: 'corp', host: 'x', port: 1 })).statusCode).toBe(409);

    await send('POST', '/ui/proxies', { key: 'backup', host: 'proxy2.acme.test', port: 8080, defaultProxy: true });
    const list = (await send('GET', '/ui/proxies')).json() as { key: string; defaultProxy: boolean }[];
    expect(list.map((p) => [p.key, p.defaultProxy])).toEqual([
      ['backup', true],
      ['corp', false],
    ]);
    // an edit with an empty password keeps the stored one
    const edited = await send('PUT', '/ui/proxies/corp', {
      key: 'corp',
      host: 'proxy.acme.test',
      port: 3129,
      username: 'svc',
    });
    expect(edited.json()).toMatchObject({ port: 3129, passwordSet: true });

    await createRepo(t.app, 'through-corp', { rclass: 'remote', url: 'https://example.test/', proxy: 'corp' });
    const refused = await send('DELETE', '/ui/proxies/corp');
    expect([refused.statusCode, messages(refused)[0]]).toEqual([
      409,
      "The proxy 'corp' is used by repository through-corp; choose another proxy there first.",
    ]);
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/repositories/through-nothing',
      headers: ADMIN_BASIC,
      payload: { rclass: 'remote', url: 'https://example.test/', proxy: 'nothing' },
    });
    expect(messages(unknown)[0]).toBe("There is no proxy 'nothing'.");
    await t.app.inject({ method: 'DELETE', url: '/artifactory/api/repositories/through-corp', headers: ADMIN_BASIC });
    expect((await send('DELETE', '/ui/proxies/corp')).statusCode).toBe(204);
    expect((await send('DELETE', '/ui/proxies/backup')).statusCode).toBe(204);
    expect((await send('GET', '/ui/proxies')).json()).toEqual([]);
  });

  it('fetches a remote repository and posts a webhook through the proxy, with its credentials', async () => {
    const proxy = await startHttpProxy({ username: 'svc', password: 'Proxy-Secret-1' });
    try {
      await send('POST', '/ui/proxies', {
        key: 'office',
        host: '127.0.0.1',
        port: proxy.port,
        username: 'svc',
        password: 'Proxy-Secret-1',
      });
      await createRepo(t.app, 'upstream-files', {
        rclass: 'remote',
        url: `http://127.0.0.1:${upstreamPort}/files/`,
        proxy: 'office',
      });
      const fetched = await t.app.inject({ url: '/artifactory/upstream-files/lib.txt', headers: ADMIN_BASIC });
      expect([fetched.statusCode, fetched.body]).toEqual([200, 'bytes from the upstream']);
      expect(proxy.requests).toEqual([
        {
          target: `127.0.0.1:${upstreamPort}`,
          authorization: `Basic ${Buffer.from('svc:Proxy-Secret-1').toString('base64')}`,
        },
      ]);

      // a proxy with the wrong password: the proxy refuses, nothing is cached, and the client hears
      // that the upstream could not be reached (not that the file does not exist)
      await send('PUT', '/ui/proxies/office', {
        key: 'office',
        host: '127.0.0.1',
        port: proxy.port,
        username: 'svc',
        password: 'wrong',
      });
      const refused = await t.app.inject({ url: '/artifactory/upstream-files/other.txt', headers: ADMIN_BASIC });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().errors[0].message).toMatch(
        /^The remote repository 'upstream-files' could not get an answer from its upstream/,
      );
      expect(proxy.requests).toHaveLength(2);

      await send('PUT', '/ui/proxies/office', {
        key: 'office',
        host: '127.0.0.1',
        port: proxy.port,
        username: 'svc',
        password: 'Proxy-Secret-1',
      });
      const receiver = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => response.end('ok'));
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const test = await t.app.inject({
          method: 'POST',
          url: `${API}/event/api/v1/subscriptions/test`,
          headers: admin,
          payload: {
            key: 'through-proxy',
            event_filter: {
              domain: 'artifact',
              event_types: ['deployed'],
              criteria: { anyLocal: true, anyRemote: false, repoKeys: [], includePatterns: [], excludePatterns: [] },
            },
            handlers: [
              {
                handler_type: 'webhook',
                url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
                proxy: 'office',
              },
            ],
          },
        });
        expect(test.statusCode).toBe(200);
        expect(proxy.requests.at(-1)!.target).toBe(`127.0.0.1:${(receiver.address() as AddressInfo).port}`);
      } finally {
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    } finally {
      await proxy.close();
    }
  });
});
