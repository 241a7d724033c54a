import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restCall } from './clients/clients';
import {
  ADMIN_PASSWORD,
  chooseMenuItem,
  launchBrowser,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';
import { openInConsole, openablePaths, settled, trackRequests } from './route-walk';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

const call = (method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  // something for the pages that show one thing to show, and rows whose actions open dialogs
  await call('PUT', '/artifactory/api/repositories/example-local', { rclass: 'local', packageType: 'generic' });
  await call('PUT', '/artifactory/example-local/docs/readme.txt', 'x');
  await call('PUT', '/artifactory/api/security/groups/developers', { description: 'Developers' });
  await call('PUT', '/artifactory/api/security/users/ann', {
    email: 'ann@example.com',
    password: 'Ann-password-1',
    groups: ['developers'],
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** The console's frame (header, sidebar): judged on the first page that shows each of its forms. */
const FRAME = ['.ant-layout-header', '.ant-layout-sider'];
/** A dialog, drawer or confirmation on screen. */
const MODAL = '.ant-modal-wrap:not([style*="display: none"]) .ant-modal';
const DRAWER = '.ant-drawer-open .ant-drawer-content';

/**
 * Marks what a page offers that may open a dialog — its header's actions, the first row's edit
 * and delete — and answers how many there are; `data-opener` numbers them. None while the route
 * itself shows a dialog (a form's own route): what is behind it cannot be clicked, and the page
 * it stands on is walked at its own route.
 */
async function markOpeners(page: Page): Promise<string[]> {
  if (await page.locator(`${MODAL}:visible, ${DRAWER}:visible`).count()) return [];
  return page.evaluate(() => {
    const main = document.querySelector('#main-content');
    if (!main) return [];
    const usable = (b: Element) => !(b as HTMLButtonElement).disabled && (b as HTMLElement).offsetParent !== null;
    const header = [...main.querySelectorAll('.arca-page-actions button')].filter(usable);
    const rows = ['Edit ', 'Delete ']
      .map((start) => [...main.querySelectorAll(`button[aria-label^="${start}"]`)].find(usable))
      .filter((b): b is Element => b !== undefined);
    return [...header, ...rows].map((button, index) => {
      button.setAttribute('data-opener', String(index));
      return (button.getAttribute('aria-label') ?? button.textContent ?? '').trim();
    });
  });
}

/** Closes a dialog: with Escape, else with its own Cancel or Close. */
async function closeDialog(page: Page, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  const gone = await dialog
    .waitFor({ state: 'hidden', timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (gone) return;
  await dialog
    .getByRole('button', { name: /^(Cancel|Close)$/ })
    .first()
    .click({ timeout: 3_000 })
    .catch(() => undefined);
  await dialog.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

describe('every page and dialog of the console', () => {
  it('has one h1 on every route, and no serious accessibility finding on any route or dialog, as an administrator', async () => {
    const { page } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/ui/overview');
    await trackRequests(page);
    const findings: string[] = [];
    const dialogs: string[] = [];
    const framesJudged = new Set<string>();

    /** Judges the dialog a click opened, if it opened one, then closes it. */
    const judgeDialog = async (where: string) => {
      // a dialog shows with the click, or once its code has arrived
      await settled(page);
      const dialog = page.locator(`${MODAL}:visible, ${DRAWER}:visible`).first();
      if (!(await dialog.count())) {
        await page.keyboard.press('Escape'); // a menu the click opened
        return;
      }
      dialogs.push(where);
      const include = (await page.locator(DRAWER).count()) ? DRAWER : MODAL;
      for (const violation of await seriousA11yViolations(page, { include })) findings.push(`${where}: ${violation}`);
      await closeDialog(page, dialog);
    };

    // the user menu's dialogs
    for (const entry of ['Getting Started', 'Set Me Up']) {
      await page.getByRole('button', { name: /User menu for admin/ }).click();
      await chooseMenuItem(page, entry);
      await judgeDialog(`user menu › ${entry}`);
    }

    for (const path of openablePaths()) {
      await openInConsole(page, path);
      // the page is judged once it has settled
      if (!(await settled(page))) findings.push(`${path}: still loading after 15 s`);
      // one h1, the page's own (a route that sends the visitor on is judged where it lands)
      const heading = page.getByRole('heading', { level: 1 });
      const single = await expect
        .poll(() => heading.count(), { timeout: 5_000 })
        .toBe(1)
        .then(() => true)
        .catch(() => false);
      if (!single) {
        findings.push(`${path}: ${await heading.count()} h1`);
        continue;
      }
      // the frame is left out once judged: axe's time goes to what each page adds
      const frame = await page.evaluate(
        (selectors) => selectors.map((selector) => document.querySelector(selector)?.textContent ?? '').join('|'),
        FRAME,
      );
      const exclude = framesJudged.has(frame) ? FRAME : [];
      framesJudged.add(frame);
      for (const violation of await seriousA11yViolations(page, { exclude })) findings.push(`${path}: ${violation}`);

      // then what the page's actions open, each from the page as the walk found it
      const openers = await markOpeners(page);
      for (const [index, opener] of openers.entries()) {
        if (index > 0 && !new URL(page.url()).pathname.endsWith(path.split('?')[0]!)) {
          await openInConsole(page, path);
          await settled(page);
          await markOpeners(page);
        }
        const clicked = await page
          .locator(`[data-opener="${index}"]`)
          .click({ timeout: 5_000 })
          .then(() => true)
          .catch(() => false);
        if (clicked) await judgeDialog(`${path} › ${opener}`);
      }
    }
    expect(findings).toEqual([]);
    // the walk opened the dialogs of the lists, the forms and the user menu
    expect(dialogs).toEqual(
      expect.arrayContaining([
        'user menu › Set Me Up',
        '/admin/management/users › New User',
        '/admin/management/groups › Edit developers',
        '/admin/management/access_tokens › Generate Token',
        '/admin/repositories › Delete example-local',
      ]),
    );
    expect(dialogs.length).toBeGreaterThanOrEqual(15);
    console.log(`${dialogs.length} dialogs judged:\n${dialogs.join('\n')}`);
    // the walk was an administrator's from its first page to its last
    const current = await page.evaluate(
      async () => (await (await fetch('/ui/api/v1/ui/auth/current')).json()) as unknown,
    );
    expect(current).toMatchObject({ name: 'admin', admin: true });
    await page.context().close();
  }, 900_000);
});
