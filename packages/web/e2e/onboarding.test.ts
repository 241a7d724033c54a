import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  NGINX,
  freePort,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';
import { clientHome, consoleFetch, restCall, run } from './clients/clients';

/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let arca: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const call = (method: string, url: string, body?: unknown) =>
  restCall(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
const consoleCall = (method: string, path: string, body?: unknown) =>
  consoleFetch(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, path, body);

beforeAll(async () => {
  arca = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await arca?.stop();
});

describe('first run', () => {
  let fresh: RunningServer;
  beforeAll(async () => {
    // a deployment of its own, as it is on its first start
    fresh = await startServer({}, { onboarding: true });
  });
  afterAll(async () => {
    await fresh?.stop();
  });
  const freshCall = (method: string, url: string) =>
    restCall(fresh.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url);

  it('takes a new administrator from login through the wizard to a copied snippet that npm works with', async () => {
    const { page, problems } = await signIn(browser, fresh.url, 'admin', ADMIN_PASSWORD);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fresh.url });
    await page.waitForURL('**/ui/quick-setup');
    await page.getByText('Welcome to Arca').waitFor();
    await screenshot(page, 'quick-setup-welcome');
    await page.getByRole('button', { name: 'Get started' }).click();

    // each step keeps the user until its rule holds, with the rule's message
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Select what you use the platform for.');
    await page.getByText('Commercial', { exact: true }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: 'Other' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Describe your role.').waitFor();
    await page.getByText('Enter your company name.').waitFor();
    await page.getByLabel('Your role, in your words').fill('Release manager');
    await page.getByLabel('Company name').fill('Acme');
    await screenshot(page, 'quick-setup-details');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Select at least one feature.');
    await page.getByRole('checkbox', { name: /Binary management/ }).check();
    await page.getByRole('checkbox', { name: /Container Registry/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();

    // the personalisation is with the server now, and no longer in the browser
    await page.getByRole('heading', { name: 'Which package types do you use?' }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('arca.onboarding'))).toBeNull();
    const data = (await (await freshCall('GET', '/ui/api/v1/system/onboarding')).json()) as { completed: boolean };
    expect(data.completed).toBe(true);
    await page.getByRole('checkbox', { name: 'npm' }).check();
    await page.getByRole('checkbox', { name: 'Generic' }).check();
    await screenshot(page, 'quick-setup-repositories');
    await page.getByRole('button', { name: 'Create repositories' }).click();
    await page.getByText('Your repositories are ready').waitFor();
    await screenshot(page, 'quick-setup-ready');
    const repos = (await (await freshCall('GET', '/artifactory/api/repositories')).json()) as { key: string }[];
    expect(repos.map((r) => r.key).sort()).toEqual(['generic', 'generic-local', 'npm', 'npm-local', 'npm-remote']);

    await page.getByRole('button', { name: 'Set Me Up' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Set Me Up: npm' });
    await dialog.getByRole('button', { name: 'Generate a token and fill it in' }).click();
    await dialog.getByText('A new access token is filled in below').waitFor();
    // a tab clicked while the dialog still zooms in may be missed: click until it is the selected one
    const npmrcTab = dialog.getByRole('tab', { name: /Or write \.npmrc/ });
    await expect
      .poll(async () => {
        await npmrcTab.click();
        return npmrcTab.getAttribute('aria-selected');
      })
      .toBe('true');
    await dialog.getByRole('button', { name: /Copy: Or write \.npmrc/ }).click();
    await dialog.getByText('Copied', { exact: true }).first().waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`registry=${fresh.url}/artifactory/api/npm/npm/`);
    expect(problems).toEqual([]);

    // the copied .npmrc as a developer would use it: publish through the virtual repository, install back
    const { home, env } = clientHome();
    const pkg = fs.mkdtempSync(path.join(home, 'pkg-'));
    fs.writeFileSync(path.join(pkg, '.npmrc'), `${copied}\n`);
    fs.writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: 'first-steps', version: '1.0.0', license: 'MIT', main: 'index.js' }),
    );
    fs.writeFileSync(path.join(pkg, 'index.js'), "module.exports = 'hello from Arca';\n");
    await run('npm', ['publish'], { cwd: pkg, env });
    const app = fs.mkdtempSync(path.join(home, 'app-'));
    fs.writeFileSync(path.join(app, '.npmrc'), `${copied}\n`);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    await run('npm', ['install', 'first-steps@1.0.0'], { cwd: app, env });
    expect(fs.readFileSync(path.join(app, 'node_modules/first-steps/index.js'), 'utf8')).toContain('hello from Arca');
    const stored = await freshCall('GET', '/artifactory/api/storage/npm-local/first-steps/-/first-steps-1.0.0.tgz');
    expect(stored.status).toBe(200);
    await page.context().close();
  });
});

describe('settings pages', () => {
  it('names the server in titles, shows an uploaded logo, writes the nginx configuration and keeps proxies', async () => {
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/configuration/general',
    });
    await page.getByRole('heading', { name: 'General Settings' }).waitFor();
    await page.getByLabel('Server name', { exact: true }).fill('Acme Artifacts');
    await page.getByLabel('Date format').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'YYYY-MM-DD HH:mm:ss' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('General settings were saved').waitFor();
    await expect.poll(() => page.title()).toBe('General Settings - Acme Artifacts');
    // one brand: the header names the server too
    await page.getByRole('banner').getByRole('img', { name: 'Acme Artifacts' }).waitFor();

    await page.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('The logo was uploaded').waitFor();
    await page.getByRole('img', { name: 'Uploaded logo' }).waitFor();
    await expect.poll(() => page.locator('header img[alt="Acme Artifacts"]').count()).toBeGreaterThan(0);
    await screenshot(page, 'general-settings');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'View nginx configuration' }).click();
    const nginx = page.getByRole('dialog', { name: 'nginx configuration' });
    await expect.poll(() => nginx.getByLabel('nginx configuration').innerText()).toContain('proxy_pass http://arca;');
    await screenshot(page, 'general-settings-nginx');
    await nginx.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

    await page.goto(`${arca.url}/ui/admin/proxies/configuration`);
    await page.waitForURL('**/admin/proxies/configuration/list');
    await page.getByText('No proxies yet').waitFor();
    await page.getByRole('button', { name: 'New Proxy' }).click();
    await page.getByRole('heading', { name: 'New Proxy' }).waitFor();
    await page.getByLabel('Key', { exact: true }).fill('corporate');
    await page.getByLabel('Host', { exact: true }).fill('proxy.acme.test');
    await page.getByLabel('Port', { exact: true }).fill('3128');
    await page.getByRole('checkbox', { name: 'System default' }).check();
    await page.getByLabel('User name', { exact: true }).fill('svc-arca');
    await page.getByLabel('Password', { exact: true }).fill('Proxy-Secret-1');
    await screenshot(page, 'proxy-form');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/proxies/configuration/list');
    const row = page.getByRole('row', { name: /corporate/ });
    await row.getByText('Default').waitFor();
    await row.getByText('proxy.acme.test:3128').waitFor();
    await screenshot(page, 'proxies');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe('reverse proxy', () => {
  let nginx: ChildProcess | undefined;
  afterAll(() => {
    nginx?.kill('SIGTERM');
  });

  it('serves Arca and a Docker repository on its own port through nginx with the configuration Arca writes', async () => {
    await call('PUT', '/artifactory/api/repositories/docker-local', { rclass: 'local', packageType: 'docker' });
    const layer = Buffer.from('layer bytes');
    const config = Buffer.from('{"architecture":"amd64","os":"linux"}');
    const digest = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
    for (const blob of [layer, config]) {
      const pushed = await fetch(`${arca.url}/v2/docker-local/hello/blobs/uploads/?digest=${digest(blob)}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/octet-stream' },
        body: blob,
      });
      expect(pushed.status).toBe(201);
    }
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digest(config), size: config.length },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: digest(layer), size: layer.length }],
    });
    const tagged = await fetch(`${arca.url}/v2/docker-local/hello/manifests/1.0`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: manifest,
    });
    expect(tagged.status).toBe(201);

    const [httpPort, registryPort] = [await freePort(), await freePort()];
    const saved = await consoleCall('GET', 'ui/generalConfig');
    expect(saved.status).toBe(200);
    const settings = (await saved.json()) as Record<string, unknown>;
    const put = await consoleCall('PUT', 'ui/generalConfig', {
      ...settings,
      reverseProxy: {
        serverName: 'localhost',
        dockerReverseProxyMethod: 'PORTPERREPO',
        reverseProxyRepositories: [{ repoKey: 'docker-local', port: registryPort }],
        useHttp: true,
        useHttps: false,
        httpPort,
        httpsPort: 443,
        sslCertificate: '',
        sslKey: '',
        upstream: arca.url,
      },
    });
    expect(put.status).toBe(200);
    const site = await (await call('GET', '/artifactory/api/system/configuration/reverseProxy/nginx')).text();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-nginx-'));
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nworker_processes 1;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n${site}\n}\n`,
    );
    nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
    const through = (port: number, url: string) =>
      fetch(`http://127.0.0.1:${port}${url}`, { headers: { authorization: auth } });
    await expect
      .poll(async () => (await through(httpPort, '/artifactory/api/system/ping').catch(() => undefined))?.status, {
        timeout: 10_000,
      })
      .toBe(200);
    // the registry's port names the repository: clients ask for hello, Arca answers docker-local/hello
    const tags = await through(registryPort, '/v2/hello/tags/list');
    expect(await tags.json()).toEqual({ name: 'docker-local/hello', tags: ['1.0'] });
    const pulled = await fetch(`http://127.0.0.1:${registryPort}/v2/hello/manifests/1.0`, {
      headers: { authorization: auth, accept: 'application/vnd.oci.image.manifest.v1+json' },
    });
    expect(await pulled.text()).toBe(manifest);
    expect((await through(registryPort, '/v2/')).status).toBe(200);
  });
});

describe('help, teasers and the playground', () => {
  it('reads the guides in the Education Center and explains the services Arca does not run', async () => {
    // whatever ran before: this administrator has seen Getting Started, so that / leads to the overview
    expect((await consoleCall('PUT', 'ui/userCustomData/gettingStartedSeen', { value: true })).status).toBe(204);
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, { at: '/education-center' });
    await page.getByRole('heading', { name: 'Education Center' }).waitFor();
    await page.getByLabel('Arca guide').getByRole('heading', { name: 'Arca', exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Deployment guide' }).click();
    await page.waitForURL('**/education-center?guide=deploy');
    await expect.poll(() => page.getByLabel('Deployment guide').innerText()).toContain('nginx');
    await page.getByRole('link', { name: '/api/openapi.json' }).waitFor();
    await screenshot(page, 'education-center');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${arca.url}/ui/admin/pipelines-teaser`);
    await page.getByRole('heading', { name: 'Pipelines' }).waitFor();
    await page.getByText('This service is not part of this deployment.').waitFor();
    // security scanning is part of Arca: the teaser's address opens its policies
    await page.goto(`${arca.url}/ui/admin/security-and-compliance-teaser`);
    await page.waitForURL('**/admin/security/policies');
    await page.getByRole('heading', { name: 'Security & Compliance' }).waitFor();
    await page.goto(`${arca.url}/ui/admin/pdn-teaser`);
    await page.getByRole('heading', { name: 'Private Distribution Network' }).waitFor();

    // without the tested-feature flag the template is not entered: loaded directly, the console starts over
    await page.goto(`${arca.url}/ui/template`);
    await page.waitForURL('**/ui/overview');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('opens the template and the demo playground when the tested-feature flag is on', async () => {
    const playground = await startServer({ ARCA_TESTED_FEATURES: 'true' });
    try {
      const { page, problems } = await signIn(browser, playground.url, 'admin', ADMIN_PASSWORD, { at: '/template' });
      await page.getByRole('heading', { name: 'Page template' }).waitFor();
      await page.getByText('No things yet. Create one to see it here.').waitFor();
      await screenshot(page, 'template');
      await page.goto(`${playground.url}/ui/demo`);
      await page.waitForURL('**/ui/demo/tree');
      await page.getByRole('link', { name: 'TypeScript' }).click();
      await page.waitForURL('**/ui/demo/typescript/greeting');
      await page.getByText('Hello from a strictly typed page.').waitFor();
      await page.getByRole('link', { name: 'Sub-applications' }).click();
      await page.getByText('Hello from the greeting sub-application').waitFor();
      await page.getByText(/^Mounted at /).waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await playground.stop();
    }
  });
});

describe('keys management', () => {
  it('generates a GPG key pair, verifies it and shows the keys that sign repository metadata', async () => {
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/artifactory/security/keys_management',
    });
    await page.getByRole('heading', { name: 'Keys Management' }).waitFor();
    await page.getByText('No key pairs yet.').waitFor();
    await page.getByRole('button', { name: 'Add Key Pair' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Key Pair' });
    await dialog.getByLabel('Name').fill('release');
    await dialog.getByLabel('Alias').fill('Acme Release');
    await dialog.getByRole('button', { name: 'Generate' }).last().click();
    await page.getByText('Key pair release was generated').waitFor();
    const row = page.getByRole('row', { name: /release/ });
    await row.getByText('GPG').waitFor();
    await row.getByRole('button', { name: 'Verify release' }).click();
    await page.getByText('The key pair signs and its public key verifies the signature.').waitFor();
    await screenshot(page, 'keys-management');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Signing Keys' }).click();
    await page.waitForURL('**/keys_management/signing-keys');
    await page.getByText('Deployment signing key', { exact: true }).waitFor();
    await page.getByText('Every repository signs with the deployment key.', { exact: false }).waitFor();
    await screenshot(page, 'signing-keys');
    await page.getByRole('tab', { name: 'Certificates' }).click();
    await page.waitForURL('**/keys_management/certificates');
    await page.getByText('No certificates yet.', { exact: false }).waitFor();
    // the console errors of the refused certificate below are expected ones
    expect(problems).toEqual([]);
    await page.getByRole('button', { name: 'Add Certificate' }).click();
    const add = page.getByRole('dialog', { name: 'Add Certificate' });
    await add.getByLabel('Alias').fill('broken');
    await add.getByLabel('PEM').fill('not a certificate');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await add.getByText('The PEM holds no certificate.').waitFor();
    await screenshot(page, 'certificates');
    await add.getByRole('button', { name: 'Cancel' }).click();
    await page.context().close();
  });
  it('runs the SSH server for the keys users add, trusts public keys that sign artifacts and imports key stores', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-e2e-keys-'));
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD);

    // the SSH server, turned on from its tab
    const sshPort = await freePort();
    await page.goto(`${arca.url}/ui/admin/artifactory/security/ssh_server`);
    await page.waitForURL('**/keys_management/ssh-server');
    await page.getByText('No user has added an SSH key yet.', { exact: false }).waitFor();
    await page.getByLabel('Enable SSH authentication').click();
    await page.getByLabel('Port', { exact: true }).fill(String(sshPort));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Listening on port ${sshPort}`).waitFor();
    const knownHosts = (await page
      .locator('.ant-typography code')
      .filter({ hasText: 'ssh-ed25519' })
      .first()
      .textContent())!;
    expect(knownHosts).toMatch(new RegExp(`^\\[[^\\]]+\\]:${sshPort} ssh-ed25519 `));

    // the administrator adds a key on the profile page, made by ssh-keygen
    const key = path.join(dir, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'admin@laptop', '-f', key]);
    await page.goto(`${arca.url}/ui/profile`);
    await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByText('No SSH keys.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Add SSH Key' }).click();
    const addKey = page.getByRole('dialog', { name: 'Add SSH Key' });
    await addKey.getByLabel('Public key').fill(fs.readFileSync(`${key}.pub`, 'utf8'));
    expect(await addKey.getByLabel('Title').inputValue()).toBe('admin@laptop');
    await addKey.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('The key “admin@laptop” was added').waitFor();
    const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${key}.pub`])
      .toString()
      .split(' ')[1]!;
    await page.getByText(fingerprint).waitFor();
    await screenshot(page, 'profile-ssh-keys');

    // OpenSSH's client checks the host key against the console's line and receives a token
    fs.writeFileSync(path.join(dir, 'known_hosts'), `${knownHosts.replace(/^\[[^\]]+\]/, '[127.0.0.1]')}\n`);
    const answer = JSON.parse(
      execFileSync('ssh', [
        '-p',
        String(sshPort),
        '-i',
        key,
        '-F',
        'none',
        '-o',
        'BatchMode=yes',
        '-o',
        'IdentitiesOnly=yes',
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        `UserKnownHostsFile=${path.join(dir, 'known_hosts')}`,
        'admin@127.0.0.1',
        'jfrog-authenticate',
      ]).toString(),
    ) as { href: string; headers: { Authorization: string } };
    const ping = await fetch(`${answer.href}api/repositories`, { headers: answer.headers });
    expect(ping.status).toBe(200);
    await page.goto(`${arca.url}/ui/admin/artifactory/security/keys_management/ssh-server`);
    const used = page.getByRole('row', { name: /admin@laptop/ });
    await used.getByText(/ago|now/).waitFor();
    await screenshot(page, 'ssh-server');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // a trusted public key, and a file whose signature it verifies
    const home = path.join(dir, 'gnupg');
    fs.mkdirSync(home, { mode: 0o700 });
    const gpg = (...args: string[]) =>
      execFileSync('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args]);
    gpg('--quick-generate-key', 'Acme Release <release@acme.test>', 'ed25519', 'sign', '1y');
    await call('PUT', '/artifactory/api/repositories/tools-local', { rclass: 'local', packageType: 'generic' });
    const tool = path.join(dir, 'tool-1.0.tar.gz');
    fs.writeFileSync(tool, 'the tool');
    gpg('--armor', '--detach-sign', '--output', `${tool}.asc`, tool);
    for (const file of [tool, `${tool}.asc`]) {
      const put = await fetch(`${arca.url}/artifactory/tools-local/${path.basename(file)}`, {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
        body: fs.readFileSync(file),
      });
      expect(put.status).toBe(201);
    }
    await page.getByRole('tab', { name: 'Public Keys' }).click();
    await page.waitForURL('**/keys_management/public-keys');
    await page.getByRole('button', { name: 'Add Public Key' }).click();
    const addPublic = page.getByRole('dialog', { name: 'Add Public Key' });
    await addPublic.getByLabel('Alias').fill('acme-release');
    await addPublic.getByLabel('Public key').fill(gpg('--armor', '--export').toString());
    await addPublic.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Public key acme-release is trusted').waitFor();
    await page
      .getByRole('row', { name: /acme-release/ })
      .getByText('Acme Release <release@acme.test>')
      .waitFor();
    await screenshot(page, 'public-keys');
    await page.goto(`${arca.url}/ui/repos/tree/General/tools-local/tool-1.0.tar.gz`);
    await page.getByText('Verified: signed by acme-release (Acme Release <release@acme.test>).').waitFor();
    await screenshot(page, 'artifact-signature');

    // a PKCS#12 key store made by keytool: its two entries become certificates
    const store = path.join(dir, 'edge.p12');
    const keytool = (...args: string[]) => execFileSync('keytool', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    keytool(
      '-genkeypair',
      '-alias',
      'edge',
      '-keyalg',
      'EC',
      '-dname',
      'CN=edge.acme.test',
      '-validity',
      '365',
      '-keystore',
      store,
      '-storetype',
      'PKCS12',
      '-storepass',
      's3cret',
    );
    keytool(
      '-exportcert',
      '-rfc',
      '-alias',
      'edge',
      '-keystore',
      store,
      '-storepass',
      's3cret',
      '-file',
      path.join(dir, 'edge.pem'),
    );
    keytool(
      '-importcert',
      '-noprompt',
      '-alias',
      'edge-ca',
      '-file',
      path.join(dir, 'edge.pem'),
      '-keystore',
      store,
      '-storetype',
      'PKCS12',
      '-storepass',
      's3cret',
    );
    await page.goto(`${arca.url}/ui/admin/artifactory/security/keys_management/java-key-store`);
    await page.locator('input[type=file]').setInputFiles(store);
    await page.getByTestId('key-store-file').getByText('edge.p12').waitFor();
    await page.getByLabel('Key store password').fill('wrong');
    await page.getByRole('button', { name: 'Read Key Store' }).click();
    await page.getByText('The password does not open the key store.').waitFor();
    await page.getByLabel('Key store password').fill('s3cret');
    await page.getByRole('button', { name: 'Read Key Store' }).click();
    await page.getByRole('row', { name: /edge-ca/ }).waitFor();
    await screenshot(page, 'java-key-store');
    await page.getByRole('button', { name: 'Import 2 Entries' }).click();
    await page.waitForURL('**/keys_management/certificates');
    await page.getByText('2 certificates were imported from edge.p12').waitFor();
    await page
      .getByRole('row', { name: /edge-ca/ })
      .getByText('Trusted authority')
      .waitFor();
    await page.getByRole('row', { name: /^edge .*Client/ }).waitFor();
    // the wrong password's refusal is the one console error expected
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await page.context().close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
