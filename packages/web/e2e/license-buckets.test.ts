import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { consoleFetch } from './clients/clients';
import {
  ADMIN_PASSWORD,
  ROOT,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';

let management: RunningServer;
const members: RunningServer[] = [];
let browser: Browser;
let closeBrowser: () => Promise<void>;
let bucketFile = '';
const admin = { user: 'admin', password: ADMIN_PASSWORD };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-buckets-'));

/** `npm run arca -- …` on the management deployment's data directory, as its administrator runs it. */
function arca(...args: string[]): string {
  const run = spawnSync('npm', ['run', '--silent', 'arca', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ARCA_DATA_DIR: management.dataDir, ARCA_DATABASE_URL: '', ARCA_LOG_STDOUT: 'false' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`arca ${args.join(' ')} failed: ${run.stderr}${run.stdout}`);
  return run.stdout.trim();
}

beforeAll(async () => {
  management = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  // the fleet trusts what the management deployment signs
  const issuer = arca('license', 'issuer-key');
  members.push(
    ...(await Promise.all([
      startServer({ ARCA_LICENSE_ISSUER_KEYS: issuer }),
      startServer({ ARCA_LICENSE_ISSUER_KEYS: issuer }),
    ])),
  );
  bucketFile = path.join(work, 'fleet-2027.json');
  fs.writeFileSync(
    bucketFile,
    arca(
      'license',
      'bucket',
      'issue',
      '--edition',
      'ENTERPRISE',
      '--count',
      '5',
      '--licensee',
      'Acme',
      '--days',
      '365',
    ),
  );
  fs.writeFileSync(path.join(work, 'bucket.txt'), 'not json');
  for (const [i, member] of members.entries()) {
    const pairing = await fetch(`${member.url}/access/api/v1/pairing/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    });
    const registered = await consoleFetch(management.url, admin, 'POST', 'mc/api/v1/deployments', {
      name: `site-${i + 1}`,
      url: member.url,
      pairing_token: ((await pairing.json()) as { token: string }).token,
    });
    expect(registered.status).toBe(201);
  }
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await Promise.all([management?.stop(), ...members.map((m) => m.stop())]);
  fs.rmSync(work, { recursive: true, force: true });
});

describe('license buckets', () => {
  it('adds a bucket, attaches its licenses to two deployments, reports, splits and deletes', async () => {
    const { page, problems } = await signIn(browser, management.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/license_management/license_buckets',
    });
    await page.getByText('No license buckets yet').waitFor();
    await screenshot(page, 'license-buckets-empty');

    // add: the form's messages, then the file
    await page.getByRole('button', { name: 'Add New Bucket' }).first().click();
    await page.waitForURL('**/license_buckets/add');
    await page.getByRole('button', { name: 'Add Bucket' }).click();
    await page.getByText('This field is mandatory.').first().waitFor();
    await page.getByLabel('Bucket Name').fill('fleet 2027');
    await page.getByText('Name can only contain alphanumeric characters, dashes and periods.').waitFor();
    await page.getByLabel('Bucket Name').fill('fleet-2027');
    await page.locator('input[type=file]').setInputFiles(path.join(work, 'bucket.txt'));
    await page.getByText('File should have an extension of .json').waitFor();
    await page.locator('input[type=file]').setInputFiles(bucketFile);
    await page.getByText('fleet-2027.json').waitFor();
    await screenshot(page, 'license-buckets-add');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add Bucket' }).click();
    await page.getByText('Successfully added bucket').waitFor();
    await page.waitForURL('**/license_management/license_buckets');
    const row = page.getByRole('row', { name: /fleet-2027/ });
    await row.getByText('0 / 5').waitFor();
    await expect.poll(() => row.getByRole('cell', { name: 'Acme' }).count()).toBe(1);

    // attach: one license to each site (one node each), after the count's checks
    await row.getByRole('button', { name: 'Actions for fleet-2027' }).click();
    await page.getByRole('menuitem', { name: 'Attach License' }).click();
    await page.waitForURL('**/license_buckets/attach/**');
    await page.getByText('Only platform deployments with status Online and Partial are listed.').waitFor();
    await page
      .getByRole('row', { name: /site-1/ })
      .getByRole('checkbox')
      .check();
    await page
      .getByRole('row', { name: /site-2/ })
      .getByRole('checkbox')
      .check();
    const first = page.getByLabel('Licenses to attach to site-1');
    await first.fill('9');
    await page.getByText('Value too high').waitFor();
    await page
      .getByText('Licenses to be applied is more than the available number of licenses in the bucket.')
      .waitFor();
    await first.fill('1.5');
    await page.getByText('Decimal not allowed').waitFor();
    await first.fill('2');
    await page.getByRole('button', { name: 'Attach licenses (3)' }).click();
    const output = page.getByText('License Update Output');
    await output.waitFor();
    await page.getByText('Assigned 2 licenses from bucket fleet-2027 to site-1.').waitFor();
    await page.getByText('Assigned 1 license from bucket fleet-2027 to site-2.').waitFor();
    await screenshot(page, 'license-buckets-attach');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // the sites show the license in their footer and licenses page
    const site = await signIn(browser, members[0]!.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/license_management/licenses',
    });
    await site.page.getByTestId('footer-license').getByText('Enterprise license, licensed to Acme').waitFor();
    await site.page.getByText('2 (one per node, from a license bucket)').waitFor();
    await screenshot(site.page, 'license-buckets-site-licenses');
    await site.page.close();

    // the report
    await page.goto(`${management.url}/ui/admin/license_management/license_buckets`);
    await page
      .getByRole('row', { name: /^fleet-2027/ })
      .getByText('3 / 5')
      .waitFor();
    await page.getByRole('link', { name: 'fleet-2027' }).click();
    await page.waitForURL('**/license_buckets/report/**');
    await page.getByText('Maximum consumed licenses over time').waitFor();
    await page.getByRole('img', { name: 'At most 3 of 5 licenses used' }).locator('svg').first().waitFor();
    await page
      .getByRole('row', { name: /site-1/ })
      .getByText('All 2')
      .waitFor();
    await page
      .getByRole('row', { name: /site-2/ })
      .getByText('All 1')
      .waitFor();
    await screenshot(page, 'license-buckets-report');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // split the two free licenses off, then delete the split: they return to the parent
    await page.getByRole('button', { name: 'Back to License Buckets' }).click();
    await page.getByRole('button', { name: 'Actions for fleet-2027' }).click();
    await page.getByRole('menuitem', { name: 'Split', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Split bucket name').fill('team-a');
    await dialog.getByLabel('Number of licenses').fill('3');
    await dialog.getByRole('button', { name: 'Split' }).click();
    await dialog.getByText('Value too high').waitFor();
    await dialog.getByLabel('Number of licenses').fill('2');
    await dialog.getByRole('button', { name: 'Split' }).click();
    await page
      .getByRole('row', { name: /team-a/ })
      .getByText('Split of fleet-2027')
      .waitFor();
    // the list as a later visit finds it, no dialog closing over it
    await page.reload();
    await page
      .getByRole('row', { name: /^fleet-2027/ })
      .getByText('3 / 3')
      .waitFor();
    await screenshot(page, 'license-buckets-list');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Actions for team-a' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByText(
        'Deleting this split bucket re-adds its licenses to the parent bucket from the mission-control service.',
      )
      .waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Successfully removed bucket').waitFor();
    await page
      .getByRole('row', { name: /^fleet-2027/ })
      .getByText('3 / 5')
      .waitFor();
    expect(await page.getByRole('row', { name: /team-a/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
