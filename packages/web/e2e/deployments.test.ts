import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';

let management: RunningServer;
let member: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  // the management deployment may reach deployments on this machine
  [management, member] = await Promise.all([startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }), startServer()]);
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await Promise.all([management?.stop(), member?.stop()]);
});

describe('platform deployments', () => {
  it('pairs a deployment with a token made on it, shows its status and tests it', async () => {
    // the member's administrator makes a pairing token
    const memberSession = await signIn(browser, member.url, 'admin', ADMIN_PASSWORD);
    await memberSession.page.goto(`${member.url}/ui/admin/mission_control/platform_units`);
    await memberSession.page.getByText('No deployments yet.', { exact: false }).waitFor();
    await memberSession.page.getByRole('button', { name: 'Generate Pairing Token' }).click();
    const token = (await memberSession.page.locator('code').filter({ hasText: 'arcapair_' }).textContent())!.trim();
    expect(token).toMatch(/^arcapair_/);
    await memberSession.page.context().close();

    const { page, problems } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${management.url}/ui/admin/mission_control/platform_units`);
    await page.getByRole('button', { name: 'Add Deployment' }).click();
    await page.waitForURL('**/platform_units/add');
    await page.getByLabel('Name', { exact: true }).fill('member-eu');
    await page.getByLabel('URL', { exact: true }).fill(member.url);
    await page.getByLabel('Tags').fill('prod');
    await page.getByLabel('Tags').press('Enter');
    await page.getByLabel('City').fill('Amsterdam');
    await page.locator('input#pairing_token').fill('arcapair_not-a-real-one');
    await page.getByRole('button', { name: 'Add Deployment' }).click();
    await page.getByText('The pairing token is unknown, expired or used already.', { exact: false }).waitFor();
    await screenshot(page, 'platform-unit-add');
    await page.locator('input#pairing_token').fill(token);
    await page.getByRole('button', { name: 'Add Deployment' }).click();
    await page.getByText('Platform registration was successful').waitFor();
    await page.waitForURL('**/platform_units');
    const row = page.getByRole('row', { name: /member-eu/ });
    await row.getByText('Online').waitFor();
    await row.getByText('Amsterdam').waitFor();
    await row.getByRole('button', { name: 'Test member-eu' }).click();
    await page.getByText('Test connection was successful').waitFor();
    await screenshot(page, 'platform-units');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // the refused pairing's 400 is the one console error expected
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await page.context().close();
  });
});
