import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { consoleFetch } from './clients/clients';
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

let management: RunningServer;
let member: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const admin = { user: 'admin', password: ADMIN_PASSWORD };
const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

async function rest(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: basic, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

beforeAll(async () => {
  // the deployments reach each other on this machine
  const env = { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
  [management, member] = await Promise.all([startServer(env), startServer(env)]);
  ({ browser, close: closeBrowser } = await launchBrowser());
  // the member is registered (the pairing itself is the deployments test's), with a location
  const pairing = (await (await rest(member.url, 'POST', '/access/api/v1/pairing/token')).json()) as { token: string };
  const registered = await consoleFetch(management.url, admin, 'POST', 'mc/api/v1/deployments', {
    name: 'member-us',
    url: member.url,
    tags: ['prod'],
    location: { city: 'New York', latitude: 40.71, longitude: -74.0 },
    pairing_token: pairing.token,
  });
  expect(registered.status).toBe(201);
  for (const at of [management, member])
    expect(
      (await rest(at.url, 'PUT', '/artifactory/api/repositories/libs', { rclass: 'local', packageType: 'generic' }))
        .status,
    ).toBeLessThan(300);
  for (let i = 0; i < 30; i++)
    expect(
      (await rest(management.url, 'PUT', `/artifactory/libs/org/demo/${i}/demo-${i}.txt`, `demo ${i}`)).status,
    ).toBe(201);
});
afterAll(async () => {
  await closeBrowser?.();
  await Promise.all([management?.stop(), member?.stop()]);
});

describe('mission control', () => {
  it('runs the federation wizard, and a user made here can then sign in on the member', async () => {
    const { page, problems } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/mission_control/access_federation',
    });
    await page.getByText('No federation yet.', { exact: false }).waitFor();
    await screenshot(page, 'access-federation-empty');
    await page.getByRole('button', { name: 'New Full Mesh' }).click();
    await page.waitForURL('**/access_federation/mesh');
    // too few members, then no entity type: each step says what is missing
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('A full mesh joins at least two deployments.').waitFor();
    await page.getByRole('checkbox', { name: /this deployment/ }).check();
    await page.getByRole('checkbox', { name: /member-us/ }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    for (const name of ['Users', 'Groups', 'Permissions']) await page.getByRole('checkbox', { name }).uncheck();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('Please select at least one entity to sync').waitFor();
    await page.getByRole('checkbox', { name: 'Users' }).check();
    await page.getByRole('checkbox', { name: 'Groups' }).check();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('What happens').waitFor();
    await screenshot(page, 'access-federation-summary');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByLabel('Configuration output').waitFor();
    await screenshot(page, 'access-federation-output');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // the wizard's own Close (the notification has one too)
    await page.locator('.ant-card').getByRole('button', { name: 'Close' }).click();
    await page.waitForURL('**/access_federation');
    await page
      .getByRole('row', { name: /member-us/ })
      .first()
      .waitFor();
    expect(await page.getByRole('row', { name: /Full Mesh/ }).count()).toBe(2);
    // a row opened shows how its member is doing
    await page
      .getByRole('row', { name: /member-us/ })
      .first()
      .getByRole('button', { name: /Expand row/ })
      .click();
    await page.getByText('In sync').first().waitFor();
    await screenshot(page, 'access-federation');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // the federation works: a user made on the management deployment signs in on the member
    expect(
      (
        await rest(management.url, 'PUT', '/artifactory/api/security/users/carol', {
          email: 'c@x.io',
          password: 'Carol-pass-1',
        })
      ).status,
    ).toBe(201);
    await expect
      .poll(
        async () =>
          (
            await fetch(`${member.url}/access/api/v1/tokens`, {
              headers: { authorization: `Basic ${Buffer.from('carol:Carol-pass-1').toString('base64')}` },
            })
          ).status,
        { timeout: 20_000 },
      )
      .toBe(200);
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await page.context().close();
  });

  it('creates a replication, runs it and watches its history, and draws the fleet', async () => {
    const { page, problems } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/mission_control/replications',
    });
    await page.getByText('No replication yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'New Replication' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('libs-us');
    await chooseOption(page, dialog.getByLabel('Local repository (here)'), 'libs');
    await chooseOption(page, dialog.getByLabel('Deployment', { exact: true }), 'member-us');
    await dialog.getByLabel('Repository on the deployment').fill('libs');
    await screenshot(page, 'replication-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The replication was saved.').waitFor();
    const row = page.getByRole('row', { name: /libs-us/ });
    await row.getByText('never').waitFor();
    await row.getByRole('button', { name: 'Run libs-us' }).click();
    // the output dialog follows the run to its end
    const output = page.getByRole('dialog', { name: 'Run output' });
    await output.getByText('Done in', { exact: false }).waitFor({ timeout: 30_000 });
    await output.getByText('30 sent', { exact: false }).waitFor();
    await screenshot(page, 'replication-output');
    await output.getByRole('button', { name: 'Close' }).first().click();
    await row.getByText('Success').waitFor();
    await screenshot(page, 'replications');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('tabpanel', { name: 'History' });
    await history
      .getByRole('row', { name: /libs-us/ })
      .getByText('Success')
      .waitFor();
    await history.getByText('Last data pull', { exact: false }).waitFor();
    await screenshot(page, 'replications-history');
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    await page.getByText('Files per day').waitFor();
    await screenshot(page, 'replications-monitoring');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // what the run sent is on the member
    const listed = (await (
      await rest(member.url, 'GET', '/artifactory/api/storage/libs/org/demo?list&deep=1&listFolders=0')
    ).json()) as { files: unknown[] };
    expect(listed.files).toHaveLength(30);

    // the topology: this deployment and the member, on the map (the member has a location) and linked
    await page.goto(`${management.url}/ui/admin/mission_control/topology`);
    await page.getByRole('group', { name: 'Deployments on a world map' }).waitFor();
    const graph = page.getByRole('group', { name: 'Federation and replication links' });
    await graph.getByRole('button', { name: /member-us: ONLINE/ }).click();
    const drawer = page.getByRole('dialog', { name: 'member-us' });
    await drawer.getByText('30 artifacts', { exact: false }).waitFor();
    await drawer.getByText('libs-us: libs → libs', { exact: false }).waitFor();
    // the drawer at rest, not sliding in
    await page.locator('.ant-drawer-content-wrapper:not([class*="-enter"]):not([class*="-appear"])').waitFor();
    await screenshot(page, 'topology-drill-down');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL('**/mission_control/topology');
    // this deployment is placed on the map by its own location
    const map = page.getByRole('group', { name: 'Deployments on a world map' });
    expect(await map.getByRole('button', { name: /^Arca:/ }).count()).toBe(0);
    await graph.getByRole('button', { name: /^Arca: ONLINE/ }).click();
    const own = page.getByRole('dialog', { name: 'Arca' });
    await own.getByLabel('City').fill('Frankfurt');
    await own.getByLabel('Latitude').fill('50.11');
    await own.getByLabel('Longitude').fill('8.68');
    await own.getByRole('button', { name: 'Save location' }).click();
    await page.getByText('The location was saved.').waitFor();
    await own.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL('**/mission_control/topology');
    await map.getByRole('button', { name: /^Arca: ONLINE/ }).waitFor();
    // the drawer gone, not sliding out
    await page.locator('.ant-drawer-content-wrapper').waitFor({ state: 'detached' });
    // the week's traffic between deployments, the member first
    await page.getByRole('img', { name: 'Bytes replicated per deployment' }).getByText('member-us').waitFor();
    await screenshot(page, 'topology');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
