import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
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
import { clientHome, restCall, run } from './clients/clients';

/** The Packages pages after a publish with the real npm: list, package, version, and the way into the tree. */
let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
let problems: string[];
const { home, env } = clientHome();

const call = (method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

async function npmPublish(name: string, version: string, readme: string, extra: Record<string, unknown> = {}) {
  const dir = fs.mkdtempSync(path.join(home, 'pkg-'));
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, version, description: `The ${name} library`, license: 'MIT', keywords: ['demo'], ...extra }),
  );
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 1;\n');
  fs.writeFileSync(path.join(dir, 'README.md'), readme);
  const token = (
    (await (await call('POST', '/access/api/v1/tokens', { description: 'npm' })).json()) as { access_token: string }
  ).access_token;
  const registry = `${server.url}/artifactory/api/npm/npm-local/`;
  fs.writeFileSync(
    path.join(dir, '.npmrc'),
    `registry=${registry}\n${registry.replace('http:', '')}:_authToken=${token}\n`,
  );
  await run('npm', ['publish', '--userconfig', path.join(dir, '.npmrc')], { cwd: dir, env });
}

beforeAll(async () => {
  // advisory sources are fetched from a server of this file's
  server = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call('PUT', '/artifactory/api/repositories/npm-local', { rclass: 'local', packageType: 'npm' });
  ({ browser, close: closeBrowser } = await launchBrowser());
  ({ page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
    viewport: { width: 1400, height: 900 },
  }));
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Packages pages', () => {
  it('says what to do while there are no packages', async () => {
    await page.goto(`${server.url}/ui/packages`);
    await page.getByText('No packages yet.', { exact: false }).waitFor();
    await screenshot(page, 'packages-empty');
  });

  it('finds a package published with npm, shows its readme and versions, and leads into the tree', async () => {
    const readme =
      '# Greeter\n\nSays **hello**.\n\n<script>window.pwned = true</script>\n\n<img src="x" onerror="window.pwned = true">\n';
    // semver order, not text order: 1.10.0 is the newest
    await npmPublish('@acme/greeter', '1.0.0', readme);
    await npmPublish('@acme/greeter', '1.2.0', readme);
    await npmPublish('@acme/greeter', '1.10.0', readme, { dependencies: { 'left-pad': '^1.3.0' } });
    await npmPublish('left-pad', '1.3.0', '# left-pad\n');

    await page.goto(`${server.url}/ui/packages`);
    // the catalogue is filled from the outbox within a second or two
    await expect
      .poll(async () => page.getByRole('link', { name: '@acme/greeter' }).count(), {
        timeout: 15_000,
        interval: 500,
      })
      .toBe(1);
    await page.reload();
    await page.getByRole('link', { name: '@acme/greeter' }).waitFor();
    expect(await page.getByText('2 packages').count()).toBe(1);
    await screenshot(page, 'packages-list');
    expect(problems).toEqual([]);
    // search by name: too short, then a match
    await page.getByLabel('Search packages by name').fill('le');
    await page.getByText('Type at least 3 characters').waitFor();
    await page.getByLabel('Search packages by name').fill('left');
    await page.getByText('1 package', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: '@acme/greeter' }).count()).toBe(0);
    await page.getByLabel('Search packages by name').fill('');
    await page.getByText('2 packages').waitFor();

    await page.getByRole('link', { name: '@acme/greeter' }).click();
    await page.getByRole('heading', { level: 1, name: '@acme/greeter' }).waitFor();
    await page.getByTestId('readme').getByRole('heading', { name: 'Greeter' }).waitFor();
    expect(await page.getByTestId('readme').locator('strong').textContent()).toBe('hello');
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(await page.getByLabel('Install command').textContent()).toContain('npm install @acme/greeter@1.10.0');
    await screenshot(page, 'package-readme');
    expect(problems).toEqual([]);
    await page.getByRole('tab', { name: /Versions/ }).click();
    const versions = page.getByRole('tabpanel').getByRole('link');
    await versions.first().waitFor();
    expect(await versions.allTextContents()).toEqual(['1.10.0', '1.2.0', '1.0.0']);
    await screenshot(page, 'package-versions');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await versions.first().click();
    await page.getByRole('heading', { level: 1, name: '@acme/greeter 1.10.0' }).waitFor();
    await page.getByRole('cell', { name: 'left-pad', exact: true }).waitFor();
    await page.getByText('No known vulnerability', { exact: false }).waitFor();
    await screenshot(page, 'package-version');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: '@acme/greeter/-/greeter-1.10.0.tgz' }).click();
    await page.waitForURL('**/ui/repos/tree/General/npm-local/%40acme/greeter/-/greeter-1.10.0.tgz');
    await page.getByText('greeter-1.10.0.tgz').first().waitFor();
    expect(problems).toEqual([]);
  });

  it('shows the advisories a version is affected by, most severe first, once they are imported', async () => {
    const record = (id: string, events: object[], severity: string, aliases: string[] = []) => ({
      id,
      modified: '2026-11-01T00:00:00Z',
      summary: `left-pad ${severity.toLowerCase()} advisory`,
      aliases,
      affected: [{ package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [{ type: 'SEMVER', events }] }],
      database_specific: { severity },
    });
    const imported = await call('POST', '/xray/api/v1/advisories/import?name=advisories.json', [
      record('GHSA-e2e-0001', [{ introduced: '0' }, { fixed: '1.3.1' }], 'MODERATE'),
      record('GHSA-e2e-0002', [{ introduced: '1.0.0' }, { fixed: '1.4.0' }], 'CRITICAL', ['CVE-2026-4242']),
      record('GHSA-e2e-0003', [{ introduced: '2.0.0' }], 'HIGH'),
    ]);
    expect(imported.status).toBe(200);
    await page.goto(`${server.url}/ui/packages`);
    await page.getByRole('link', { name: 'left-pad' }).click();
    await page.getByRole('tab', { name: /Versions/ }).click();
    await page.getByRole('tabpanel').getByRole('link', { name: '1.3.0' }).click();
    await page.getByRole('heading', { level: 1, name: 'left-pad 1.3.0' }).waitFor();
    // the import's matching runs on the server: the card shows what it found once it has
    const security = page.locator('.ant-card').filter({ hasText: 'Security' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await security.getByRole('table').waitFor();
          return security.getByRole('row').count();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(3);
    const rows = await security.getByRole('row').allTextContents();
    expect(rows[1]).toContain('Critical');
    expect(rows[1]).toContain('GHSA-e2e-0002');
    expect(rows[1]).toContain('CVE-2026-4242');
    expect(rows[1]).toContain('1.4.0');
    expect(rows[2]).toContain('Medium');
    expect(rows[2]).toContain('1.3.1');
    expect(await security.getByText('scanned', { exact: true }).count()).toBe(1);
    expect(await security.getByText('MIT', { exact: true }).count()).toBe(1);
    await screenshot(page, 'package-version-security');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // the tarball in the tree: its Security tab shows the scan of its version
    await page.goto(`${server.url}/ui/repos/tree/General/npm-local/left-pad/-/left-pad-1.3.0.tgz`);
    await page.getByRole('tab', { name: 'Security' }).click();
    const tab = page.getByRole('tabpanel', { name: 'Security' });
    await tab.getByRole('table').waitFor();
    const treeRows = await tab.getByRole('row').allTextContents();
    expect(treeRows).toHaveLength(3);
    expect(treeRows[1]).toContain('GHSA-e2e-0002');
    // matched again on request, saying what it found
    await tab.getByRole('button', { name: 'Scan now' }).click();
    await page.getByText('Scanned: 2 advisories affect it').waitFor();
    await screenshot(page, 'tree-security-tab');

    // the overview: open issues by severity, of the versions scanned
    await page.goto(`${server.url}/ui/overview`);
    const card = page.locator('.ant-card').filter({ hasText: 'Open security issues' });
    await card
      .getByRole('img', { name: 'Open issues by severity: Critical 1, High 0, Medium 1, Low 0, Unknown 0' })
      .waitFor();
    expect(await card.textContent()).toContain('2 open issues in 1 version of 4 versions scanned.');
    await screenshot(page, 'overview-security');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // the header's Security scanning search: which versions a CVE concerns
    const header = page.getByRole('banner');
    await chooseOption(page, header.getByLabel('Search type'), 'Security scanning');
    const bar = header.getByRole('textbox', { name: 'Search', exact: true });
    await bar.fill('CVE-2026-4242');
    await bar.press('Enter');
    await page.waitForURL('**/ui/security/vulnerabilities?q=CVE-2026-4242');
    const found = page.getByRole('row').filter({ hasText: 'GHSA-e2e-0002' });
    await found.waitFor();
    expect(await found.textContent()).toContain('left-pad 1.3.0');
    expect(await found.textContent()).toContain('npm-local/left-pad/-/left-pad-1.3.0.tgz');
    await screenshot(page, 'vulnerability-search');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // a package no advisory concerns: the empty state says so
    await page.getByRole('searchbox', { name: 'Advisory, CVE id or package name' }).fill('@acme/greeter');
    await page.getByRole('searchbox', { name: 'Advisory, CVE id or package name' }).press('Enter');
    await page.getByText("No package version you may read is affected by '@acme/greeter'.", { exact: false }).waitFor();
    expect(problems).toEqual([]);
  });
});

describe('the Security & Compliance pages', () => {
  it('creates a policy, a watch that applies it and an ignore rule, and deletes them after a confirmation', async () => {
    await page.goto(`${server.url}/ui/admin/security/policies`);
    await page.getByRole('heading', { name: 'Security & Compliance' }).waitFor();
    await page.getByText('No policies yet.').waitFor();
    // a watch applies policies: there is none to apply yet
    await page.getByRole('tab', { name: 'Watches' }).click();
    await page.waitForURL('**/admin/security/watches');
    await page.getByText('Create a policy first').waitFor();
    expect(await page.getByRole('button', { name: 'New Watch' }).isDisabled()).toBe(true);

    await page.getByRole('tab', { name: 'Policies' }).click();
    await page.getByRole('button', { name: 'New Policy' }).click();
    const policyDialog = page.getByRole('dialog', { name: 'New Policy' });
    await policyDialog.getByRole('button', { name: 'Create' }).click();
    await policyDialog.getByText('A policy needs a name.').waitFor();
    await policyDialog.getByLabel('Name').fill('ui-no-critical');
    await policyDialog.getByLabel('Description').fill('Nothing critical ships');
    await chooseOption(page, policyDialog.getByLabel('Catches vulnerabilities from'), 'Critical and worse');
    await screenshot(page, 'security-new-policy');
    await policyDialog.getByRole('button', { name: 'Create' }).click();
    const policyRow = page.getByRole('row').filter({ hasText: 'ui-no-critical' });
    await policyRow.waitFor();
    expect(await policyRow.innerText()).toMatch(/Critical or worse[\s\S]*Blocks downloads[\s\S]*No watch yet/);
    // edited in the same form: its name and type stay, the rule changes
    await policyRow.getByRole('button', { name: 'Edit policy ui-no-critical' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Policy ui-no-critical' });
    expect(await editDialog.getByLabel('Name').inputValue()).toBe('ui-no-critical');
    expect(await editDialog.getByLabel('Name').isDisabled()).toBe(true);
    expect(await editDialog.getByLabel('Description').inputValue()).toBe('Nothing critical ships');
    await chooseOption(page, editDialog.getByLabel('Catches vulnerabilities from'), 'High and worse');
    await screenshot(page, 'security-edit-policy');
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await policyRow.filter({ hasText: 'High or worse' }).waitFor();
    const saved = (await (await call('GET', '/xray/api/v2/policies/ui-no-critical')).json()) as {
      description: string;
      rules: { criteria: { min_severity: string } }[];
    };
    expect(saved).toMatchObject({
      description: 'Nothing critical ships',
      rules: [{ criteria: { min_severity: 'High' } }],
    });

    await page.getByRole('tab', { name: 'Watches' }).click();
    await page.getByRole('button', { name: 'New Watch' }).click();
    const watchDialog = page.getByRole('dialog', { name: 'New Watch' });
    await watchDialog.getByLabel('Name').fill('ui-production');
    await chooseOption(page, watchDialog.getByLabel('Repositories'), 'npm-local');
    await chooseOption(page, watchDialog.getByLabel('Policies'), 'ui-no-critical');
    await watchDialog.getByRole('button', { name: 'Create' }).click();
    const watchRow = page.getByRole('row').filter({ hasText: 'ui-production' });
    await watchRow.waitFor();
    expect(await watchRow.innerText()).toMatch(/npm-local[\s\S]*ui-no-critical/);
    await screenshot(page, 'security-watches');
    // what the page shows is what the REST API answers
    const watch = (await (await call('GET', '/xray/api/v2/watches/ui-production')).json()) as {
      project_resources: { resources: unknown[] };
    };
    expect(watch.project_resources.resources).toEqual([{ type: 'repository', name: 'npm-local' }]);

    await page.getByRole('tab', { name: 'Ignore Rules' }).click();
    await page.getByText('No ignore rules.').waitFor();
    await page.getByRole('button', { name: 'New Ignore Rule' }).click();
    const ruleDialog = page.getByRole('dialog', { name: 'New Ignore Rule' });
    await ruleDialog.getByLabel('Vulnerabilities').fill('CVE-2026-4242');
    await ruleDialog.getByLabel('Vulnerabilities').press('Enter');
    await ruleDialog.getByLabel('Reason').fill('Not reachable from user input');
    await ruleDialog.getByRole('button', { name: 'Create' }).click();
    const ruleRow = page.getByRole('row').filter({ hasText: 'Not reachable from user input' });
    await ruleRow.waitFor();
    expect(await ruleRow.innerText()).toMatch(/CVE-2026-4242[\s\S]*next month[\s\S]*admin/);
    await screenshot(page, 'security-ignore-rules');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // deletes ask first; a policy a watch applies cannot go before the watch does
    await ruleRow.getByRole('button', { name: 'Delete the ignore rule "Not reachable from user input"' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the ignore rule "Not reachable from user input"?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No ignore rules.').waitFor();
    await page.getByRole('tab', { name: 'Policies' }).click();
    expect(await page.getByRole('button', { name: 'Delete policy ui-no-critical' }).isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Watches' }).click();
    await page.getByRole('button', { name: 'Delete watch ui-production' }).click();
    await page
      .getByRole('dialog', { name: 'Delete watch ui-production?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No watches yet.').waitFor();
    await page.getByRole('tab', { name: 'Policies' }).click();
    await page.getByRole('button', { name: 'Delete policy ui-no-critical' }).click();
    await page
      .getByRole('dialog', { name: 'Delete policy ui-no-critical?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No policies yet.').waitFor();
    expect(problems).toEqual([]);
  });

  it("opens to a policy viewer who is no administrator, read-only, and to a watch manager with his watches' actions", async () => {
    await call('PUT', '/artifactory/api/security/groups/security-team', {
      description: 'Security',
      policyViewer: true,
    });
    await call('PUT', '/artifactory/api/security/users/sam', {
      email: 'sam@example.com',
      password: 'Sam-password-1',
      groups: ['security-team'],
    });
    await call('POST', '/xray/api/v2/policies', {
      name: 'ui-viewer-policy',
      type: 'security',
      rules: [{ name: 'high', criteria: { min_severity: 'High' }, actions: { block_download: { active: true } } }],
    });
    await call('POST', '/xray/api/v2/watches', {
      general_data: { name: 'ui-viewer-watch' },
      project_resources: { resources: [{ type: 'repository', name: 'npm-local' }] },
      assigned_policies: [{ name: 'ui-viewer-policy', type: 'security' }],
    });
    try {
      const viewer = await signIn(browser, server.url, 'sam', 'Sam-password-1', {
        viewport: { width: 1400, height: 900 },
      });
      const sam = viewer.page;
      // the Administration switch leads to the only administration pages open to him
      await sam.getByRole('radiogroup', { name: 'Sidebar' }).getByText('Administration').click();
      await sam.waitForURL('**/admin/security/policies');
      const sidebar = sam.getByRole('navigation', { name: 'Administration' });
      await sidebar.getByRole('link', { name: 'Security & Compliance' }).waitFor();
      expect((await sidebar.getByRole('link').allInnerTexts()).map((t) => t.trim())).toEqual(['Security & Compliance']);
      await sam.getByRole('row').filter({ hasText: 'ui-viewer-policy' }).waitFor();
      expect(await sam.getByRole('tab').allInnerTexts()).toEqual(['Policies', 'Watches', 'Ignore Rules']);
      expect(await sam.getByRole('button', { name: 'New Policy' }).count()).toBe(0);
      expect(await sam.getByRole('button', { name: 'Delete policy ui-viewer-policy' }).count()).toBe(0);
      await sam.getByRole('tab', { name: 'Watches' }).click();
      await sam.getByRole('row').filter({ hasText: 'ui-viewer-watch' }).waitFor();
      expect(await sam.getByRole('switch', { name: 'Pause ui-viewer-watch' }).isDisabled()).toBe(true);
      expect(await sam.getByRole('button', { name: 'New Watch' }).count()).toBe(0);
      await screenshot(sam, 'security-policy-viewer');
      expect(await seriousA11yViolations(sam)).toEqual([]);
      // the advisories' import stays with administrators
      await sam.goto(`${server.url}/ui/admin/security/advisories`);
      await sam.waitForURL('**/authorization');

      // made a watch manager: his watches and ignore rules, still not the policies
      await call('PUT', '/artifactory/api/security/groups/security-team', { watchManager: true, policyViewer: true });
      await sam.goto(`${server.url}/ui/admin/security/watches`);
      await sam.getByRole('row').filter({ hasText: 'ui-viewer-watch' }).waitFor();
      expect(await sam.getByRole('switch', { name: 'Pause ui-viewer-watch' }).isDisabled()).toBe(false);
      expect(await sam.getByRole('button', { name: 'New Watch' }).isDisabled()).toBe(false);
      expect(await sam.getByRole('button', { name: 'Delete watch ui-viewer-watch' }).count()).toBe(1);
      await sam.getByRole('tab', { name: 'Ignore Rules' }).click();
      await sam.getByRole('button', { name: 'New Ignore Rule' }).waitFor();
      await sam.getByRole('tab', { name: 'Policies' }).click();
      await sam.getByRole('row').filter({ hasText: 'ui-viewer-policy' }).waitFor();
      expect(await sam.getByRole('button', { name: 'New Policy' }).count()).toBe(0);
      expect(viewer.problems).toEqual([]);
      await sam.context().close();
    } finally {
      await call('DELETE', '/xray/api/v2/watches/ui-viewer-watch');
      await call('DELETE', '/xray/api/v2/policies/ui-viewer-policy');
    }
  });

  it('imports an OSV file with its progress, and fetches an advisory source now, saying how it went', async () => {
    const record = {
      id: 'GHSA-e2e-feed-0001',
      modified: '2026-11-01T00:00:00Z',
      summary: 'A feed advisory',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'feed-pad' },
          ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }],
        },
      ],
    };
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([record]));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`${server.url}/ui/admin/security/advisories`);
      await page.getByText('No advisory source.', { exact: false }).waitFor();
      // a file of records, imported through the dialog
      await page.getByRole('button', { name: 'Import File' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import advisories' });
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'extra.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify({ ...record, id: 'GHSA-e2e-file-0001' })),
      });
      await dialog
        .getByRole('status')
        .filter({ hasText: 'extra.json: 1 record: 1 added, 0 updated, 0 unchanged.' })
        .waitFor();
      await dialog.getByRole('button', { name: 'Close' }).first().click();

      // a source, fetched now
      await page.getByRole('button', { name: 'New Source' }).click();
      const form = page.getByRole('dialog', { name: 'New Advisory Source' });
      await form.getByLabel('Name').fill('e2e-feed');
      await form.getByLabel('URL').fill(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/all.json`);
      await form.getByRole('button', { name: 'Add' }).click();
      const row = page.getByRole('row').filter({ hasText: 'e2e-feed' });
      await row.getByText('Not fetched yet').waitFor();
      await row.getByRole('button', { name: 'Fetch e2e-feed now' }).click();
      await row.getByText('1 record: 1 added, 0 updated, 0 unchanged.').waitFor();
      expect(await row.getByText('imported', { exact: true }).count()).toBe(1);
      expect(await row.textContent()).toContain('Every 24 hours');
      await screenshot(page, 'security-advisories');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
