import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../server/src/cli';
import { hashPassword } from '../../server/src/core/passwords';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  watchConsole,
  chooseMenuItem,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  return { page, problems: watchConsole(page) };
}

async function logIn(page: Page, password = ADMIN_PASSWORD) {
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function issueKey(edition: string, licensee: string): Promise<string> {
  const lines: string[] = [];
  const previous = process.env.ARCA_DATA_DIR;
  process.env.ARCA_DATA_DIR = server.dataDir;
  try {
    expect(
      await runCli(['license', 'issue', '--edition', edition, '--licensee', licensee, '--days', '30'], (l) =>
        lines.push(l),
      ),
    ).toBe(0);
  } finally {
    process.env.ARCA_DATA_DIR = previous;
  }
  return lines[0]!;
}

describe('the console against a real server', () => {
  it('shows the server message on a wrong password', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/ui/`);
    await expect.poll(() => page.url()).toContain('/ui/login');
    await logIn(page, 'not-the-password');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Incorrect username or password.');
    await screenshot(page, 'login-wrong-password');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('logs the admin in, shows the footer license, filters the admin menu, shows 404 and logs out', async () => {
    const { page, problems } = await newPage();
    await page.goto(`${server.url}/ui/`);
    await page.getByLabel('Username').waitFor();
    expect(await page.title()).toBe('Login - Arca');
    await screenshot(page, 'login');
    await logIn(page);
    await page.waitForURL('**/ui/overview');
    await expect
      .poll(() => page.getByTestId('footer-license').textContent())
      .toBe('Open Source license, licensed to Open Source');
    expect(await page.getByTestId('footer-build').textContent()).toMatch(/^Build 0\.1\.0/);
    expect(await page.title()).toBe('Overview - Arca');
    await screenshot(page, 'overview');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.locator('.ant-segmented').getByText('Administration').click();
    await page.waitForURL('**/ui/admin/artifactory/list');
    await page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: /Users/ }).count()).toBeGreaterThan(0);
    await page.getByLabel('Search settings').fill('heart');
    await expect.poll(() => page.locator('.arca-admin-card').count()).toBe(1);
    expect(await page.locator('.arca-admin-card mark').first().textContent()).toBe('heart');
    expect(await page.locator('.arca-admin-card').textContent()).toContain('Service Status');
    await screenshot(page, 'admin-menu-filtered');
    await page.getByLabel('Search settings').fill('zzzz');
    await page.getByText('No settings match').waitFor();

    await page.goto(`${server.url}/ui/no/such/page`);
    await page.waitForURL('**/ui/404');
    await page.getByText('The page you were looking for does not exist.').waitFor();
    await screenshot(page, 'not-found');

    await page.goto(`${server.url}/ui/admin`);
    await page.waitForURL('**/ui/admin/management/users');
    await page.getByRole('button', { name: 'Edit admin' }).waitFor();
    await screenshot(page, 'users');

    await page.getByRole('button', { name: /User menu for admin/ }).click();
    await chooseMenuItem(page, 'Log out');
    await page.waitForURL('**/ui/login?logout=true');
    // the form is enabled once the session has ended on the server
    await expect.poll(() => page.getByLabel('Username').isEnabled()).toBe(true);
    await screenshot(page, 'logged-out');
    await page.goto(`${server.url}/ui/overview`);
    await page.waitForURL('**/ui/login?logout=true');
    await page.getByText('You are not authorized to view this page').waitFor();
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await page.context().close();
  });

  it('installs a license from the licenses page, asking before discarding an unsaved key', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/ui/admin/monitoring/service-status`);
    await page.waitForURL('**/ui/login?logout=true');
    await logIn(page);
    // the remembered path brings the admin back to the page asked for
    await page.waitForURL('**/ui/admin/monitoring/service-status');
    await page.getByRole('cell', { name: 'Online' }).first().waitFor();
    await screenshot(page, 'service-status');

    await page.getByRole('link', { name: 'Licenses' }).click();
    await page.getByText('Installed license').waitFor();
    await page.getByLabel('License key').fill('not a key');
    await page.getByRole('link', { name: 'Users' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You have unsaved changes. Leaving this page will discard changes.').waitFor();
    await dialog.getByRole('button', { name: 'Discard' }).waitFor();
    await screenshot(page, 'unsaved-changes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(page.url()).toContain('/license_management/licenses');

    await page.getByRole('button', { name: 'Install' }).click();
    await page
      .locator('#main-content')
      .getByRole('alert')
      .getByText('The license key is malformed', { exact: false })
      .waitFor();

    const key = await issueKey('ENTERPRISE_PLUS', 'E2E Corp');
    await page.getByLabel('License key').fill(key);
    await page.getByRole('button', { name: 'Install' }).click();
    await expect
      .poll(() => page.getByTestId('footer-license').textContent())
      .toBe('Enterprise+ license, licensed to E2E Corp');
    await expect.poll(() => page.getByLabel('License key').inputValue()).toBe('');
    await screenshot(page, 'licenses');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('sends the admin to the licenses page once the license has expired, until a valid one is installed', async () => {
    const db = new Database(path.join(server.dataDir, 'arca.db'));
    db.prepare('UPDATE licenses SET expires_at = ? WHERE active = 1').run(Date.now() - 60_000);
    db.close();
    const { page } = await newPage();
    await page.goto(`${server.url}/ui/`);
    await page.waitForURL('**/ui/login?logout=true');
    await logIn(page);
    await page.waitForURL('**/ui/admin/license_management/licenses');
    await page.getByText('The license has expired').waitFor();
    await expect.poll(() => page.getByTestId('footer-license').textContent()).toBe('No valid license');
    await screenshot(page, 'license-expired');
    // every other page leads back here
    await page.goto(`${server.url}/ui/admin/management/users`);
    await page.waitForURL('**/ui/admin/license_management/licenses');

    await page.getByLabel('License key').fill(await issueKey('ENTERPRISE', 'Renewed Inc'));
    await page.getByRole('button', { name: 'Install' }).click();
    await expect
      .poll(() => page.getByTestId('footer-license').textContent())
      .toBe('Enterprise license, licensed to Renewed Inc');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/ui/admin/management/users');
    await page.context().close();
  });

  it('checks the session again when activity resumes after 60 s idle, and goes to login when it has ended', async () => {
    const { page } = await newPage();
    await page.clock.install();
    await page.goto(`${server.url}/ui/login`);
    await logIn(page);
    await page.waitForURL('**/ui/overview');
    // the session ends on the server while the page sits idle
    await page.request.get(`${server.url}/ui/api/v1/auth/logout`);
    await page.clock.fastForward(61_000);
    await page.getByRole('heading', { name: 'Overview' }).click();
    await page.waitForURL('**/ui/login?logout=true&fromUnauthorized=true');
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    await screenshot(page, 'session-ended');
    await page.context().close();
  });

  it('starts again at / as the new user when another user signs in under the console', async () => {
    const db = new Database(path.join(server.dataDir, 'arca.db'));
    db.prepare(
      'INSERT INTO users (id, name, email, password_hash, admin, disable_ui_access, must_change_password, realm, created_at) VALUES (?, ?, ?, ?, 0, 0, 0, ?, ?)',
    ).run('u-dev', 'dev', 'dev@example.com', await hashPassword('dev-password'), 'internal', Date.now());
    db.close();
    const { page } = await newPage();
    await page.clock.install();
    await page.goto(`${server.url}/ui/login`);
    await logIn(page);
    await page.waitForURL('**/ui/overview');
    await page
      .getByRole('link', { name: /Service Status/ })
      .first()
      .click();
    await page.waitForURL('**/ui/admin/monitoring/service-status');
    // another tab signs in as someone else: the session cookie now belongs to 'dev'
    const other = await page.request.post(`${server.url}/ui/api/v1/ui/auth/login`, {
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      data: { user: 'dev', password: 'dev-password', type: 'login' },
    });
    expect(other.status()).toBe(200);
    await page.clock.fastForward(61_000);
    await page.keyboard.press('Shift');
    await page.getByRole('button', { name: /User menu for dev/ }).waitFor();
    // a non-admin lands on Packages (spec §2), not on the admin page that was open
    await page.waitForURL('**/ui/packages');
    await page.context().close();
  });

  it('creates a user, edits it and deletes it with confirmation on the users page', async () => {
    const { page } = await newPage();
    await page.goto(`${server.url}/ui/login`);
    await logIn(page);
    await page.waitForURL('**/ui/overview');
    // while the list has not answered it says so, never "No users yet."
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/ui/api/v1/ui/users', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/ui/admin/management/users`);
    await page.getByText('Loading the users…').waitFor();
    await screenshot(page, 'users-loading');
    expect(await page.getByText('No users yet.').count()).toBe(0);
    answer();
    await page.getByLabel('Select admin').waitFor();
    expect(await page.getByText('Loading the users…').count()).toBe(0);
    await page.unrouteAll();
    await page.getByRole('button', { name: /New User/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('User name').fill('carol');
    await dialog.getByLabel('E-mail', { exact: true }).fill('carol@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('The password must be at least 8 characters long.').waitFor();
    await dialog.getByLabel('Password', { exact: true }).fill('carol-password');
    await screenshot(page, 'user-new');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'carol@example.com' }).waitFor();

    await page.getByRole('button', { name: 'Edit carol' }).click();
    await page.getByRole('dialog').getByLabel('E-mail', { exact: true }).fill('carol@acme.example');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'carol@acme.example' }).waitFor();

    await page.getByLabel('Select carol').check();
    await page.getByRole('button', { name: /Delete \(1\)/ }).click();
    await page.getByRole('dialog').getByText('carol will no longer be able to sign in.').waitFor();
    await screenshot(page, 'users-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'carol@acme.example' }).count()).toBe(0);
    await page.context().close();
  });

  it('gives every spec route its page: PDN, deployment bindings, pipelines results, CLI login, absent services in the frame', async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
    const visit = async (route: string, heading: string | RegExp) => {
      await page.goto(`${server.url}/ui${route}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(page.url(), route).not.toContain('/404');
      // one h1, and the console's frame: its header and its menu
      expect(await page.getByRole('heading', { level: 1 }).count(), route).toBe(1);
      await page.getByRole('banner').waitFor();
      expect(await seriousA11yViolations(page), route).toEqual([]);
    };
    await visit('/admin/monitoring/pdn', /Distribution Network/);
    await visit('/admin/mission_control/deployment_bindings', 'Platform Deployments');
    await visit('/pipelinesSearchResults', /Pipelines/);
    await visit('/distribution/release_bundles', 'Service not found');
    await page.getByText('The service behind this page is not installed on this deployment.').waitFor();
    await screenshot(page, 'service-not-found');
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL('**/ui/pipelinesSearchResults');
    // the CLI's login address after a sign-in: the approval page, saying the request is unknown
    await page.goto(`${server.url}/ui/login/cli?jfClientSession=${crypto.randomUUID()}`);
    await page.getByText('This sign-in request does not exist or has expired.', { exact: false }).waitFor();
    expect(page.url()).not.toContain('/404');
    // sign-in steps opened while signed in say so, and offer the way that fits
    await page.goto(`${server.url}/ui/login/otp-login`);
    await page.getByText('You are signed in as admin').waitFor();
    expect(await page.getByLabel('Authentication code').count()).toBe(0);
    await page.getByRole('button', { name: 'Stay signed in as admin' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'otp-signed-in');
    await page.goto(`${server.url}/ui/login/change-password/admin`);
    await page.getByRole('button', { name: 'Change my password on Edit Profile' }).click();
    await page.waitForURL('**/ui/profile');
    // opened without a request: said in words, not a schema's message
    await page.goto(`${server.url}/ui/login/cli-registration`);
    await page.getByRole('heading', { level: 1, name: 'No sign-in to approve' }).waitFor();
    await page.getByText('This page approves a sign-in that a command line started.', { exact: false }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    await page.context().close();
  });
});
