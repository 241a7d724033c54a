import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  chooseOption,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';

/**
 * What a new administrator and a user with read rights on one repository meet in their first
 * hour: actions that follow rights, copy/move without surprises, Set Me Up, locked users, deleting
 * a repository with content, the project selector, narrow windows, and accessibility throughout.
 */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const adminAuth = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
const READER_PASSWORD = 'Reader-Passw0rd1';

async function rest(method: string, url: string, body?: unknown, headers: Record<string, string> = adminAuth) {
  const json = body !== undefined && typeof body !== 'string';
  return fetch(`${server.url}${url}`, {
    method,
    headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : json ? JSON.stringify(body) : (body as string),
  });
}

const repo = (key: string, config: object) => rest('PUT', `/artifactory/api/repositories/${key}`, config);

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  await repo('libs-local', { rclass: 'local', description: 'Shared libraries' });
  await repo('release-local', { rclass: 'local', description: 'Releases' });
  await repo('images-local', { rclass: 'local', packageType: 'docker' });
  await repo('npm-remote', { rclass: 'remote', packageType: 'npm', url: 'https://registry.npmjs.org/' });
  for (let i = 1; i <= 3; i++) await rest('PUT', `/artifactory/libs-local/docs/guide-${i}.txt`, `guide ${i}`);
  await rest('PUT', '/artifactory/release-local/docs/guide-1.txt', 'the old guide');
  await rest('PUT', '/artifactory/api/security/users/reader', {
    email: 'reader@example.com',
    password: READER_PASSWORD,
  });
  await rest('PUT', '/artifactory/api/v2/security/permissions/read-libs', {
    repo: { repositories: ['libs-local'], actions: { users: { reader: ['read'] } } },
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** Signed in as the administrator, on the console's page at `at` (the landing page unless told). */
const admin = (at?: string, viewport?: { width: number; height: number }) =>
  signIn(browser, server.url, 'admin', ADMIN_PASSWORD, { at, viewport });

async function open(page: Page, path: string) {
  await page.goto(`${server.url}/ui${path}`);
}

describe('the first hour in the console', () => {
  it('shows a read-only user the actions it may not take as disabled, with the reason, and no errors', async () => {
    const { page, problems } = await signIn(browser, server.url, 'reader', READER_PASSWORD, {
      at: '/repos/tree/General/libs-local/docs/guide-1.txt',
    });
    await page.getByRole('button', { name: /Download/ }).waitFor();
    const reason = "You do not have delete permission on 'libs-local/docs/guide-1.txt'.";
    await expect.poll(() => page.getByRole('button', { name: /^delete Delete$/ }).isDisabled()).toBe(true);
    for (const name of [/^copy Copy$/, /^scissor Move$/]) {
      expect(await page.getByRole('button', { name }).isDisabled()).toBe(true);
    }
    await page.getByRole('button', { name: /^delete Delete$/ }).hover({ force: true });
    await page.getByRole('tooltip').filter({ hasText: reason }).waitFor();
    await screenshot(page, 'first-hour-reader-file');
    // the folder offers no deploy either
    await open(page, '/repos/tree/General/libs-local/docs');
    await expect.poll(() => page.getByRole('button', { name: /^upload Deploy$/ }).isDisabled()).toBe(true);
    // properties can be read, not changed
    await open(page, '/repos/tree/General/libs-local/docs/guide-1.txt');
    await page.getByRole('tab', { name: 'Properties' }).click();
    await page.getByText('No properties.').waitFor();
    expect(await page.getByLabel('Property name').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('copies a folder only to fitting repositories, shows the conflicts of a dry run and reports what it did', async () => {
    const { page, problems } = await admin('/repos/tree/General/libs-local/docs');
    await page.getByRole('button', { name: /^copy Copy$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Target repository').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual(['libs-local', 'release-local']);
    // Enter without a visible choice picks nothing
    await page.keyboard.type('zzz');
    await page.keyboard.press('Enter');
    // the list is closed by a click on the dialog's title, which closes nothing else whether the list
    // is still open or not (an Escape that arrives once it has closed would close the dialog)
    await dialog.locator('.ant-modal-title').click();
    await expect.poll(() => dialog.getByLabel('Target repository').getAttribute('aria-expanded')).toBe('false');
    expect(await dialog.getByRole('button', { name: 'Copy' }).isDisabled()).toBe(true);

    await chooseOption(page, dialog.getByLabel('Target repository'), 'release-local');
    await dialog.getByText('3 files would be copied to').waitFor();
    await dialog.getByText('1 file already exists at the target').waitFor();
    await dialog.getByText('docs/guide-1.txt').waitFor();
    expect(await dialog.getByRole('button', { name: 'Copy' }).isDisabled()).toBe(true);
    await screenshot(page, 'first-hour-copy-conflicts');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByLabel('Skip them (keep what is there)').check();
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied 2 files to release-local/docs: 1 skipped (already there).').waitFor();
    await page.waitForURL('**/repos/tree/General/release-local/docs');
    expect(await (await rest('GET', '/artifactory/release-local/docs/guide-1.txt')).text()).toBe('the old guide');

    // a move leaves the gone item behind without asking for it again
    const gone: string[] = [];
    page.on('response', (r) => r.status() === 404 && gone.push(r.url()));
    await open(page, '/repos/tree/General/release-local/docs/guide-2.txt');
    await page.getByRole('button', { name: /^scissor Move$/ }).click();
    await chooseOption(page, dialog.getByLabel('Target repository'), 'libs-local');
    await dialog.getByLabel('Target path').fill('moved/guide-2.txt');
    await dialog.getByText('1 file would be moved to').waitFor();
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page.waitForURL('**/repos/tree/General/libs-local/moved/guide-2.txt');
    await page.getByText('Moved 1 file to libs-local/moved/guide-2.txt.').waitFor();
    await page.getByRole('button', { name: /Download/ }).waitFor();
    expect(gone).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('offers readable Set Me Up snippets with copy buttons and fills in a generated token', async () => {
    const { page, problems } = await admin('/repos/tree/General/libs-local');
    await page.getByRole('button', { name: /Set Me Up/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('<PASSWORD>').first().waitFor();
    await dialog.getByRole('button', { name: 'Copy: Deploy a file' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: /Generate a token and fill it in/ }).click();
    await dialog.getByText('A new access token is filled in below').waitFor();
    const snippet = await dialog.locator('pre.arca-snippet').first().textContent();
    expect(snippet).not.toContain('<PASSWORD>');
    const token = /-u admin:(\S+) /.exec(snippet ?? '')![1]!;
    const bearer = await fetch(`${server.url}/artifactory/libs-local/docs/guide-1.txt`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` },
    });
    expect(bearer.status).toBe(200);
    await screenshot(page, 'first-hour-set-me-up');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows a locked user as locked until a time, and releases it with Unlock', async () => {
    await rest('PUT', '/artifactory/api/security/users/locked1', {
      email: 'l@example.com',
      password: 'Locked-Passw0rd',
    });
    const wrong = { authorization: `Basic ${Buffer.from('locked1:wrong').toString('base64')}` };
    for (let i = 0; i < 5; i++) await rest('GET', '/artifactory/api/repositories', undefined, wrong);
    const { page, problems } = await admin('/admin/management/users');
    await page.getByText(/Locked until/).waitFor();
    await page.getByText('1 user is locked after too many failed sign-ins').waitFor();
    await page.getByLabel('Select locked1').check();
    await screenshot(page, 'first-hour-users-locked');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /Unlock \(1\)/ }).click();
    await page.getByText('Unlocked locked1').waitFor();
    await expect.poll(() => page.getByText(/Locked until/).count()).toBe(0);
    const good = { authorization: `Basic ${Buffer.from('locked1:Locked-Passw0rd').toString('base64')}` };
    expect((await rest('GET', '/artifactory/api/repositories', undefined, good)).status).toBe(200);
    expect(problems).toEqual([]);
  });

  it('deletes a repository with its content after the key is typed, with progress, and audits it', async () => {
    await repo('old-local', { rclass: 'local' });
    for (let i = 0; i < 5; i++) await rest('PUT', `/artifactory/old-local/f${i}.bin`, 'x'.repeat(100));
    const { page, problems } = await admin('/admin/repositories');
    await page.getByRole('button', { name: 'Delete old-local' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('5 files, 500 B, are deleted for good').waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete repository' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/Type old-local to confirm/).fill('old-local');
    await screenshot(page, 'first-hour-delete-repository');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete repository' }).click();
    await page.getByText('Repository old-local was deleted with 5 files').waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'old-local' }).count()).toBe(0);
    expect((await rest('GET', '/artifactory/api/repositories/old-local')).status).toBe(404);
    await open(page, '/admin/monitoring/audit_trail');
    await page.getByRole('cell', { name: 'old-local' }).first().waitFor();
    await page.getByRole('link', { name: /Export CSV/ }).waitFor();
    expect(problems).toEqual([]);
  });

  it('shows only the chosen project’s repositories in the tree and the repositories list', async () => {
    await rest(
      'POST',
      '/ui/api/v1/projects',
      { projectKey: 'shop', displayName: 'Shop' },
      { ...adminAuth, 'x-requested-with': 'XMLHttpRequest' },
    );
    await rest(
      'POST',
      '/ui/api/v1/projects/resources/assign',
      { projectKey: 'shop', repositories: ['release-local'] },
      { ...adminAuth, 'x-requested-with': 'XMLHttpRequest' },
    );
    const { page, problems } = await admin('/repos/tree/General/');
    await page.getByRole('tree').getByText('libs-local').waitFor();
    await chooseOption(page, page.getByRole('combobox', { name: 'Project', exact: true }), 'Shop');
    // the user stays where he was (the tree), which now shows the project's repositories; the
    // choice stays for every page
    await page.getByText('Showing the repositories of project shop only').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/ui\/repos\/tree\/General\/?$/);
    await open(page, '/repos/tree/General/');
    await page.getByText('Showing the repositories of project shop only').waitFor();
    await expect.poll(() => page.getByRole('tree').getByText('libs-local').count()).toBe(0);
    await page.getByRole('tree').getByText('release-local').waitFor();
    await open(page, '/admin/repositories');
    await expect.poll(() => page.getByRole('link', { name: /-local$/ }).allTextContents()).toEqual(['release-local']);
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByRole('link', { name: 'libs-local' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('fits the repositories page at 1024 and 768 px with the actions and the title in view', async () => {
    for (const width of [1024, 768]) {
      const { page } = await admin('/admin/repositories', { width, height: 800 });
      await page.getByRole('button', { name: 'Delete libs-local' }).waitFor();
      const [scroll, client] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(scroll).toBeLessThanOrEqual(client);
      expect(await page.getByRole('button', { name: 'Delete libs-local' }).isVisible()).toBe(true);
      const title = await page.getByRole('heading', { level: 1, name: 'Repositories' }).boundingBox();
      const covering = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('h1')?.textContent,
        [title!.x + 4, title!.y + title!.height / 2],
      );
      expect(covering).toBe('Repositories');
      await screenshot(page, `first-hour-repositories-${width}`);
      await page.context().close();
    }
  });

  it('has one h1 and no serious accessibility finding on every page, and Enter opens a tree node', async () => {
    const { page, problems } = await admin();
    for (const path of [
      '/admin/repositories',
      '/admin/repositories/edit/libs-local',
      '/admin/management/users',
      '/admin/management/groups',
      '/admin/management/permissions',
      '/admin/management/access_tokens',
      '/admin/projects',
      '/admin/monitoring/audit_trail',
      '/admin/monitoring/storage-summary',
      '/admin/monitoring/service-status',
      '/admin/artifactory/security/general',
      '/admin/configuration/mail',
      '/admin/license_management/licenses',
      '/repos/tree/General/auto-trashcan',
      '/profile',
    ]) {
      await open(page, path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // loaded: no skeleton or spinner left
      await expect
        .poll(() => page.locator('.ant-skeleton, .ant-spin-spinning, .ant-table-placeholder .ant-spin').count())
        .toBe(0);
      expect(await page.getByRole('heading', { level: 1 }).count(), path).toBe(1);
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    // the trash can is built in: no 1970 creation date
    await open(page, '/repos/tree/General/auto-trashcan');
    await page.getByRole('tab', { name: 'General' }).waitFor();
    expect(await page.getByText('1970').count()).toBe(0);
    // Enter opens the focused tree node
    await open(page, '/repos/tree/General/');
    await page.getByRole('tree').getByText('libs-local').click();
    await page.waitForURL('**/repos/tree/General/libs-local');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname !== '/ui/repos/tree/General/libs-local');
    expect(problems).toEqual([]);
  });

  it('shows one clear not-found page with a way back for unknown repositories and users', async () => {
    const { page } = await admin('/admin/repositories/edit/nope');
    await page.getByRole('heading', { level: 1, name: "Repository 'nope' was not found" }).waitFor();
    await page.getByRole('button', { name: 'Back to Repositories' }).click();
    await page.waitForURL('**/admin/repositories');
    await open(page, '/admin/management/users/edit/nobody');
    await page.getByRole('heading', { level: 1, name: "User 'nobody' was not found" }).waitFor();
    await page.getByRole('button', { name: 'Back to Users' }).click();
    await page.waitForURL('**/admin/management/users');
  });

  it('asks before signing out when an invitation link is opened while signed in', async () => {
    const { page } = await admin('/login/invitation?token=whatever');
    await page.getByText('You are signed in as admin').waitFor();
    await page.getByRole('button', { name: 'Stay signed in as admin' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
    const still = await page.evaluate(async () => (await fetch('/ui/api/v1/ui/auth/current')).json());
    expect(still.name).toBe('admin');
  });
});
