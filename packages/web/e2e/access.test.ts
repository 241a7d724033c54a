import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  chooseOption,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  chooseMenuItem,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const adminAuth = () => ({ authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` });

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  const res = await fetch(`${server.url}/artifactory/api/repositories/libs-local`, {
    method: 'PUT',
    headers: { ...adminAuth(), 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'maven' }),
  });
  expect(res.status).toBe(200);
  await fetch(`${server.url}/artifactory/libs-local/org/acme/app/1.0/app-1.0.jar`, {
    method: 'PUT',
    headers: adminAuth(),
    body: 'jar',
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** Signed in as `user`, on the console's page at `at` (the landing page unless told). */
const signedIn = (user = 'admin', password = ADMIN_PASSWORD, at?: string) =>
  signIn(browser, server.url, user, password, { at });

describe('access administration in the console', () => {
  it('creates a group, a user in it and a permission target, and the user then reads only what it grants', async () => {
    const { page, problems } = await signedIn('admin', ADMIN_PASSWORD, '/admin/management/groups');
    await expect.poll(() => page.getByText('No groups yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: /New Group/ }).click();
    await page.getByLabel('Group name').fill('developers');
    await page.getByLabel('Description').fill('Build and deploy the apps');
    await screenshot(page, 'access-group-new');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit developers' }).isVisible()).toBe(true);
    await screenshot(page, 'access-groups');

    await page.goto(`${server.url}/ui/admin/management/users`);
    await page.getByRole('button', { name: /New User/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('User name').fill('dev1');
    await dialog.getByLabel('E-mail', { exact: true }).fill('dev1@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('Dev1-password');
    await chooseOption(page, dialog.getByLabel('Groups'), 'developers');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit dev1' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('row', { name: /dev1/ }).getByText('developers').isVisible()).toBe(true);

    await page.goto(`${server.url}/ui/admin/management/permissions`);
    await page.getByRole('button', { name: /New Permission/ }).click();
    await page.getByLabel('Permission name').fill('acme-developers');
    await chooseOption(page, page.getByLabel('Repositories', { exact: true }), 'libs-local');
    await page.getByLabel('Include patterns for Repositories').focus();
    await page.keyboard.press('Backspace');
    await page.keyboard.type('org/acme/**');
    await page.keyboard.press('Enter');
    await chooseOption(page, page.getByLabel('Add a group to Repositories'), 'developers');
    await page.getByLabel('Delete/Overwrite for developers').check();
    expect(await page.getByLabel('Deploy/Cache for developers').isChecked()).toBe(true);
    expect(await page.getByLabel('Manage for developers').isChecked()).toBe(false);
    await screenshot(page, 'access-permission-edit');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/management/permissions');
    await expect.poll(() => page.getByRole('link', { name: 'Edit acme-developers' }).isVisible()).toBe(true);
    await screenshot(page, 'access-permissions');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // the user's effective permissions: the target, through the group
    await page.goto(`${server.url}/ui/admin/management/users/edit/dev1`);
    const userDialog = page.getByRole('dialog');
    const granted = userDialog.getByRole('row', { name: /Group developers/ });
    await granted.getByRole('link', { name: 'acme-developers' }).waitFor();
    for (const action of ['Read', 'Annotate', 'Deploy/Cache', 'Delete/Overwrite'])
      await granted.getByText(action, { exact: true }).waitFor();
    expect(await granted.getByText('Manage', { exact: true }).count()).toBe(0);
    await granted.getByText('org/acme/**').waitFor();
    await screenshot(page, 'access-user-effective-permissions');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    // the repository's page: who may do what on it
    await page.goto(`${server.url}/ui/admin/repositories/edit/libs-local`);
    await page
      .getByRole('row', { name: /Group developers/ })
      .getByRole('link', { name: 'acme-developers' })
      .waitFor();

    const dev = { authorization: `Basic ${Buffer.from('dev1:Dev1-password').toString('base64')}` };
    expect(
      (await fetch(`${server.url}/artifactory/libs-local/org/acme/app/1.0/app-1.0.jar`, { headers: dev })).status,
    ).toBe(200);
    const deploy = await fetch(`${server.url}/artifactory/libs-local/org/other/x.jar`, {
      method: 'PUT',
      headers: dev,
      body: 'x',
    });
    expect(deploy.status).toBe(403);
    expect(problems).toEqual([]);
  });

  it('saves security settings and shows every change in the audit trail', async () => {
    const { page, problems } = await signedIn('admin', ADMIN_PASSWORD, '/admin/artifactory/security/general');
    await page.getByLabel('Allow anonymous access').click();
    await page.getByLabel('Minimum length').fill('10');
    await screenshot(page, 'access-security-settings');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Security settings were saved').isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    const anonymous = await fetch(`${server.url}/artifactory/libs-local/org/acme/app/1.0/app-1.0.jar`);
    expect(anonymous.status).toBe(200);

    await page.goto(`${server.url}/ui/admin/monitoring/audit_trail`);
    await expect.poll(() => page.getByRole('cell', { name: 'security settings', exact: true }).isVisible()).toBe(true);
    await chooseOption(page, page.getByLabel('Category'), 'Permissions');
    await expect.poll(() => page.getByRole('cell', { name: 'acme-developers' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('cell', { name: 'security settings', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Expand row' }).first().click();
    await screenshot(page, 'access-audit-trail');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('generates a token from Edit Profile that a client can use until it is revoked', async () => {
    const { page, problems } = await signedIn('dev1', 'Dev1-password');
    await page.getByRole('button', { name: 'User menu for dev1' }).click();
    await chooseMenuItem(page, /Edit Profile/);
    await page.getByLabel('Current password').fill('Dev1-password');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('button', { name: /Generate Token/ }).click();
    await page.getByLabel('Description').fill('CI pipeline');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const secret = page.locator('code').filter({ hasText: /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/ });
    await expect.poll(() => secret.isVisible()).toBe(true);
    const token = (await secret.textContent())!;
    await screenshot(page, 'access-profile');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const url = `${server.url}/artifactory/libs-local/org/acme/app/1.0/app-1.0.jar`;
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    // the revocation's round trip and the list's refetch may take longer than a poll's second on a busy machine
    await page.getByText('No access tokens').waitFor();
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect(problems).toEqual([]);
  });

  it('lets an administrator set up a project and its project admin manage the members', async () => {
    const { page, problems } = await signedIn('admin', ADMIN_PASSWORD, '/admin/projects');
    await page.getByRole('button', { name: /New Project/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Display name').fill('Web Shop');
    await dialog.getByLabel('Project key').fill('Web-Shop');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByText('A project key starts with a lowercase letter').isVisible()).toBe(true);
    await dialog.getByLabel('Project key').fill('webshop');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: 'Web Shop' }).click();
    await page.waitForURL('**/projects/webshop/general');
    // the project's own sidebar, once it has replaced the administration's (which has a Repositories link too)
    await page
      .getByRole('navigation', { name: 'Project Settings' })
      .getByRole('link', { name: 'Repositories' })
      .click();
    await chooseOption(page, page.getByLabel('Repositories to add'), 'libs-local');
    await page.getByRole('button', { name: /Add to project/ }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'libs-local', exact: true }).isVisible()).toBe(true);
    await page.getByRole('navigation', { name: 'Project Settings' }).getByRole('link', { name: 'Members' }).click();
    await chooseOption(page, page.getByLabel('Member name'), 'dev1');
    await chooseOption(page, page.getByLabel('Role', { exact: true }), 'Project Admin');
    await page.getByRole('button', { name: /Add member/ }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'dev1', exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'access-project-members');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);

    const dev = await signedIn('dev1', 'Dev1-password');
    await chooseOption(dev.page, dev.page.getByLabel('Project', { exact: true }), 'Web Shop');
    // choosing the project keeps dev1 where he was; the switch now offers the project's settings
    const header = dev.page.getByRole('banner');
    await expect.poll(() => header.getByText('Project Settings', { exact: true }).isVisible()).toBe(true);
    expect(new URL(dev.page.url()).pathname).toBe('/ui/packages');
    await header.getByText('Project Settings', { exact: true }).click();
    await dev.page.waitForURL('**/projects/webshop/general');
    expect(await header.getByText('Administration', { exact: true }).count()).toBe(0);
    await dev.page.getByRole('navigation', { name: 'Project Settings' }).getByRole('link', { name: 'Members' }).click();
    await expect.poll(() => dev.page.getByRole('cell', { name: 'dev1', exact: true }).isVisible()).toBe(true);
    await screenshot(dev.page, 'access-project-admin-view');
    await dev.page
      .getByRole('navigation', { name: 'Project Settings' })
      .getByRole('link', { name: 'Repositories' })
      .click();
    await dev.page.getByLabel('Repository key').fill('webshop-npm');
    await dev.page.getByRole('button', { name: /Create local repository/ }).click();
    await expect.poll(() => dev.page.getByRole('cell', { name: 'webshop-npm', exact: true }).isVisible()).toBe(true);
    await screenshot(dev.page, 'access-project-repositories');
    // the project gives dev1 every right on libs-local, also outside the permission's patterns
    const auth = { authorization: `Basic ${Buffer.from('dev1:Dev1-password').toString('base64')}` };
    const deploy = await fetch(`${server.url}/artifactory/libs-local/org/other/y.jar`, {
      method: 'PUT',
      headers: auth,
      body: 'y',
    });
    expect(deploy.status).toBe(201);
    expect(dev.problems).toEqual([]);

    // someone who is not one of the project's administrators gets the not-authorised page
    const created = await fetch(`${server.url}/artifactory/api/security/users/outsider`, {
      method: 'PUT',
      headers: { ...adminAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'outsider@example.com', password: 'Outsider-pass-1' }),
    });
    expect(created.status).toBeLessThan(300);
    const outsider = await signedIn('outsider', 'Outsider-pass-1', '/projects/webshop/members');
    await outsider.page.waitForURL('**/ui/authorization');
    await outsider.page.getByText('Only the administrators of project webshop may open its settings.').waitFor();
    expect(await outsider.page.getByRole('cell', { name: 'dev1', exact: true }).count()).toBe(0);
    await screenshot(outsider.page, 'access-project-not-member');
  });
});
