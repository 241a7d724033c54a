import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  startServer,
  watchConsole,
  type RunningServer,
} from './harness';
import { bin, clientHome, run, runInTerminal, restCall } from './clients/clients';

/**
 * The npm protocol proven with the real clients: npm (the installed one), pnpm and yarn classic.
 * A second Arca plays the public registry behind a remote repository; a virtual repository
 * combines it with the local one that the team publishes to.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
let registry: string;

const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

/** A folder with a package.json (and more files), published with npm's own `npm publish`. */
function packageDir(name: string, manifest: Record<string, unknown>, files: Record<string, string | Buffer> = {}) {
  const dir = fs.mkdtempSync(path.join(home, 'pkg-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, license: 'MIT', ...manifest }, null, 2));
  for (const [file, body] of Object.entries({ 'index.js': 'module.exports = {};\n', ...files })) {
    fs.writeFileSync(path.join(dir, file), body);
  }
  return dir;
}

/** An .npmrc naming a registry and a token for it, as Set Me Up shows it. */
function npmrc(dir: string, registryUrl: string, token: string) {
  const host = registryUrl.replace(/^https?:/, '');
  fs.writeFileSync(path.join(dir, '.npmrc'), `registry=${registryUrl}\n${host}:_authToken=${token}\n`);
}

const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env });

beforeAll(async () => {
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call(upstream, 'PUT', '/artifactory/api/repositories/public', { rclass: 'local', packageType: 'npm' });
  await call(arca, 'PUT', '/artifactory/api/repositories/npm-local', { rclass: 'local', packageType: 'npm' });
  await call(arca, 'PUT', '/artifactory/api/repositories/npmjs', {
    rclass: 'remote',
    packageType: 'npm',
    url: `${upstream.url}/artifactory/api/npm/public/`,
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  await call(arca, 'PUT', '/artifactory/api/repositories/npm', {
    rclass: 'virtual',
    packageType: 'npm',
    repositories: ['npm-local', 'npmjs'],
    defaultDeploymentRepo: 'npm-local',
  });
  await call(arca, 'PUT', '/artifactory/api/security/users/dev', {
    email: 'dev@example.com',
    password: 'Dev-password-1',
  });
  await call(arca, 'PUT', '/artifactory/api/v2/security/permissions/dev', {
    repo: { repositories: ['npm-local', 'npmjs', 'npm'], actions: { users: { dev: ['read', 'write', 'delete'] } } },
  });
  registry = `${arca.url}/artifactory/api/npm/npm/`;
  // the "public registry": a package published there with npm itself
  const token = (
    (await (await call(upstream, 'POST', '/access/api/v1/tokens', { description: 'publish' })).json()) as {
      access_token: string;
    }
  ).access_token;
  const pad = packageDir(
    'tiny-pad',
    { version: '1.0.0', main: 'index.js' },
    { 'index.js': 'module.exports = (s, n) => s.padStart(n);\n' },
  );
  npmrc(pad, `${upstream.url}/artifactory/api/npm/public/`, token);
  await npm(['publish'], pad);
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('npm, pnpm and yarn against Arca', () => {
  let token = '';
  let work = '';

  it('logs in with npm login (a token is issued) and answers whoami and ping', async () => {
    work = fs.mkdtempSync(path.join(home, 'work-'));
    fs.writeFileSync(path.join(work, '.npmrc'), `registry=${registry}\n`);
    const output = await runInTerminal(
      `npm login --auth-type=legacy --registry=${registry} --userconfig=${path.join(work, '.npmrc')}`,
      [
        ['Username:', 'dev'],
        ['Password:', 'Dev-password-1'],
      ],
      { cwd: work, env },
    );
    expect(output).toContain(`Logged in on ${registry}`);
    const saved = fs.readFileSync(path.join(work, '.npmrc'), 'utf8');
    token = /:_authToken=(\S+)/.exec(saved)![1]!;
    // a signed JWT, as Artifactory's tokens
    expect(token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await npm(['whoami', '--userconfig', path.join(work, '.npmrc')], work)).trim()).toBe('dev');
    expect(await npm(['ping', '--userconfig', path.join(work, '.npmrc')], work)).toContain('PONG');
  });

  it('publishes a scoped package, tags, deprecates, searches and views it', async () => {
    const app = packageDir(
      '@acme/greeter',
      {
        version: '1.0.0',
        description: 'Greets with padding',
        keywords: ['greeting'],
        main: 'index.js',
        dependencies: { 'tiny-pad': '^1.0.0' },
      },
      {
        'index.js': "const pad = require('tiny-pad');\nmodule.exports = (name) => pad(`hello ${name}`, 20);\n",
        'README.md': '# Greeter\n',
      },
    );
    npmrc(app, registry, token);
    expect(await npm(['publish'], app)).toContain('+ @acme/greeter@1.0.0');
    const manifest = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ ...manifest, version: '1.1.0-beta.1' }));
    await npm(['publish', '--tag', 'beta'], app);
    // the same version again is refused with npm's words
    await expect(npm(['publish', '--tag', 'beta'], app)).rejects.toThrow(
      /You cannot publish over the previously published versions: 1\.1\.0-beta\.1/,
    );
    await npm(['dist-tag', 'add', '@acme/greeter@1.0.0', 'stable'], app);
    await npm(['dist-tag', 'rm', '@acme/greeter', 'beta'], app);
    expect((await npm(['dist-tag', 'ls', '@acme/greeter'], app)).trim().split('\n').sort()).toEqual([
      'latest: 1.0.0',
      'stable: 1.0.0',
    ]);
    await npm(['deprecate', '@acme/greeter@1.1.0-beta.1', 'try 1.0.0'], app);
    expect((await npm(['view', '@acme/greeter@1.1.0-beta.1', 'deprecated'], app)).trim()).toBe('try 1.0.0');
    const view = JSON.parse(await npm(['view', '@acme/greeter', '--json'], app));
    expect(view).toMatchObject({
      name: '@acme/greeter',
      version: '1.0.0',
      description: 'Greets with padding',
      versions: ['1.0.0', '1.1.0-beta.1'],
    });
    expect(view.dist.tarball).toBe(`${registry}@acme/greeter/-/greeter-1.0.0.tgz`);
    const found = JSON.parse(await npm(['search', 'greet', '--json'], app)) as { name: string }[];
    expect(found.map((p) => p.name)).toEqual(['@acme/greeter']);
  });

  it('installs through the virtual repository with npm, pnpm and yarn, the dependency coming from the upstream', async () => {
    const dependency = { '@acme/greeter': '^1.0.0' };
    const outputs: Record<string, string> = {};
    for (const client of ['npm', 'pnpm', 'yarn'] as const) {
      const project = fs.mkdtempSync(path.join(home, `${client}-`));
      fs.writeFileSync(
        path.join(project, 'package.json'),
        JSON.stringify({ name: `use-${client}`, version: '1.0.0', private: true, dependencies: dependency }),
      );
      npmrc(project, registry, token);
      // yarn classic sends the token for unscoped packages only when told to (as Set Me Up says)
      if (client === 'yarn') fs.appendFileSync(path.join(project, '.npmrc'), 'always-auth=true\n');
      const clientEnv = { ...env, npm_config_userconfig: path.join(project, '.npmrc') };
      const args =
        client === 'npm'
          ? ['install']
          : client === 'pnpm'
            ? ['install', '--store-dir', path.join(home, 'pnpm-store'), '--reporter', 'append-only']
            : ['install', '--non-interactive', '--registry', registry];
      await run(client === 'npm' ? 'npm' : bin(client), args, { cwd: project, env: clientEnv });
      outputs[client] = (
        await run('node', ['-e', "console.log(require('@acme/greeter')('arca'))"], { cwd: project, env: clientEnv })
      ).trimEnd();
    }
    expect(outputs).toEqual({
      npm: '          hello arca',
      pnpm: '          hello arca',
      yarn: '          hello arca',
    });
    // the upstream's package is cached by the remote repository now
    const cached = await (await call(arca, 'GET', '/artifactory/api/storage/npmjs/tiny-pad/-?list')).json();
    expect((cached as { files: { uri: string }[] }).files.map((f) => f.uri)).toEqual(['/tiny-pad-1.0.0.tgz']);
  });

  it('unpublishes one version, then the whole package, with the delete right', async () => {
    const cwd = fs.mkdtempSync(path.join(home, 'unpublish-'));
    npmrc(cwd, registry, token);
    await npm(['unpublish', '@acme/greeter@1.1.0-beta.1'], cwd);
    expect(JSON.parse(await npm(['view', '@acme/greeter', 'versions', '--json'], cwd))).toEqual(['1.0.0']);
    await npm(['unpublish', '@acme/greeter', '--force'], cwd);
    await expect(npm(['view', '@acme/greeter'], cwd)).rejects.toThrow(/404/);
  });

  it('publishes and installs a 20 MB package intact', async () => {
    const payload = randomBytes(20 * 1024 * 1024);
    const big = packageDir('big-blob', { version: '1.0.0', main: 'index.js' }, { 'blob.bin': payload });
    npmrc(big, registry, token);
    await npm(['publish'], big);
    const project = fs.mkdtempSync(path.join(home, 'big-'));
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'use-big', version: '1.0.0', private: true }),
    );
    npmrc(project, registry, token);
    await npm(['install', 'big-blob@1.0.0'], project);
    const installed = fs.readFileSync(path.join(project, 'node_modules/big-blob/blob.bin'));
    expect(createHash('sha256').update(installed).digest('hex')).toBe(
      createHash('sha256').update(payload).digest('hex'),
    );
  });
});

/** The code of the current 30-second step of an authenticator, or of a later one. */
const totp = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

/** Enrols a user's authenticator through the console's calls; answers its secret. */
async function enrolAuthenticator(user: string, password: string): Promise<string> {
  const xhr = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const login = await fetch(`${arca.url}/ui/api/v1/ui/auth/login`, {
    method: 'POST',
    headers: xhr,
    body: JSON.stringify({ user, password, type: 'login' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { secret } = (await (
    await fetch(`${arca.url}/ui/api/v1/auth/mfa/enroll/`, { headers: { cookie } })
  ).json()) as {
    secret: string;
  };
  const confirmed = await fetch(`${arca.url}/ui/api/v1/auth/mfa/enroll/`, {
    method: 'POST',
    headers: { ...xhr, cookie },
    body: JSON.stringify({ otp: totp(secret) }),
  });
  expect(confirmed.status).toBe(200);
  return secret;
}

describe('npm login for a user with a second factor', () => {
  it('asks the password login for the authenticator code, and refuses it without one', async () => {
    await call(arca, 'PUT', '/artifactory/api/security/users/otp-dev', {
      email: 'otp-dev@example.com',
      password: 'Otp-password-1',
    });
    const secret = await enrolAuthenticator('otp-dev', 'Otp-password-1');
    const work = fs.mkdtempSync(path.join(home, 'otp-login-'));
    const userconfig = path.join(work, '.npmrc');
    fs.writeFileSync(userconfig, `registry=${registry}\n`);
    const output = await runInTerminal(
      `npm login --auth-type=legacy --registry=${registry} --userconfig=${userconfig}`,
      [
        ['Username:', 'otp-dev'],
        ['Password:', 'Otp-password-1'],
        ['Enter OTP:', totp(secret, 1)],
      ],
      { cwd: work, env },
    );
    expect(output).toContain('This operation requires a one-time password.');
    expect(output).toContain(`Logged in on ${registry}`);
    expect((await npm(['whoami', '--userconfig', userconfig], work)).trim()).toBe('otp-dev');
    // the password alone, as scripts send it, gets no token
    const alone = await fetch(`${registry}-/user/org.couchdb.user:otp-dev`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'otp-dev', password: 'Otp-password-1' }),
    });
    expect(alone.status).toBe(401);
    expect(((await alone.json()) as { error: string }).error).toContain(
      `npm login --auth-type=web --registry=${registry}`,
    );
  });

  it('signs in with npm login --auth-type=web, approved in the browser with the second factor', async () => {
    await call(arca, 'PUT', '/artifactory/api/security/users/sec', {
      email: 'sec@example.com',
      password: 'Sec-password-1',
    });
    const secret = await enrolAuthenticator('sec', 'Sec-password-1');
    const work = fs.mkdtempSync(path.join(home, 'web-login-'));
    const userconfig = path.join(work, '.npmrc');
    fs.writeFileSync(userconfig, `registry=${registry}\n`);

    // npm prints where to sign in, then waits for the approval
    const child = spawn('npm', ['login', '--auth-type=web', `--registry=${registry}`, `--userconfig=${userconfig}`], {
      cwd: work,
      env,
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await expect.poll(() => /http\S+\/ui\/web-login\/\S+/.exec(output)?.[0], { timeout: 30_000 }).toBeTruthy();
      const loginUrl = /http\S+\/ui\/web-login\/\S+/.exec(output)![0];

      const { browser, close } = await launchBrowser();
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
        const page = await context.newPage();
        const problems = watchConsole(page);
        // not signed in yet: the console asks for the password and the code, then comes back here
        await page.goto(loginUrl);
        await page.waitForURL((url) => url.pathname === '/ui/login');
        await page.getByLabel('Username').fill('sec');
        await page.getByLabel('Password').fill('Sec-password-1');
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL('**/ui/login/otp-login');
        await page.locator('.ant-otp input').first().click();
        await page.keyboard.type(totp(secret, 1));
        await page.getByRole('button', { name: 'Verify' }).click();
        await page.waitForURL((url) => url.pathname.startsWith('/ui/web-login/'));
        await page.getByRole('button', { name: 'Approve sign-in' }).waitFor();
        await expect.poll(() => page.getByText('npm/').first().isVisible()).toBe(true);
        await screenshot(page, 'npm-web-login-approve');
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Approve sign-in' }).click();
        await page.getByText('Signed in', { exact: true }).waitFor();
        expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
      } finally {
        await close();
      }
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
    expect(output).toContain(`Logged in on ${registry}`);
    expect(fs.readFileSync(userconfig, 'utf8')).toMatch(/:_authToken=eyJ/);
    expect((await npm(['whoami', '--userconfig', userconfig], work)).trim()).toBe('sec');
  });
});
