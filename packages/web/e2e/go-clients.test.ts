import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, selfSignedCertificate, startNginx, startServer, type RunningServer } from './harness';
import { clientHome, formatRepositories, run, restCall } from './clients/clients';

/**
 * Go modules proven with Debian's go command: modules published as `jf go-publish` does (the
 * zip, go.mod and .info of a version PUT under the proxy's paths), then `go list`, `go get` and
 * `go build` through a virtual repository whose remote proxies a second Arca — playing
 * proxy.golang.org — for a public module with capitals in its path (case-encoded).
 */
let upstream: RunningServer;
let arca: RunningServer;
/** The go command sends credentials over HTTPS only: it reaches Arca through nginx with TLS, as in production. */
let proxy: { url: string; stop(): Promise<void> };
let tls: { cert: string; key: string };
const { home, env } = clientHome();
const DEV = { user: 'dev', password: 'Dev-password-1' };
const READER = { user: 'reader', password: 'Reader-password-1' };

const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

/** A module zip as Go makes it: every file under `{module}@{version}/`. */
function moduleZip(prefix: string, files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), `${prefix}${name}`);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const escape = (s: string) => s.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
const basic = (who: { user: string; password: string }) =>
  `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`;

/** One PUT as jf go-publish sends it. */
const put = (server: RunningServer, repo: string, file: string, body: Buffer | string, who = DEV) =>
  fetch(`${server.url}/artifactory/api/go/${repo}/${file}`, {
    method: 'PUT',
    headers: { Authorization: basic(who) },
    body: new Uint8Array(typeof body === 'string' ? Buffer.from(body) : body),
  });

interface Version {
  module: string;
  version: string;
  files: Record<string, string>;
}

/** Publishes a version's zip, go.mod and .info; answers the three statuses. */
async function publish(server: RunningServer, repo: string, v: Version, who = DEV): Promise<number[]> {
  const base = `${escape(v.module)}/@v/${escape(v.version)}`;
  const zip = await moduleZip(`${v.module}@${v.version}/`, v.files);
  const statuses: number[] = [];
  statuses.push((await put(server, repo, `${base}.zip`, zip, who)).status);
  statuses.push((await put(server, repo, `${base}.mod`, v.files['go.mod'] ?? '', who)).status);
  const info = JSON.stringify({ Version: v.version, Time: '2026-01-02T03:04:05Z' });
  statuses.push((await put(server, repo, `${base}.info`, info, who)).status);
  return statuses;
}

const greet = (version: string): Version => ({
  module: 'example.com/Upstream/greet',
  version,
  files: {
    'go.mod': 'module example.com/Upstream/greet\n\ngo 1.19\n',
    'greet.go': `package greet\n\nfunc Hello() string { return "hello from greet ${version}" }\n`,
    'README.md': '# greet\n\nSays hello.\n',
  },
});

const LIB: Version = {
  module: 'example.com/acme/lib',
  version: 'v0.1.0',
  files: {
    'go.mod': 'module example.com/acme/lib\n\ngo 1.19\n\nrequire example.com/Upstream/greet v1.1.0\n',
    'lib.go':
      'package lib\n\nimport "example.com/Upstream/greet"\n\nfunc Hello() string { return "acme lib says: " + greet.Hello() }\n',
  },
};

/** The go command with a fresh module cache, through the virtual repository as `who`. */
function go(args: string[], cwd: string, who = DEV) {
  const goproxy = `${proxy.url.replace('https://', `https://${who.user}:${who.password}@`)}/artifactory/api/go/go`;
  return run('go', args, {
    cwd,
    env: {
      ...env,
      GOPROXY: goproxy,
      SSL_CERT_FILE: tls.cert,
      // the checksum database knows public modules only: private ones are left out of it
      GONOSUMDB: 'example.com',
      GOFLAGS: '-mod=mod',
      GOPATH: path.join(home, 'gopath'),
      GOMODCACHE: path.join(home, 'gomodcache'),
      GOCACHE: path.join(home, 'gocache'),
      GO111MODULE: 'on',
      CGO_ENABLED: '0',
    },
  });
}

beforeAll(async () => {
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  tls = selfSignedCertificate(home);
  proxy = await startNginx([Number(new URL(arca.url).port)], { tls });
  await call(upstream, 'PUT', '/artifactory/api/repositories/go-public', { rclass: 'local', packageType: 'go' });
  await formatRepositories(
    arca,
    { user: 'admin', password: ADMIN_PASSWORD },
    {
      packageType: 'go',
      upstream: `${upstream.url}/artifactory/api/go/go-public`,
      upstreamAs: { user: 'admin', password: ADMIN_PASSWORD },
      users: [
        { ...DEV, actions: ['read', 'write'] },
        { ...READER, actions: ['read'] },
      ],
    },
  );
  const admin = { user: 'admin', password: ADMIN_PASSWORD };
  expect(await publish(upstream, 'go-public', greet('v1.0.0'), admin)).toEqual([201, 201, 201]);
  expect(await publish(upstream, 'go-public', greet('v1.1.0'), admin)).toEqual([201, 201, 201]);
});

afterAll(async () => {
  await proxy?.stop();
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the go command against Arca', () => {
  it('publishes a private module through the virtual repository and builds a program from it and its public dependency', async () => {
    expect(await publish(arca, 'go', LIB)).toEqual([201, 201, 201]);
    const app = fs.mkdtempSync(path.join(home, 'app-'));
    fs.writeFileSync(path.join(app, 'go.mod'), 'module example.com/acme/app\n\ngo 1.19\n');
    fs.writeFileSync(
      path.join(app, 'main.go'),
      'package main\n\nimport (\n\t"fmt"\n\t"example.com/acme/lib"\n)\n\nfunc main() { fmt.Println(lib.Hello()) }\n',
    );
    await go(['get', 'example.com/acme/lib@latest'], app);
    const goMod = fs.readFileSync(path.join(app, 'go.mod'), 'utf8');
    expect(goMod).toContain('example.com/acme/lib v0.1.0');
    expect(goMod).toContain('example.com/Upstream/greet v1.1.0 // indirect');
    await go(['build', '-o', 'app', '.'], app);
    expect((await run(path.join(app, 'app'), [], { cwd: app, env })).trim()).toBe(
      'acme lib says: hello from greet v1.1.0',
    );
    // the public module's files were fetched once, through the remote, and are cached there
    const cached = await call(
      arca,
      'GET',
      '/artifactory/api/storage/go-remote/example.com/!upstream/greet/@v/v1.1.0.zip',
    );
    expect(cached.status).toBe(200);
  });

  it('lists the versions of a module merged from the members, its capitals case-encoded', async () => {
    const app = fs.mkdtempSync(path.join(home, 'list-'));
    fs.writeFileSync(path.join(app, 'go.mod'), 'module example.com/acme/list\n\ngo 1.19\n');
    const listed = await go(['list', '-m', '-versions', 'example.com/Upstream/greet'], app);
    expect(listed.trim()).toBe('example.com/Upstream/greet v1.0.0 v1.1.0');
    const latest = await fetch(`${arca.url}/artifactory/api/go/go/example.com/!upstream/greet/@latest`, {
      headers: { Authorization: basic(DEV) },
    });
    expect(await latest.json()).toMatchObject({ Version: 'v1.1.0' });
  });

  it('refuses a zip that breaks Go’s rules, a go.mod naming another module, and a version published again', async () => {
    const bad = await moduleZip('example.com/acme/other@v1.0.0/', { 'go.mod': 'module example.com/acme/other\n' });
    const outside = await put(arca, 'go', 'example.com/acme/bad/@v/v1.0.0.zip', bad);
    expect(outside.status).toBe(400);
    expect(await outside.text()).toContain("is not under 'example.com/acme/bad@v1.0.0/'");
    const corrupt = await put(arca, 'go', 'example.com/acme/bad/@v/v1.0.0.zip', Buffer.from('PK not a zip'));
    expect(corrupt.status).toBe(400);
    expect(await corrupt.text()).toContain('not a readable zip archive');
    const mod = await put(arca, 'go', 'example.com/acme/bad/@v/v1.0.0.mod', 'module example.com/acme/good\n');
    expect(mod.status).toBe(400);
    expect(await mod.text()).toContain("declares module 'example.com/acme/good'");
    const major = await put(arca, 'go', 'example.com/acme/bad/@v/v2.0.0.mod', 'module example.com/acme/bad\n');
    expect(major.status).toBe(400);
    expect(await major.text()).toContain("need the suffix '/v2'");
    const nothing = await fetch(`${arca.url}/artifactory/api/storage/go-local/example.com/acme/bad`, {
      headers: { Authorization: basic({ user: 'admin', password: ADMIN_PASSWORD }) },
    });
    expect(nothing.status).toBe(404);

    const stored = () =>
      call(arca, 'GET', '/artifactory/api/storage/go-local/example.com/acme/lib/@v/v0.1.0.zip')
        .then((r) => r.json() as Promise<{ checksums: { sha256: string } }>)
        .then((info) => info.checksums.sha256);
    const before = await stored();
    const again = {
      ...LIB,
      files: { ...LIB.files, 'lib.go': 'package lib\n\nfunc Hello() string { return "changed" }\n' },
    };
    const refused = await put(
      arca,
      'go',
      'example.com/acme/lib/@v/v0.1.0.zip',
      await moduleZip('example.com/acme/lib@v0.1.0/', again.files),
    );
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('example.com/acme/lib@v0.1.0 is already published with a different .zip');
    expect(await stored()).toBe(before);
  });

  it('lets a reader fetch but not publish, and an unknown user read nothing', async () => {
    expect((await publish(arca, 'go', { ...LIB, version: 'v0.2.0' }, READER))[0]).toBe(403);
    const list = await fetch(`${arca.url}/artifactory/api/go/go/example.com/acme/lib/@v/list`, {
      headers: { Authorization: basic(READER) },
    });
    expect(await list.text()).toBe('v0.1.0\n');
    const anonymous = await fetch(`${arca.url}/artifactory/api/go/go/example.com/acme/lib/@v/list`);
    expect(anonymous.status).toBe(401);
    const app = fs.mkdtempSync(path.join(home, 'stranger-'));
    fs.writeFileSync(path.join(app, 'go.mod'), 'module example.com/acme/stranger\n\ngo 1.19\n');
    await expect(
      go(['list', '-m', '-versions', 'example.com/acme/lib'], app, { user: 'nobody', password: 'Wrong-password-1' }),
    ).rejects.toThrow(/401/);
  });
});
