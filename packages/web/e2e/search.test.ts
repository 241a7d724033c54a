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
import { restCall } from './clients/clients';

/** Search from the console: the header's bar, the results page, the advanced search, recent searches. */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
let problems: string[];

const call = (method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
async function deploy(path: string, body: string) {
  const res = await fetch(`${server.url}/artifactory/${path}`, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    body,
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  server = await startServer();
  await call('PUT', '/artifactory/api/repositories/libs-release', { rclass: 'local', packageType: 'maven' });
  await call('PUT', '/artifactory/api/repositories/files', { rclass: 'local', packageType: 'generic' });
  const pom = (v: string) =>
    `<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>billing-core</artifactId><version>${v}</version></project>`;
  for (const v of ['1.0.0', '1.1.0']) {
    await deploy(`libs-release/org/acme/billing-core/${v}/billing-core-${v}.pom`, pom(v));
    await deploy(`libs-release/org/acme/billing-core/${v}/billing-core-${v}.jar`, `jar ${v}`);
  }
  await deploy('files/reports/billing-summary.txt', 'summary');
  await deploy('files/reports/other.txt', 'other');
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
    viewport: { width: 1400, height: 900 },
  }));
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe('search in the console', () => {
  it('runs a quick search from the header, lists the results and opens one in the tree', async () => {
    const bar = page.getByRole('textbox', { name: 'Search', exact: true });
    // a blank search cannot be run
    await expect.poll(() => page.getByRole('button', { name: 'Run search' }).isDisabled()).toBe(true);
    await bar.fill('billing');
    await bar.press('Enter');
    await page.waitForURL('**/ui/artifactSearchResults?searchType=quick&name=billing');
    const table = page.locator('.ant-table');
    await table.getByRole('link', { name: 'billing-core-1.1.0.jar', exact: true }).waitFor();
    // the trailing * matches every name starting with the term, in every repository
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(5);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'item(s)' }).textContent()).toBe('5 item(s)');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'search-results-quick');

    // the repository filter is part of the link
    await page.goto(`${server.url}/ui/artifactSearchResults?searchType=quick&name=billing&repo=files`);
    await table.getByRole('link', { name: 'billing-summary.txt', exact: true }).waitFor();
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(1);

    await page.getByRole('button', { name: 'Show billing-summary.txt in the tree' }).click();
    await page.waitForURL('**/ui/repos/tree/General/files/reports/billing-summary.txt');
    await page.getByText('billing-summary.txt').first().waitFor();
  });

  it('says why a checksum search from the header cannot run', async () => {
    await page.goto(`${server.url}/ui/overview`);
    const header = page.getByRole('banner');
    await chooseOption(page, header.getByLabel('Search type'), 'Checksum');
    const bar = header.getByRole('textbox', { name: 'Search', exact: true });
    await bar.fill('abc123');
    await bar.press('Enter');
    await page.getByText('Invalid Checksum Length').first().waitFor();
    expect(await bar.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).not.toContain('artifactSearchResults');
    await bar.fill('');
  });

  it('finds Maven coordinates through the advanced search', async () => {
    await page.goto(`${server.url}/ui/overview`);
    await page.getByRole('button', { name: 'Advanced search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced search' });
    await chooseOption(page, dialog.getByLabel('Search type'), 'Maven GAVC');
    await dialog.getByLabel('Group ID').fill('org.acme');
    await dialog.getByLabel('Version').fill('1.1.0');
    await screenshot(page, 'search-advanced-gavc');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/ui/artifactSearchResults?searchType=gavc&groupID=org.acme&version=1.1.0');
    const table = page.locator('.ant-table');
    await table.getByRole('link', { name: 'billing-core-1.1.0.jar', exact: true }).waitFor();
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(2);
    expect(await table.getByRole('link', { name: 'billing-core-1.0.0.jar', exact: true }).count()).toBe(0);
  });

  it('deletes a result after a confirmation', async () => {
    await page.goto(`${server.url}/ui/artifactSearchResults?searchType=quick&name=other`);
    await page.getByRole('button', { name: 'Delete other.txt' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Delete other.txt?' });
    await confirm.getByText('It moves to the trash can').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Nothing matches this search.').waitFor();
    const gone = await fetch(`${server.url}/artifactory/files/reports/other.txt`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    });
    expect(gone.status).toBe(404);
  });

  it('lists recent searches after a reload, newest first, and opens one by keyboard', async () => {
    await page.reload();
    await page.getByRole('textbox', { name: 'Search', exact: true }).click();
    const recent = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item');
    await expect.poll(() => recent.allTextContents()).toEqual(['Maven GAVC: org.acme:*:1.1.0:*', 'Quick: billing']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'search-recent');
    // by keyboard: the arrows walk the list, Enter opens the entry
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/ui/artifactSearchResults?searchType=quick&name=billing');
    await page.locator('.ant-table').getByRole('link', { name: 'billing-core-1.0.0.jar', exact: true }).waitFor();
    expect(problems).toEqual([]);
  });

  it('searches from a dialog on a narrow screen, which a search closes', async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    try {
      await page.goto(`${server.url}/ui/overview`);
      await expect.poll(() => page.getByRole('textbox', { name: 'Search', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Search artifacts' }).click();
      const dialog = page.getByRole('dialog', { name: 'Search artifacts' });
      const bar = dialog.getByRole('textbox', { name: 'Search', exact: true });
      await bar.fill('billing');
      // the dialog has finished zooming in
      await expect.poll(() => page.locator('.ant-modal[class*="zoom-"]').count()).toBe(0);
      await screenshot(page, 'search-narrow-dialog');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await bar.press('Enter');
      await page.waitForURL('**/ui/artifactSearchResults?searchType=quick&name=billing');
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('.ant-table').getByRole('link', { name: 'billing-core-1.0.0.jar', exact: true }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
