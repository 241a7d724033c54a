import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipOf } from '../../server/src/test/zip';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';

/**
 * The README's shell snippets, run as printed against a running server: the address and the
 * password filled in, files a snippet names made first, paths under / moved under the test's
 * directory. A command not run here says why, and which test proves it the same way.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

interface Command {
  /** Where it starts in the README. */
  line: number;
  text: string;
}

/** The ```sh blocks, each as its commands (a line continued with \ and a here-document are one command). */
function shellBlocks(): Command[][] {
  const lines = README.split('\n');
  const blocks: Command[][] = [];
  let block: Command[] | undefined;
  let pending: Command | undefined;
  let heredoc: string | undefined;
  for (const [index, line] of lines.entries()) {
    if (!block) {
      if (line === '```sh') block = [];
      continue;
    }
    if (line === '```') {
      blocks.push(block);
      block = undefined;
      continue;
    }
    if (!pending) {
      if (!line.trim() || line.trim().startsWith('#')) continue;
      pending = { line: index + 1, text: line };
    } else pending.text += `\n${line}`;
    if (heredoc) {
      if (line.trim() === heredoc) heredoc = undefined;
    } else heredoc = /<<'?(\w+)'?/.exec(line)?.[1];
    const open = heredoc !== undefined || line.endsWith('\\') || (/^for\b/.test(pending.text) && !/\bdone$/.test(line));
    if (!open) {
      block.push(pending);
      pending = undefined;
    }
  }
  return blocks;
}

/** Commands not run here, and why. */
const NOT_RUN: { command: RegExp; why: string }[] = [
  { command: /^npm ci && npm test$/, why: 'this test is part of it' },
  { command: /^npm (test --|run test:changed)/, why: 'runs tests of this suite: npm test runs them all' },
  {
    command: /^(ARCA_\w+=\S+ )*npm (ci && npm )?start$/,
    why: 'starts the platform: the harness starts the same built server (npm start runs it), on a free port',
  },
  {
    command: /^ARCA_DATABASE_URL=.*\n?.*npm start$/,
    why: 'starts a node of a cluster: cluster.test.ts starts three on PostgreSQL and the S3-API server',
  },
  {
    command: /^npm login /,
    why: 'asks for a user and password, or for an approval in the console: npm-clients.test.ts signs in both ways',
  },
  { command: /^npm publish /, why: "needs npm login's token and a package: npm-clients.test.ts publishes" },
  {
    command: /^(twine upload|pip install) /,
    why: 'needs a built distribution: pypi-clients.test.ts uploads and installs',
  },
  {
    command: /^(for ext in|GOPROXY=)/,
    why: 'needs TLS at arca.example.com: go-clients.test.ts runs go behind nginx with TLS',
  },
  {
    command: /^(gem|bundle) |^cat > Gemfile/,
    why: 'needs a built gem: gems-clients.test.ts pushes and installs with gem and bundle',
  },
  {
    command: /helm-local/,
    why: "helm is not among Debian's packages: helm.routes.test.ts serves charts as helm reads them",
  },
  {
    command: /\bsudo\b/,
    why: "changes this machine's apt configuration: debian-clients.test.ts runs apt the same way with a private configuration",
  },
  {
    command: /"package_type": "build"/,
    why: 'needs a published build: scanning.policies.test.ts exports the SBOM of a build and of a release bundle',
  },
  { command: /^mvn /, why: 'needs a jar and settings.xml credentials: maven-clients.test.ts deploys with mvn' },
  { command: /^skopeo /, why: 'needs an image archive: oci-clients.test.ts logs in and copies with skopeo' },
  { command: /^ssh /, why: "needs the SSH server's port and a key: ssh.test.ts runs jfrog-authenticate with ssh" },
  {
    command: /^npm audit /,
    why: 'needs a project with a lock file: npm.audit.test.ts runs npm audit through a virtual repository whose remote is another Arca holding OSV advisories',
  },
  {
    command: /\/lifecycle\/api\/v2\/(release_bundle|promotion)\b/,
    why: 'needs a published build, a key pair and an environment with repositories: release-bundles.test.ts creates from a build and promotes with the same calls',
  },
];

/** The snippet's text made runnable here: this server's address and password, paths under / moved under `work`. */
function filled(text: string, url: string, work: string): string {
  return text
    .replaceAll('http://localhost:8082', url)
    .replaceAll('https://arca.example.com', url)
    .replaceAll('admin:…', 'admin:$PASSWORD')
    .replaceAll('/etc/nginx/conf.d/', `${work}/etc/nginx/conf.d/`)
    .replaceAll('/mnt/backups/', `${work}/mnt/backups/`)
    .replaceAll('/srv/arca-new', `${work}/srv/arca-new`)
    .replace(/> fleet\.json/g, `> ${work}/fleet.json`);
}

let server: RunningServer;
let work: string;

beforeAll(async () => {
  server = await startServer();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-readme-'));
  // the files the snippets name
  fs.writeFileSync(path.join(work, 'app-1.0.zip'), Buffer.from('a release of app'));
  fs.writeFileSync(path.join(work, 'app.zip'), Buffer.from('a build of app'));
  // an OSV export as osv.dev serves an ecosystem's (one record in it)
  fs.writeFileSync(
    path.join(work, 'all.zip'),
    zipOf({
      'GHSA-readme-0001.json': JSON.stringify({
        id: 'GHSA-readme-0001',
        modified: '2026-11-01T00:00:00Z',
        summary: 'left-pad pads too far',
        affected: [
          {
            package: { ecosystem: 'npm', name: 'left-pad' },
            ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.3.1' }] }],
          },
        ],
      }),
    }),
  );
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=arca-client',
    '-days',
    '1',
    '-keyout',
    path.join(work, 'client.key'),
    '-out',
    path.join(work, 'client.crt'),
  ]);
  for (const dir of ['etc/nginx/conf.d', 'mnt/backups']) fs.mkdirSync(path.join(work, dir), { recursive: true });
  // curl as a careful user runs it: an answer of 400 or more fails the snippet
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'curl'),
    '#!/bin/sh\nfor a in "$@"; do case "$a" in --fail|--fail-with-body) exec /usr/bin/curl "$@";; --*) ;; -*f*) exec /usr/bin/curl "$@";; esac; done\nexec /usr/bin/curl --fail-with-body "$@"\n',
    { mode: 0o755 },
  );
  // npm reads the registry with the token npm login would have stored
  const host = server.url.replace(/^http:/, '');
  fs.writeFileSync(
    path.join(work, '.npmrc'),
    `${host}/artifactory/api/npm/npm/:_auth=${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}\n`,
  );
});
afterAll(async () => {
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the README', () => {
  it('runs every shell snippet as printed, or says which test proves the commands it does not run', async () => {
    const ran: string[] = [];
    const failures: string[] = [];
    // each reason not to run still names a command of the README
    const commands = shellBlocks().flat();
    expect(NOT_RUN.filter((rule) => !commands.some((c) => rule.command.test(c.text))).map((r) => r.why)).toEqual([]);
    for (const block of shellBlocks()) {
      const runnable = block.filter((command) => !NOT_RUN.some((rule) => rule.command.test(command.text)));
      if (!runnable.length) continue;
      // one shell per snippet, as a reader pastes it: a variable set by one command is there for the next
      const script = ['set -euo pipefail', ...runnable.map((c) => filled(c.text, server.url, work))].join('\n');
      const atRoot = runnable.some((c) => c.text.includes('npm run arca'));
      const result = spawnSync('bash', ['-c', script], {
        cwd: atRoot ? ROOT : work,
        env: {
          ...process.env,
          PATH: `${path.join(work, 'bin')}:${process.env.PATH ?? ''}`,
          PASSWORD: ADMIN_PASSWORD,
          ARCA_DATA_DIR: server.dataDir,
          ARCA_DATABASE_URL: '',
          NPM_CONFIG_USERCONFIG: path.join(work, '.npmrc'),
          npm_config_cache: path.join(work, '.npm'),
        },
        encoding: 'utf8',
        timeout: 180_000,
      });
      const where = `README.md:${runnable[0]!.line}`;
      ran.push(...runnable.map((c) => `README.md:${c.line}`));
      if (result.status !== 0) failures.push(`${where}: exit ${result.status}\n${result.stdout}\n${result.stderr}`);
    }
    expect(failures).toEqual([]);
    // the snippets of the REST API, access, search, webhooks, LDAP, certificates, licences and backup ran
    expect(ran.length).toBeGreaterThanOrEqual(30);
    // and left what they say, as a user checks it afterwards
    const auth = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
    const get = async (url: string) => fetch(`${server.url}${url}`, { headers: auth });
    // the generic snippet restored the file it deleted and removed the repository it had copied to
    expect((await get('/artifactory/libs-local/acme/app/1.0/app-1.0.zip')).status).toBe(200);
    expect((await get('/artifactory/api/repositories/release-local')).status).toBe(404);
    // the access snippet's user deployed with her token
    expect(await (await get('/artifactory/libs-local/app.zip')).text()).toBe('a build of app');
    expect(await (await get('/artifactory/api/storage/libs-local/app.zip')).json()).toMatchObject({ createdBy: 'ann' });
    // npm installed left-pad through the virtual repository
    expect(fs.existsSync(path.join(work, 'node_modules/left-pad/package.json'))).toBe(true);
    // the nginx configuration and the backup are where the snippets put them
    expect(fs.readFileSync(path.join(work, 'etc/nginx/conf.d/arca.conf'), 'utf8')).toContain('proxy_pass');
    expect(fs.readdirSync(path.join(work, 'mnt/backups/arca')).length).toBeGreaterThan(0);
    expect(JSON.parse(fs.readFileSync(path.join(work, 'fleet.json'), 'utf8'))).toBeTruthy();
    // the scanning snippet imported the OSV export: the same file again changes nothing
    const again = await fetch(`${server.url}/xray/api/v1/advisories/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/zip' },
      body: new Uint8Array(fs.readFileSync(path.join(work, 'all.zip'))),
    });
    expect(await again.json()).toEqual({ added: 0, updated: 0, unchanged: 1, records: 1 });
    // the policy and the watch are there, and the SBOM of the version npm installed was exported
    expect((await get('/xray/api/v2/watches/shipping')).status).toBe(200);
    const sbom = fs.readFileSync(path.join(work, 'sbom.zip'));
    expect(sbom.includes('left-pad-1.3.0.cdx.json') && sbom.includes('left-pad-1.3.0.spdx.json')).toBe(true);
  }, 600_000);
});
