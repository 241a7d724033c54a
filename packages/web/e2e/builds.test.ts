import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';
import { restCall } from './clients/clients';

/** Builds in the console: the list, a run with its modules, into the tree, and the artifact's Builds tab. */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
let problems: string[];

const call = (method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
const sha = (algorithm: string, body: string) => createHash(algorithm).update(body).digest('hex');

beforeAll(async () => {
  server = await startServer();
  await call('PUT', '/artifactory/api/repositories/libs-release', { rclass: 'local' });
  const deploy = await fetch(`${server.url}/artifactory/libs-release/org/shop/shop-2.0.jar`, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    body: 'shop jar',
  });
  expect(deploy.status).toBe(201);
  for (const [number, started] of [
    ['41', '2026-11-20T09:00:00.000+0000'],
    ['42', '2026-11-21T09:00:00.000+0000'],
  ]) {
    await call('PUT', '/artifactory/api/build', {
      version: '1.0.1',
      name: 'shop',
      number,
      started,
      durationMillis: 64000,
      agent: { name: 'jfrog-cli-go', version: '2.52.0' },
      vcs: [{ url: 'https://git.example/shop.git', revision: `r${number}`, branch: 'main' }],
      properties: { 'buildInfo.env.CI': 'true' },
      issues: {
        tracker: { name: 'JIRA', version: '9.4' },
        aggregateBuildIssues: false,
        affectedIssues: [
          {
            key: `SHOP-${number}`,
            url: `https://jira.example/browse/SHOP-${number}`,
            summary: 'Checkout fails on an empty cart',
            aggregated: false,
          },
        ],
      },
      modules: [
        {
          id: 'org.shop:shop:2.0',
          type: 'maven',
          artifacts: [
            {
              type: 'jar',
              name: 'shop-2.0.jar',
              sha1: sha('sha1', 'shop jar'),
              sha256: sha('sha256', 'shop jar'),
              md5: sha('md5', 'shop jar'),
            },
          ],
          dependencies: [],
        },
      ],
    });
  }
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
    viewport: { width: 1400, height: 900 },
  }));
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe('builds in the console', () => {
  it('lists builds, opens a run, follows its artifact into the tree and shows the Builds tab', async () => {
    await page.getByRole('link', { name: 'Builds' }).first().click();
    await page.waitForURL('**/ui/builds');
    await page.getByRole('link', { name: 'shop', exact: true }).waitFor();
    await page.getByRole('link', { name: '#42' }).click();
    await page.waitForURL('**/ui/builds/shop/42');
    await page.getByRole('tab', { name: 'Published modules' }).waitFor();
    await page.getByText('org.shop:shop:2.0').waitFor();
    await page.getByRole('tab', { name: 'Issues (1)' }).click();
    await page.getByRole('link', { name: 'SHOP-42' }).waitFor();
    await page.getByText('Tracker: JIRA 9.4').waitFor();
    await screenshot(page, 'build-run-issues');
    await page.getByRole('tab', { name: 'Published modules' }).click();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'build-run');

    await page.getByRole('link', { name: 'shop-2.0.jar' }).click();
    await page.waitForURL('**/ui/repos/tree/General/libs-release/org/shop/shop-2.0.jar');
    await page.getByRole('tab', { name: 'Builds' }).click();
    const producedBy = page.getByRole('link', { name: /shop #4[12]/ });
    await expect.poll(() => producedBy.allTextContents()).toEqual(['shop #42', 'shop #41']);
    await screenshot(page, 'artifact-builds-tab');
    await producedBy.first().click();
    await page.waitForURL('**/ui/builds/shop/42');
    expect(problems).toEqual([]);
  });

  it('publishes build info with the curl snippets Set Me Up shows, and previews the builds a permission covers', async () => {
    await page.goto(`${server.url}/ui/repos/tree/General/libs-release`);
    await page.getByRole('button', { name: /Set Me Up/ }).click();
    const dialog = page.getByRole('dialog');
    const snippet = async (title: string) => (await dialog.locator(`pre[aria-label="${title}"]`).textContent())!;
    await dialog.getByRole('tab', { name: 'Build info' }).click();
    const commands = await snippet('Publish build info with curl');
    await screenshot(page, 'set-me-up-build-info');
    const document = await snippet('build-info.json');
    await page.keyboard.press('Escape');

    const dir = mkdtempSync(join(tmpdir(), 'arca-build-info-'));
    mkdirSync(join(dir, 'target'));
    writeFileSync(join(dir, 'target', 'app-1.0.jar'), 'app jar');
    writeFileSync(
      join(dir, 'build-info.json'),
      document
        .replace('<SHA-1>', sha('sha1', 'app jar'))
        .replace('<MD5>', sha('md5', 'app jar'))
        .replace('<SHA-1>', sha('sha1', 'lib'))
        .replace('<COMMIT>', 'abc123'),
    );
    execFileSync('bash', ['-euo', 'pipefail', '-c', commands.replaceAll('<PASSWORD>', ADMIN_PASSWORD)], {
      cwd: dir,
      stdio: 'pipe',
    });
    rmSync(dir, { recursive: true, force: true });

    await page.goto(`${server.url}/ui/builds`);
    await page.getByRole('link', { name: 'my-build', exact: true }).click();
    await page.getByRole('link', { name: '#1' }).click();
    await page.getByRole('link', { name: 'app-1.0.jar' }).waitFor();

    await page.goto(`${server.url}/ui/admin/management/permissions/new`);
    await page.getByRole('tab', { name: 'Builds' }).click();
    await page.getByRole('switch', { name: 'Grant rights on builds' }).click();
    await page.getByText('These patterns cover 2 published builds').waitFor();
    const covered = page.getByLabel('Covered builds');
    expect(await covered.getByRole('link').allTextContents()).toEqual(['my-build', 'shop']);
    await page.getByLabel('Include patterns for Builds').click();
    await page.locator('.ant-select-item-option[title="my-build"]').waitFor();
    await screenshot(page, 'permission-build-patterns');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("counts a project's builds on Projects and narrows the builds list to the selected project", async () => {
    const created = await fetch(`${server.url}/ui/api/v1/projects`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: JSON.stringify({ projectKey: 'store', displayName: 'Store' }),
    });
    expect(created.status).toBe(200);
    await call('PUT', '/artifactory/api/build?project=store', {
      version: '1.0.1',
      name: 'storefront',
      number: '7',
      started: '2026-11-22T09:00:00.000+0000',
      modules: [],
    });
    await page.goto(`${server.url}/ui/admin/projects`);
    const row = page.getByRole('row', { name: /Store/ });
    await row.getByRole('link', { name: '1', exact: true }).waitFor();
    await screenshot(page, 'projects-builds');
    await row.getByRole('link', { name: '1', exact: true }).click();
    await page.waitForURL('**/ui/builds');
    await page.getByText('Showing the builds of project store only').waitFor();
    await page.getByRole('link', { name: 'storefront', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'shop', exact: true }).count()).toBe(0);
    await screenshot(page, 'builds-of-project');
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByRole('link', { name: 'shop', exact: true }).waitFor();
    expect(problems).toEqual([]);
  });
});
