import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCall } from './clients/clients';
import {
  chooseOption,
  ADMIN_PASSWORD,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
} from './harness';

/** The overview an administrator lands on, the tokens administrators make for others, and lists that fail. */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const admin = { user: 'admin', password: ADMIN_PASSWORD };
const call = (method: string, url: string, body?: unknown) => restCall(server.url, admin, method, url, body);

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  await call('PUT', '/artifactory/api/repositories/libs-release', { rclass: 'local', packageType: 'generic' });
  await call('PUT', '/artifactory/api/repositories/docs', { rclass: 'local', packageType: 'generic' });
  const auth = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
  for (const [path, size] of [
    ['libs-release/org/acme/app/1.0/app-1.0.zip', 40_000],
    ['libs-release/org/acme/app/1.1/app-1.1.zip', 52_000],
    ['docs/manual/guide.pdf', 12_000],
  ] as const) {
    await fetch(`${server.url}/artifactory/${path}`, {
      method: 'PUT',
      headers: { authorization: auth },
      body: Buffer.alloc(size, 7),
    });
  }
  for (let i = 0; i < 4; i++)
    await fetch(`${server.url}/artifactory/libs-release/org/acme/app/1.1/app-1.1.zip`, {
      headers: { authorization: auth },
    });
  await call('PUT', '/artifactory/api/build', {
    version: '1.0.1',
    name: 'acme-app',
    number: '7',
    started: new Date().toISOString().replace('Z', '+0000'),
    modules: [],
  });
  await call('PUT', '/artifactory/api/security/users/ci-bot', {
    email: 'ci@example.com',
    password: 'Ci-bot-password-1',
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** Signed in as the administrator, on the console's page at `at` (the landing page unless told). */
async function admins(
  at?: string,
  viewport?: { width: number; height: number },
): Promise<{ page: Page; problems: string[] }> {
  return signIn(browser, server.url, 'admin', ADMIN_PASSWORD, { at, viewport });
}

describe('the overview and access tokens', () => {
  it('lands an administrator on a dashboard of figures, deployments per day, recent and most downloaded files, builds', async () => {
    const { page, problems } = await admins();
    await page.waitForURL('**/ui/overview');
    await page.getByText('app-1.1.zip').first().waitFor();
    const figure = (title: string) =>
      page.locator('.arca-figure').filter({ hasText: title }).locator('.ant-statistic-content');
    // the build's document lives in artifactory-build-info, as Artifactory keeps it: a file and a repository more
    await expect.poll(() => figure('Artifacts').textContent()).toContain('4');
    await expect.poll(() => figure('Repositories').textContent()).toContain('3');
    await expect.poll(() => figure('Storage').textContent()).toContain('102 KB');
    await page.getByRole('img', { name: /Files deployed per day over the last 14 days: 4 in all/ }).waitFor();
    await expect.poll(() => page.locator('.recharts-bar-rectangle').count()).toBeGreaterThan(0);
    const most = page.locator('.ant-card').filter({ hasText: 'Most downloaded' });
    await expect.poll(() => most.locator('.ant-list-item').first().textContent()).toContain('app-1.1.zip4');
    await page.getByRole('link', { name: 'acme-app #7' }).waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'overview-dashboard');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // one spelling of the spec's word on the page
    expect(await page.locator('body').innerText()).not.toMatch(/licence/i);
    // the administrator's session opens the metrics a Prometheus scrapes
    const metrics = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, body: await res.text() };
    }, `${server.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('arca_repository_bytes');
    // the Repositories figure leads to the repositories
    await page
      .locator('.arca-figure')
      .filter({ hasText: 'Repositories' })
      .getByRole('link', { name: 'Repositories' })
      .click();
    await page.waitForURL('**/ui/admin/repositories');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('lands an ordinary user on Packages', async () => {
    const { page } = await signIn(browser, server.url, 'ci-bot', 'Ci-bot-password-1');
    await page.waitForURL('**/ui/packages');
    await page.context().close();
  });

  it('generates a refreshable token for another user, shown once, and filters the list', async () => {
    const { page, problems } = await admins('/admin/management/access_tokens');
    await page.getByRole('button', { name: 'Generate Token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Access Token' });
    // an option clicked while the list still slides in is missed: chooseOption waits for the list at rest
    await chooseOption(page, dialog.getByLabel('User', { exact: true }), 'ci-bot');
    await dialog.getByLabel('Description').fill('release pipeline');
    await dialog.getByText('Refreshable').click();
    await screenshot(page, 'token-dialog');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    await page.getByText('Copy your token “release pipeline” for ci-bot now').waitFor();
    await page.getByText('Copy your refresh token now').waitFor();
    const token = (await page.locator('.ant-alert code').first().textContent())!.trim();
    const whoami = await fetch(`${server.url}/ui/api/v1/ui/auth/current`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await whoami.json()) as { name: string }).name).toBe('ci-bot');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'release pipeline' }).count()).toBe(1);
    await page.getByLabel('Filter tokens').fill('nothing-like-it');
    await page.getByText('No token matches the filter.').waitFor();
    await page.getByLabel('Filter tokens').fill('ci-bot');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'release pipeline' }).count()).toBe(1);
    await screenshot(page, 'access-tokens');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a list that failed to load as an error with a retry, never as empty', async () => {
    const { page } = await admins();
    let fail = true;
    await page.route('**/ui/api/v1/ui/admin/repositories*', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"errors":[{"status":503,"message":"The database is not reachable."}]}',
          })
        : route.continue(),
    );
    await page.goto(`${server.url}/ui/admin/repositories`);
    await page.getByText('The repositories could not be loaded').waitFor();
    await page.getByText('The database is not reachable.').first().waitFor();
    expect(await page.getByText('No repositories yet').count()).toBe(0);
    await screenshot(page, 'list-load-error');
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('link', { name: 'libs-release' }).first().waitFor();
    await page.context().close();
  });

  it('offers Getting Started, Set Me Up and the interface switch in the user menu', async () => {
    const { page, problems } = await admins();
    await page.waitForURL('**/ui/overview');
    const menu = () => page.getByRole('button', { name: /User menu for admin/ }).click();
    // an entry clicked while the menu still slides in may be missed: the click waits for the menu at rest
    const choose = (name: string) =>
      page
        .locator('.ant-dropdown:visible:not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])')
        .getByRole('menuitem', { name })
        .click();
    await menu();
    await choose('Getting Started');
    const started = page.getByRole('dialog', { name: 'Getting Started' });
    await started.getByText('Create repositories').waitFor();
    // repositories exist and files were deployed: those steps show as done
    await expect.poll(() => started.locator('.ant-steps-item-finish').count()).toBe(2);
    await screenshot(page, 'getting-started');
    await started.getByRole('button', { name: 'Close', exact: true }).last().click();
    await menu();
    await choose('Set Me Up');
    await page.getByLabel('Repository').click();
    // an option clicked while the list still slides in is missed: the click waits for the list at rest
    await page
      .locator(
        '.ant-select-dropdown:visible:not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"]) .ant-select-item-option',
      )
      .filter({ hasText: 'libs-release' })
      .click();
    await page.getByText(`${server.url}/artifactory/libs-release`).first().waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).last().click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await menu();
    await choose('Switch to Administration');
    await page.waitForURL('**/ui/admin/**');
    await menu();
    await choose('Switch to Application');
    await page.waitForURL('**/ui/overview');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('marks required fields alike in every administration form', async () => {
    const { page } = await admins();
    for (const [url, label] of [
      ['/ui/admin/repositories/new?rclass=local', 'Repository key'],
      ['/ui/admin/management/permissions/new', 'Permission name'],
    ] as const) {
      await page.goto(`${server.url}${url}`);
      const item = page.locator('.ant-form-item-label label').filter({ hasText: label }).first();
      await item.waitFor();
      expect([url, await item.getAttribute('class')]).toEqual([url, expect.stringContaining('ant-form-item-required')]);
      expect(await page.getByText('(optional)').count()).toBe(0);
    }
    await page.context().close();
  });

  it('counts repositories alike on Storage Summary and Repositories', async () => {
    const { page } = await admins('/admin/repositories');
    await page.getByText('All (3)').waitFor();
    await page.goto(`${server.url}/ui/admin/monitoring/storage-summary`);
    await page.getByText('3 repositories', { exact: true }).waitFor();
    await page.context().close();
  });

  it('keeps the overview and lists usable at 1024 px', async () => {
    const { page } = await admins(undefined, { width: 1024, height: 768 });
    await page.waitForURL('**/ui/overview');
    await page.getByText('app-1.1.zip').first().waitFor();
    // the sidebar folds to its icons, the search keeps a usable width
    await expect
      .poll(async () => (await page.locator('.ant-layout-sider').boundingBox())!.width)
      .toBeLessThanOrEqual(64);
    expect((await page.locator('.arca-header-search').boundingBox())!.width).toBeGreaterThanOrEqual(320);
    // nothing sticks out of the window
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await page.mouse.move(0, 0);
    await screenshot(page, 'overview-1024');
    await page.goto(`${server.url}/ui/admin/repositories`);
    await page.getByRole('link', { name: 'libs-release' }).first().waitFor();
    // every column fits: nothing scrolls sideways, the key and the actions are in view
    const table = page.locator('.ant-table-content, .ant-table-body').first();
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await page.getByRole('button', { name: 'Show the menu' }).click();
    await expect.poll(async () => (await page.locator('.ant-layout-sider').boundingBox())!.width).toBe(260);
    // every administration entry is read in full, none cut short
    const cut = await page
      .locator('.ant-layout-sider .ant-menu-title-content')
      .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent ?? ''));
    expect(cut).toEqual([]);
    await page.getByRole('button', { name: 'Hide the menu' }).click();
    await expect.poll(async () => (await page.locator('.ant-layout-sider').boundingBox())!.width).toBe(64);
    await screenshot(page, 'repositories-1024');
    // Set Me Up of a Maven repository: every tab in view, none behind the overflow menu
    await call('PUT', '/artifactory/api/repositories/maven-1024', { rclass: 'local', packageType: 'maven' });
    await page.goto(`${server.url}/ui/repos/tree/General/maven-1024`);
    await page.getByRole('button', { name: /Set Me Up/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: '~/.m2/settings.xml' }).waitFor();
    await expect.poll(() => dialog.locator('.ant-tabs-nav-operations-hidden').count()).toBe(1);
    await dialog.getByRole('heading', { name: 'Resolve and deploy: ~/.m2/settings.xml' }).waitFor();
    await screenshot(page, 'set-me-up-1024');
    await page.context().close();
  });
});
