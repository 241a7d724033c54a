import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, formatRepositories, run, restCall } from './clients/clients';

/**
 * RubyGems proven with Debian's ruby: gems built with `gem build`, `gem push` with an API key,
 * `gem install` (the full index: specs and quick specs) and `bundle install` against a Gemfile
 * whose source is Arca (the compact index), a dependency from "rubygems.org" (a second Arca behind
 * a remote repository) resolved through a virtual repository; `gem yank`.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
const DEV = { user: 'dev', password: 'Dev-password-1' };
const READER = { user: 'reader', password: 'Reader-password-1' };
const ADMIN = { user: 'admin', password: ADMIN_PASSWORD };
const tokens: Record<string, string> = {};
const call = (server: RunningServer, method: string, url: string, body?: unknown, who = ADMIN) =>
  restCall(server.url, who, method, url, body);
const gemEnv = {
  ...env,
  GEM_HOME: path.join(home, 'gem-home'),
  GEM_PATH: path.join(home, 'gem-home'),
  BUNDLE_USER_HOME: path.join(home, 'bundle'),
};

/** A gem built with `gem build`. */
function buildGem(name: string, version: string, dependency?: [string, string]): string {
  const dir = fs.mkdtempSync(path.join(home, `${name}-`));
  const module = name.replace(/(^|[-_])(\w)/g, (_a, _b, c: string) => c.toUpperCase());
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(
    path.join(dir, 'lib', `${name}.rb`),
    `module ${module}\n  def self.hello = "hello from ${name} ${version}"\nend\n`,
  );
  fs.writeFileSync(
    path.join(dir, `${name}.gemspec`),
    [
      'Gem::Specification.new do |s|',
      `  s.name = '${name}'`,
      `  s.version = '${version}'`,
      `  s.summary = '${name} for tests'`,
      "  s.authors = ['Acme']",
      "  s.license = 'MIT'",
      `  s.files = ['lib/${name}.rb']`,
      dependency ? `  s.add_runtime_dependency '${dependency[0]}', '${dependency[1]}'` : '',
      'end',
      '',
    ].join('\n'),
  );
  execFileSync('gem', ['build', `${name}.gemspec`], { cwd: dir, env: gemEnv, stdio: 'ignore' });
  return path.join(dir, `${name}-${version}.gem`);
}

/** `gem push` with an API key, as gem sends it (the whole Authorization header). */
const push = (server: RunningServer, repo: string, file: string, key: string) =>
  run('gem', ['push', file, '--host', `${server.url}/artifactory/api/gems/${repo}`], {
    cwd: home,
    env: { ...gemEnv, GEM_HOST_API_KEY: key },
  });

const source = (who = DEV) =>
  `${arca.url.replace('http://', `http://${who.user}:${who.password}@`)}/artifactory/api/gems/gems/`;

beforeAll(async () => {
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call(upstream, 'PUT', '/artifactory/api/repositories/gems-public', { rclass: 'local', packageType: 'gems' });
  await formatRepositories(
    arca,
    { user: 'admin', password: ADMIN_PASSWORD },
    {
      packageType: 'gems',
      upstream: `${upstream.url}/artifactory/api/gems/gems-public/`,
      upstreamAs: { user: 'admin', password: ADMIN_PASSWORD },
      users: [
        { ...DEV, actions: ['read', 'write', 'delete'] },
        { ...READER, actions: ['read'] },
      ],
    },
  );
  const token = async (server: RunningServer, who: { user: string; password: string }) =>
    (
      (await (await call(server, 'POST', '/access/api/v1/tokens', { description: 'gem' }, who)).json()) as {
        access_token: string;
      }
    ).access_token;
  tokens.upstream = await token(upstream, ADMIN);
  tokens.dev = await token(arca, DEV);
  tokens.reader = await token(arca, READER);
  await push(upstream, 'gems-public', buildGem('up_tool', '2.0.0'), tokens.upstream);
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('gem and bundler against Arca', () => {
  it('pushes a gem and installs it with its upstream dependency through the virtual repository, with gem and with bundler', async () => {
    expect(await push(arca, 'gems', buildGem('hello_arca', '1.0.0', ['up_tool', '>= 2.0']), tokens.dev!)).toContain(
      'Successfully registered gem: hello_arca (1.0.0)',
    );
    const installed = await run(
      'gem',
      ['install', 'hello_arca', '--clear-sources', '--source', source(), '--no-document'],
      {
        cwd: home,
        env: gemEnv,
      },
    );
    expect(installed).toContain('Successfully installed up_tool-2.0.0');
    expect(installed).toContain('Successfully installed hello_arca-1.0.0');
    const said = await run(
      'ruby',
      ['-e', 'require "hello_arca"; require "up_tool"; puts HelloArca.hello, UpTool.hello'],
      {
        cwd: home,
        env: gemEnv,
      },
    );
    expect(said.trim().split('\n')).toEqual(['hello from hello_arca 1.0.0', 'hello from up_tool 2.0.0']);

    const app = fs.mkdtempSync(path.join(home, 'app-'));
    fs.writeFileSync(path.join(app, 'Gemfile'), `source "${source()}"\n\ngem "hello_arca", "~> 1.0"\n`);
    const bundled = await run('bundle', ['install', '--path', path.join(app, 'vendor')], {
      cwd: app,
      env: { ...gemEnv, BUNDLE_GEMFILE: path.join(app, 'Gemfile') },
    });
    expect(bundled).toContain('Fetching gem metadata');
    expect(fs.readFileSync(path.join(app, 'Gemfile.lock'), 'utf8')).toMatch(
      /hello_arca \(1\.0\.0\)\n\s+up_tool \(>= 2\.0\)/,
    );
  });

  it('refuses a version pushed again, a corrupt gem, and a push by a reader', async () => {
    const gem = buildGem('twice', '1.0.0');
    await push(arca, 'gems', gem, tokens.dev!);
    await expect(push(arca, 'gems', buildGem('twice', '1.0.0', ['up_tool', '>= 1']), tokens.dev!)).rejects.toThrow(
      /Repushing of gem versions is not allowed/,
    );
    const corrupt = path.join(home, 'broken-1.0.0.gem');
    fs.writeFileSync(corrupt, 'not a gem');
    const res = await fetch(`${arca.url}/artifactory/api/gems/gems/api/v1/gems`, {
      method: 'POST',
      headers: { Authorization: tokens.dev! },
      body: fs.readFileSync(corrupt),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('not a readable gem archive');
    await expect(push(arca, 'gems', buildGem('mine', '1.0.0'), tokens.reader!)).rejects.toThrow(/permission/);
    expect((await fetch(`${arca.url}/artifactory/api/gems/gems/specs.4.8.gz`)).status).toBe(401);
  });

  it('yanks a version out of both indexes', async () => {
    await push(arca, 'gems', buildGem('yanky', '1.0.0'), tokens.dev!);
    await push(arca, 'gems', buildGem('yanky', '1.1.0'), tokens.dev!);
    await run('gem', ['yank', 'yanky', '-v', '1.1.0', '--host', `${arca.url}/artifactory/api/gems/gems`], {
      cwd: home,
      env: { ...gemEnv, GEM_HOST_API_KEY: tokens.dev! },
    });
    const info = await fetch(`${arca.url}/artifactory/api/gems/gems/info/yanky`, {
      headers: { Authorization: tokens.dev! },
    });
    expect(
      (await info.text())
        .split('\n')
        .filter((l) => /^\d/.test(l))
        .map((l) => l.split(' ')[0]),
    ).toEqual(['1.0.0']);
    const remote = await run(
      'gem',
      ['search', '^yanky$', '--remote', '--all', '--clear-sources', '--source', source()],
      {
        cwd: home,
        env: gemEnv,
      },
    );
    expect(remote).toContain('yanky (1.0.0)');
  });
});
