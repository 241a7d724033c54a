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
} from './harness';

const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

describe('retention and archive in the console', () => {
  let server: RunningServer;
  let browser: Browser;
  let closeBrowser: () => Promise<void>;
  beforeAll(async () => {
    server = await startServer({ ARCA_ARCHIVE_RELEASE_GRACE_SECONDS: '0' });
    ({ browser, close: closeBrowser } = await launchBrowser());
    const created = await fetch(`${server.url}/artifactory/api/repositories/archive-local`, {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ rclass: 'local' }),
    });
    expect(created.status).toBe(200);
    for (let i = 0; i < 24; i++) {
      const keep = i % 4 === 0 ? ';keep=true' : '';
      const res = await fetch(`${server.url}/artifactory/archive-local/releases/v${i}/app-${i}.bin${keep}`, {
        method: 'PUT',
        headers: { authorization: AUTH },
        body: `release ${i} `.repeat(200 + i),
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await closeBrowser?.();
    await server?.stop();
  });

  it('creates a policy, previews what it takes, runs it, finds an artifact in the archive and restores it', async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/artifactory/services/retention/policies',
    });
    await page.getByRole('heading', { name: 'Retention Policies' }).waitFor();
    await page.getByText('No retention policy yet.').waitFor();
    await page.getByRole('button', { name: 'New Policy' }).click();
    await page.getByRole('heading', { name: 'New Retention Policy' }).waitFor();

    await page.getByLabel('Policy Name').fill('old-releases');
    await page.getByLabel('Description').fill('Releases nobody downloads any more');
    await expect.poll(() => page.getByText(/^Next runs: /).isVisible(), { timeout: 10_000 }).toBe(true);
    await chooseOption(page, page.getByLabel('Include repositories'), 'archive-local');
    await page.getByLabel('Include Names').fill('*.bin');
    await page.keyboard.press('Enter');
    await page.getByLabel('Exclude Properties').fill('keep=true');
    await page.keyboard.press('Enter');
    // the files are new: not downloaded for a while is not the point here
    await page.getByRole('checkbox', { name: 'Not downloaded for' }).uncheck();

    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('table', { name: 'Artifacts the policy would archive' });
    await expect.poll(() => page.locator('.ant-descriptions-item-content').first().textContent()).toBe('18');
    expect(await preview.getByText('archive-local/releases/v1/app-1.bin').isVisible()).toBe(true);
    expect(await preview.getByText('archive-local/releases/v0/app-0.bin').count()).toBe(0);
    await screenshot(page, 'retention-policy-editor');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Policy saved successfully').waitFor();
    await page.getByRole('link', { name: 'Edit old-releases' }).waitFor();

    await page.getByRole('button', { name: 'Run old-releases now' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run Now' }).click();
    await page.getByText("The policy 'old-releases' was triggered.").waitFor();
    await expect
      .poll(() => page.getByRole('row', { name: /old-releases/ }).textContent(), { timeout: 20_000 })
      .toMatch(/Complete.*18 of 18/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'retention-policies');

    await page.getByRole('tab', { name: 'Executions' }).click();
    await page.getByRole('row', { name: /Archiving/ }).waitFor();
    await screenshot(page, 'retention-executions');
    await page.getByRole('button', { name: /Artifacts of the archiving run/ }).click();
    await page.getByRole('dialog').getByText('archive-local/releases/v1/app-1.bin').waitFor();
    await screenshot(page, 'retention-execution-items');
    await page.keyboard.press('Escape');

    // the archive search: today's archiving, by name
    await page.goto(`${server.url}/ui/artifactoryRetention/search`);
    await page.getByRole('heading', { name: 'Archive Search' }).waitFor();
    await page.getByText('18 item(s)').waitFor();
    await page.getByLabel('Name').fill('app-5.*');
    await page.getByRole('button', { name: 'search Search', exact: true }).click();
    await page.getByText('1 item(s)').waitFor();
    await screenshot(page, 'archive-search');
    await page.getByRole('button', { name: 'Restore archive-local/releases/v5/app-5.bin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Restore to the original location').waitFor();
    await screenshot(page, 'archive-restore-dialog');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Restoring 1 item(s).').waitFor();
    await page.waitForURL(/tab=executions/);
    await expect
      .poll(
        async () =>
          (
            await fetch(`${server.url}/artifactory/archive-local/releases/v5/app-5.bin`, {
              headers: { authorization: AUTH },
            })
          ).status,
        { timeout: 15_000 },
      )
      .toBe(200);
    const back = await fetch(`${server.url}/artifactory/archive-local/releases/v5/app-5.bin`, {
      headers: { authorization: AUTH },
    });
    expect(await back.text()).toBe('release 5 '.repeat(205));

    await page.goto(`${server.url}/ui/admin/artifactory/services/retention/cold_storage_monitoring`);
    await page.getByRole('heading', { name: 'Cold Storage' }).waitFor();
    await page.getByText('17', { exact: true }).first().waitFor();
    await screenshot(page, 'cold-storage');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
