import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
} from './harness';

describe('operations in the console', () => {
  let server: RunningServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  beforeAll(async () => {
    server = await startServer({ ARCA_LOG_LEVEL: 'info' });
    ({ browser, close: closeBrowser } = await launchBrowser());
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  it('shows a node’s live log, a line appearing after an action, with pause and resume', async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/monitoring/system_logs',
    });
    await page.getByRole('heading', { name: 'System Logs' }).waitFor();
    await page.getByLabel('File', { exact: true }).click();
    await page.locator('.ant-select-item-option[title="jfrt-request.log"]').click();
    const view = page.getByLabel('Contents of jfrt-request.log');
    // formatted for reading: time, level, service, message, then the fields
    await expect.poll(() => view.textContent(), { timeout: 15_000 }).toMatch(/Z INFO {2}\[jfrt\] request reqId=/);

    // an action, then Refresh now: its line is appended
    await fetch(`${server.url}/artifactory/api/system/ping?from-the-log-test`);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect.poll(() => view.textContent(), { timeout: 15_000 }).toContain('ping?from-the-log-test');
    // and without a click, the countdown's refresh brings the next one
    await fetch(`${server.url}/artifactory/api/system/ping?by-the-countdown`);
    await expect.poll(() => view.textContent(), { timeout: 20_000, interval: 500 }).toContain('ping?by-the-countdown');
    expect(await page.getByText(/^Last modified: [^—]/).isVisible()).toBe(true);
    // or as the file has it
    await page.getByText('Raw', { exact: true }).click();
    await expect.poll(() => view.textContent()).toContain('"url":"/artifactory/api/system/ping?by-the-countdown"');
    await page.getByText('Formatted', { exact: true }).click();

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByLabel('Refresh paused').isVisible()).toBe(true);
    await screenshot(page, 'system-logs-paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => page.getByLabel(/Next refresh in \d+ seconds/).isVisible()).toBe(true);

    // the access service's log of the same node
    await page.getByLabel('Product', { exact: true }).click();
    await page.locator('.ant-select-item-option[title="Access (users, tokens, audit)"]').click();
    await expect.poll(() => page.getByLabel('Contents of jfac-service.log').isVisible()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'system-logs');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('removes a node that stopped from Service Status, after a confirmation', async () => {
    // a second node on the same data directory, started and stopped: it stays listed, Offline
    const second = await startServer({}, { dataDir: server.dataDir });
    const port = new URL(second.url).port;
    await second.stop();
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/monitoring/service-status',
    });
    await page.getByRole('heading', { name: 'Service Status' }).waitFor();
    const removeButton = page.getByRole('button', { name: new RegExp(`^Remove node .*-${port}$`) });
    await expect.poll(() => removeButton.isVisible(), { timeout: 15_000 }).toBe(true);
    // the running node offers no removal
    expect(await page.getByRole('button', { name: /^Remove node / }).count()).toBe(1);
    await screenshot(page, 'service-status-stopped-node');
    await removeButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => page.getByText(/^Removed node /).isVisible()).toBe(true);
    await expect.poll(() => removeButton.count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('creates a support bundle, shows it being made, then downloads its zip', async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/support-zone',
    });
    await page.getByRole('heading', { name: 'Support Zone' }).waitFor();
    // the list is fetched again after the deletion: a loaded machine takes more than the default second
    await expect.poll(() => page.getByText(/No support bundles yet/).isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'support-zone-empty');
    await page.getByRole('button', { name: /Create Support Bundle/ }).hover();
    await page.getByRole('menuitem', { name: /Artifactory/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByText('This field is mandatory.').isVisible()).toBe(true);
    await dialog.getByLabel('Name', { exact: true }).fill('deploys are slow');
    await dialog.getByLabel('Description', { exact: true }).fill('since Monday');
    await dialog.getByLabel('Thread dumps', { exact: true }).fill('2');
    await dialog.getByLabel('Interval (seconds)', { exact: true }).fill('1');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'support-zone-create');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // listed at once as being made, then ready (the list refreshes every 3 s while one is made)
    await expect.poll(() => page.locator('td').getByText('deploys are slow', { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() => page.locator('td').getByText('Ready', { exact: true }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'support-zone');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download deploys are slow' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^deploys_are_slow-[0-9a-f]{8}\.zip$/);
    const fs = await import('node:fs');
    const zip = fs.readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.length).toBeGreaterThan(1000);
    await page.getByRole('button', { name: 'Delete deploys are slow' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    // the list is fetched again after the deletion: a loaded machine takes more than the default second
    await expect.poll(() => page.getByText(/No support bundles yet/).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('backs the deployment up from the Backups page and lists the backup', async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/configuration/backups',
    });
    await page.getByRole('heading', { name: 'Backups' }).waitFor();
    await expect.poll(() => page.getByText(/No backup yet/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Back Up Now' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'SQLite' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Back Up Now' }).isEnabled()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'backups');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
