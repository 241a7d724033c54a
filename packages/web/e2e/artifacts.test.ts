import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  startServer,
  type RunningServer,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;

beforeAll(async () => {
  // a remote repository of this test points at this very server: the outbound policy is told
  server = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await page.goto(`${server.url}/ui/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/ui/overview');
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe('repositories and artifacts in the console', () => {
  it('creates a repository, deploys a file, shows its checksums, adds a property, deletes it and restores it from the trash', async () => {
    // create a local repository
    await page.goto(`${server.url}/ui/admin/repositories`);
    await page.getByText('No repositories yet').waitFor();
    await screenshot(page, 'repositories-empty');
    await page.getByRole('button', { name: /New repository/ }).click();
    await page.getByRole('menuitem', { name: 'New Local Repository' }).click();
    await page.waitForURL('**/admin/repositories/new?rclass=local');
    await page.getByLabel('Repository key').fill('team-local');
    await page.getByLabel('Description').fill('Files of the team');
    await screenshot(page, 'repository-new');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/repositories');
    await page.getByRole('link', { name: 'team-local' }).waitFor();

    // deploy a file with the deploy dialog
    await page.getByRole('button', { name: 'Browse team-local' }).click();
    await page.waitForURL('**/repos/tree/General/team-local');
    await page.getByRole('button', { name: 'Deploy' }).click();
    const content = 'release notes\nversion 1.0\n';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arca-e2e-file-')), 'notes.txt');
    fs.writeFileSync(file, content);
    await page.locator('.ant-modal input[type=file]').setInputFiles(file);
    await page.getByLabel('Target path').fill('docs/notes.txt');
    await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
    await page.waitForURL('**/repos/tree/General/team-local/docs/notes.txt');

    // the tree shows it, with its checksums
    const sha256 = createHash('sha256').update(content).digest('hex');
    await page.getByText(sha256).waitFor();
    // the tree loads the new folder's children on its own; wait for them rather than racing it
    await page.locator('.ant-tree').getByText('notes.txt').waitFor();
    expect(await page.locator('.ant-tree').getByText('notes.txt').count()).toBe(1);
    await screenshot(page, 'tree-file-general');

    // add a property
    await page.getByRole('tab', { name: 'Properties' }).click();
    await page.getByLabel('Property name').fill('reviewed.by');
    await page.getByLabel('Property value').fill('alice, bob');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('cell', { name: 'alice, bob' }).waitFor();
    await screenshot(page, 'tree-file-properties');

    // delete it (with confirmation) …
    await page.getByRole('button', { name: /^(delete )?Delete$/ }).click();
    await page.getByRole('dialog').getByText('It moves to the trash can').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/repos/tree/General/team-local/docs');
    expect(
      (
        await fetch(`${server.url}/artifactory/team-local/docs/notes.txt`, {
          headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
        })
      ).status,
    ).toBe(404);

    // … and restore it from the trash can
    await page.goto(`${server.url}/ui/repos/tree/General/auto-trashcan/team-local/docs/notes.txt`);
    await page.getByText('team-local/docs/notes.txt').first().waitFor();
    await screenshot(page, 'trash-item');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.waitForURL('**/repos/tree/General/team-local/docs/notes.txt');
    await page.getByText(sha256).waitFor();
    const restored = await fetch(`${server.url}/artifactory/team-local/docs/notes.txt`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    });
    expect(await restored.text()).toBe(content);

    // the folder downloads as one zip
    await page.goto(`${server.url}/ui/repos/tree/General/team-local/docs`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download folder (zip)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('docs.zip');
    const zip = fs.readFileSync((await download.path())!);
    // a zip starts with a local file header and names the file inside
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(Buffer.from('notes.txt'))).toBe(true);
  });

  it("tests a remote's settings before saving, shows its upstream's state, its offline switch, a local's quota and replications", async () => {
    const admin = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
    const created = await fetch(`${server.url}/artifactory/api/repositories/source-local`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(created.status).toBe(200);
    await fetch(`${server.url}/artifactory/source-local/lib/a.txt`, { method: 'PUT', headers: admin, body: 'a' });

    await page.goto(`${server.url}/ui/admin/repositories/new?rclass=remote`);
    await page.getByLabel('Repository key').fill('source-remote');
    await page.getByLabel('URL').fill(`${server.url}/artifactory/source-local/`);
    await page.getByLabel('Socket timeout (milliseconds)').waitFor();
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByText("The upstream refused the credentials of 'admin' (401 Unauthorized).").waitFor();
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByText('Connection successful: the upstream answered 200 OK.').waitFor();
    await screenshot(page, 'repository-remote-test');
    // nothing was saved by the test
    expect((await fetch(`${server.url}/artifactory/api/repositories/source-remote`, { headers: admin })).status).toBe(
      404,
    );
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/admin/repositories');

    await page.goto(`${server.url}/ui/admin/repositories/edit/source-remote`);
    await page.getByText('Not asked yet').waitFor();
    expect((await fetch(`${server.url}/artifactory/source-remote/lib/a.txt`, { headers: admin })).status).toBe(200);
    await page.reload();
    await page.getByText(/Upstream answering since/).waitFor();
    await page.getByRole('switch', { name: 'Offline' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/repositories');
    await page.goto(`${server.url}/ui/admin/repositories/edit/source-remote`);
    await page.getByText('Only cached files are served; the upstream is never asked.', { exact: false }).waitFor();
    await page.getByText('No replication copies source-remote yet.').waitFor();
    await screenshot(page, 'repository-remote-edit');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${server.url}/ui/admin/repositories/edit/source-local`);
    await page.getByLabel('Storage quota (MB)').fill('1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/admin/repositories');
    const big = await fetch(`${server.url}/artifactory/source-local/big.bin`, {
      method: 'PUT',
      headers: admin,
      body: Buffer.alloc(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
  });

  it('shows the storage summary with real numbers', async () => {
    await page.goto(`${server.url}/ui/admin/monitoring/storage-summary`);
    await page.getByText('Used space by repository').waitFor();
    await page.getByRole('cell', { name: 'team-local' }).waitFor();
    // today's used space (the chart fills in day by day), and where team-local's space goes
    await page.getByText(/^One sample so far \(\d{4}-\d{2}-\d{2}\)/).waitFor();
    await page.getByRole('cell', { name: 'docs/' }).waitFor();
    await screenshot(page, 'storage-summary');
  });

  it("says 'The object you were looking for could not be found.' for a missing path", async () => {
    await page.goto(`${server.url}/ui/repos/tree/General/team-local/no/such/file.txt`);
    await page.getByText('The object you were looking for could not be found.').first().waitFor();
  });

  it('rewrites legacy /tree/General links', async () => {
    await page.goto(`${server.url}/ui/artifactory/webapp/#/artifacts/browse/tree/General/team-local/docs/notes.txt`);
    await page.waitForURL('**/repos/tree/General/team-local/docs/notes.txt');
  });

  it('deploys several files by the Maven layout with properties, and an archive as a bundle', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
    const created = await fetch(`${server.url}/artifactory/api/repositories/maven-local`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'maven' }),
    });
    expect(created.status).toBe(200);
    const other = await fetch(`${server.url}/artifactory/api/repositories/bundle-local`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
    });
    expect(other.status).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-e2e-deploy-'));
    const write = (name: string, body: string | Buffer) => {
      fs.writeFileSync(path.join(dir, name), body);
      return path.join(dir, name);
    };
    const files = [
      write(
        'app-1.0.pom',
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>app</artifactId><version>1.0</version></project>',
      ),
      write('app-1.0.jar', Buffer.alloc(300_000, 1)),
      write('app-1.0-sources.jar', Buffer.alloc(120_000, 2)),
    ];
    await page.goto(`${server.url}/ui/repos/tree/General/maven-local`);
    await page.getByRole('button', { name: 'Deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy to maven-local' });
    await dialog.locator('input[type=file]').setInputFiles(files);
    // the POM's coordinates place all three
    await expect
      .poll(() => dialog.getByLabel('Target path of app-1.0-sources.jar').inputValue())
      .toBe('org/acme/app/1.0/app-1.0-sources.jar');
    await dialog.getByLabel('Properties').fill('release=1.0');
    await page.keyboard.press('Enter');
    await screenshot(page, 'deploy-several-files');
    await dialog.getByRole('button', { name: 'Deploy 3 files' }).click();
    await page.waitForURL(/\/repos\/tree\/General\/maven-local\/org\/acme\/app\/1\.0\//);
    for (const name of ['app-1.0.pom', 'app-1.0.jar', 'app-1.0-sources.jar']) {
      const info = await fetch(
        `${server.url}/artifactory/api/storage/maven-local/org/acme/app/1.0/${name}?properties`,
        {
          headers: auth,
        },
      );
      expect([name, ((await info.json()) as { properties?: object }).properties]).toEqual([name, { release: ['1.0'] }]);
    }

    // a zip as a bundle: its files land under the folder
    const zip = path.join(dir, 'site.zip');
    const { zipOf } = await import('../../server/src/test/zip');
    fs.writeFileSync(zip, zipOf({ 'index.html': '<h1>site</h1>', 'css/site.css': 'body{}' }));
    await page.goto(`${server.url}/ui/repos/tree/General/bundle-local`);
    await page.getByRole('button', { name: 'Deploy' }).click();
    const bundle = page.getByRole('dialog', { name: 'Deploy to bundle-local' });
    await bundle.locator('input[type=file]').setInputFiles(zip);
    await bundle.getByText('Deploy as a bundle').click();
    await bundle.getByLabel('Target folder').fill('site/1.0');
    await bundle.getByRole('button', { name: 'Deploy' }).click();
    await page.waitForURL('**/repos/tree/General/bundle-local/site/1.0');
    const css = await fetch(`${server.url}/artifactory/bundle-local/site/1.0/css/site.css`, { headers: auth });
    expect(await css.text()).toBe('body{}');
  });
});
