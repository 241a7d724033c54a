import { createHash } from 'node:crypto';
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

/** Release bundles in the console: made from a build with the wizard, verified, promoted through environments. */
let server: RunningServer;
let edge: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
let problems: string[];

const admin = { user: 'admin', password: ADMIN_PASSWORD };
const call = (method: string, url: string, body?: unknown) => restCall(server.url, admin, method, url, body);
const sha = (algorithm: string, body: string) => createHash(algorithm).update(body).digest('hex');

beforeAll(async () => {
  // the source reaches the target on this machine: the outbound policy is told to let it
  [server, edge] = await Promise.all([startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' }), startServer()]);
  for (const key of ['libs-release', 'dev-local', 'qa-local', 'prod-local'])
    await call('PUT', `/artifactory/api/repositories/${key}`, { rclass: 'local' });
  const deploy = await fetch(`${server.url}/artifactory/libs-release/org/shop/shop-2.0.jar`, {
    method: 'PUT',
    headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    body: 'shop jar',
  });
  expect(deploy.status).toBe(201);
  await call('PUT', '/artifactory/api/build', {
    version: '1.0.1',
    name: 'shop',
    number: '42',
    started: '2026-11-21T09:00:00.000+0000',
    modules: [
      {
        id: 'org.shop:shop:2.0',
        artifacts: [
          {
            type: 'jar',
            name: 'shop-2.0.jar',
            sha1: sha('sha1', 'shop jar'),
            sha256: sha('sha256', 'shop jar'),
            md5: sha('md5', 'shop jar'),
          },
        ],
      },
    ],
  });
  const key = await fetch(`${server.url}/ui/api/v1/ui/security/keyPairs`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    },
    body: JSON.stringify({ pairName: 'release-key', pairType: 'GPG', alias: 'releases@shop.example' }),
  });
  expect(key.status).toBe(201);
  for (const [name, repo] of [
    ['QA', 'qa-local'],
    ['PROD', 'prod-local'],
  ])
    await call('PUT', `/access/api/v1/environments/${name}`, { description: '', repositories: [repo] });
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
    viewport: { width: 1400, height: 900 },
    at: '/bundles',
  }));
});
afterAll(async () => {
  await closeBrowser?.();
  await Promise.all([server?.stop(), edge?.stop()]);
});

describe('release bundles in the console', () => {
  it('creates a bundle from a build, verifies it, and promotes it through DEV and QA', async () => {
    await page.getByText(/No release bundle yet/).waitFor();
    await screenshot(page, 'bundles-empty');
    await page.getByRole('button', { name: 'New Release Bundle' }).click();
    await page.waitForURL('**/ui/bundles/source');
    await page.getByRole('heading', { name: 'New Release Bundle' }).waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('shop');
    await page.getByRole('textbox', { name: 'Version' }).fill('2.0.0');
    await page.getByRole('textbox', { name: 'Description' }).fill('The spring release of the shop');
    await chooseOption(page, page.getByLabel('Signing key'), 'release-key');
    await page.getByRole('button', { name: 'Next' }).click();
    await chooseOption(page, page.getByLabel('Build', { exact: true }), 'shop');
    await expect.poll(() => page.getByLabel('Build number').inputValue()).toBe('42');
    await screenshot(page, 'bundle-wizard-source');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Once created, its artifacts cannot be deleted').waitFor();
    await screenshot(page, 'bundle-wizard-review');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/ui/bundles/shop/2.0.0');
    await page.getByRole('link', { name: 'libs-release/org/shop/shop-2.0.jar' }).waitFor();
    await page.getByRole('link', { name: 'shop #42' }).waitFor();
    await page.getByRole('button', { name: 'Verify' }).click();
    await page
      .getByText('The manifest matches its signature and every artifact is in place with its SHA-256.')
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundle-version');

    // DEV has no repositories yet: the dialog says so and where to assign them
    await page.getByRole('button', { name: 'Promote' }).click();
    const dialog = page.getByRole('dialog', { name: 'Promote shop 2.0.0' });
    await dialog.getByText('DEV has no repositories yet.').waitFor();
    await dialog.getByRole('link', { name: 'Environments' }).click();
    await page.waitForURL('**/ui/admin/environments');
    await page.getByRole('button', { name: 'Edit environment DEV' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit DEV' });
    await chooseOption(page, edit.getByLabel('Repositories'), 'dev-local');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'dev-local' }).waitFor();
    await screenshot(page, 'environments');

    await page.goto(`${server.url}/ui/bundles/shop/2.0.0`);
    for (const environment of ['DEV', 'QA']) {
      await page.getByRole('button', { name: 'Promote' }).click();
      const promote = page.getByRole('dialog', { name: 'Promote shop 2.0.0' });
      await expect
        .poll(() =>
          promote
            .getByLabel('Environment')
            .locator('xpath=ancestor::div[contains(@class,"ant-select ")][1]')
            .textContent(),
        )
        .toContain(environment);
      if (environment === 'QA') await screenshot(page, 'bundle-promote-dialog');
      await promote.getByRole('button', { name: 'Promote' }).click();
      await page.getByText(`shop 2.0.0 was promoted to ${environment}.`).waitFor();
    }
    await page.getByRole('tab', { name: 'Promotions (2)' }).click();
    await page.getByText('copied to qa-local by admin').waitFor();
    await expect
      .poll(() =>
        page
          .getByLabel(/Environments reached/)
          .first()
          .getAttribute('aria-label'),
      )
      .toBe('Environments reached: DEV, QA');
    await screenshot(page, 'bundle-promotions');
    const copied = await fetch(`${server.url}/artifactory/qa-local/org/shop/shop-2.0.jar`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    });
    expect(await copied.text()).toBe('shop jar');

    await page.getByRole('link', { name: 'Release Bundles' }).first().click();
    await page.waitForURL('**/ui/bundles');
    await page.getByRole('link', { name: 'shop', exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundles');
    expect(problems).toEqual([]);
  });

  it('distributes the bundle to a paired deployment and shows each target with its progress', async () => {
    const pairing = (await (await restCall(edge.url, admin, 'POST', '/access/api/v1/pairing/token')).json()) as {
      token: string;
    };
    const paired = await fetch(`${server.url}/ui/api/v1/mc/api/v1/deployments`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: JSON.stringify({ name: 'edge-eu', url: edge.url, pairing_token: pairing.token }),
    });
    expect(paired.status).toBe(201);
    await page.goto(`${server.url}/ui/bundles/shop/2.0.0`);
    await page.getByRole('button', { name: 'Distribute' }).click();
    const dialog = page.getByRole('dialog', { name: 'Distribute shop 2.0.0' });
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Targets' }), 'edge-eu');
    await screenshot(page, 'bundle-distribute-dialog');
    await dialog.getByRole('button', { name: 'Distribute' }).click();
    await page.getByText('shop 2.0.0 is being distributed to edge-eu.').waitFor();
    await page.getByRole('tab', { name: 'Distribution' }).click();
    await page.getByRole('cell', { name: 'completed' }).waitFor({ timeout: 30_000 });
    await page.getByText('8 B (1 file)').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundle-distribution');
    const received = (await (
      await restCall(edge.url, admin, 'GET', '/lifecycle/api/v2/release_bundle/records/shop/2.0.0')
    ).json()) as { origin: string };
    expect(received.origin).toBe('received');

    // the target goes away: a distribution again waits for it, and is aborted from here
    await edge.stop();
    await page.getByRole('button', { name: 'Distribute again to edge-eu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Distribute' }).click();
    await page.getByText(/^attempt \d+ failed, trying again/).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Abort distribution' }).click();
    const confirm = page.getByRole('dialog', { name: 'Abort the distribution of shop 2.0.0?' });
    await confirm.getByText('edge-eu will not take this version').waitFor();
    await confirm.getByRole('button', { name: 'Abort distribution' }).click();
    await page.getByText('The distribution to edge-eu was aborted.').waitFor();
    await page.getByRole('cell', { name: 'aborted', exact: true }).waitFor();
    await page.getByText('Aborted by admin.').waitFor();
    expect(await page.getByRole('button', { name: 'Abort distribution' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'bundle-distribution-aborted');
    expect(problems).toEqual([]);
  });
});
