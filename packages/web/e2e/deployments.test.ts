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
    const memberSession = await signIn(browser, member.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/mission_control/platform_units',
    });
    await memberSession.page.getByText('No deployments yet.', { exact: false }).waitFor();
    await memberSession.page.getByRole('button', { name: 'Generate Pairing Token' }).click();
    const token = (await memberSession.page.locator('code').filter({ hasText: 'arcapair_' }).textContent())!.trim();
    expect(token).toMatch(/^arcapair_/);
    await memberSession.page.context().close();

    const { page, problems } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/mission_control/platform_units',
    });
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

  it('asks for a pairing token made at the new address when a deployment’s URL changes', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
    const pairing = await fetch(`${member.url}/access/api/v1/pairing/token`, { method: 'POST', headers: basic });
    const registered = await fetch(`${management.url}/ui/api/v1/mc/api/v1/deployments`, {
      method: 'POST',
      headers: { ...basic, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ name: 'member-moving', url: member.url, pairing_token: (await pairing.json()).token }),
    });
    expect(registered.status).toBe(201);
    const { id } = (await registered.json()) as { id: string };
    const { page } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD, {
      at: `/admin/mission_control/platform_units/${id}`,
    });
    await page.getByRole('heading', { name: 'Edit member-moving' }).waitFor();
    // the same address asks for nothing more
    expect(await page.locator('input#pairing_token').count()).toBe(0);
    await page.getByLabel('URL', { exact: true }).fill('https://arca-eu.example.com');
    await page
      .getByText('The URL changed: Arca pairs with the deployment at the new address', { exact: false })
      .waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Token required').waitFor();
    await screenshot(page, 'platform-unit-url-change');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});
