import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLES } from '../src/app/route-handles';
import { restCall } from './clients/clients';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

const call = (method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  // something for the pages that show one thing to show
  await call('PUT', '/artifactory/api/repositories/example-local', { rclass: 'local', packageType: 'generic' });
  await call('PUT', '/artifactory/example-local/docs/readme.txt', 'x');
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

/** What a route's parameters are filled with: things that exist where a page shows one, else a name nobody has. */
const PARAMETERS: Record<string, string> = {
  key: 'example-local',
  name: 'admin',
  ssoLoginType: 'saml',
  requestId: 'a1b2c3',
  id: 'unknown',
  proxyName: 'unknown',
  webhookName: 'unknown',
  bucketId: 'unknown',
  federationId: 'unknown',
  vendorName: 'github',
};

/**
 * What a page needs in its query to be itself. Without its token the invitation page signs the
 * visitor out (spec part 1 §2), which would leave the rest of the walk to an anonymous visitor.
 */
const QUERIES: Record<string, string> = {
  '/login/invitation': '?token=unknown',
};

/** Every path of the route table as a visitor would open it: optional parts left out, required ones filled. */
function openablePaths(): string[] {
  return Object.keys(HANDLES)
    .filter((path) => path !== '*' && path !== '/logout')
    .map((path) =>
      path
        .replace(/\/:\w+\?/g, '')
        .replace(/\/\*$/, '')
        .replace(/:(\w+)/g, (_, name: string) => PARAMETERS[name] ?? 'unknown')
        .concat(QUERIES[path] ?? ''),
    );
}

describe('every page of the console', () => {
  it('has one h1 and no serious accessibility finding on any route, as an administrator', async () => {
    const { page } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/ui/overview');
    const findings: string[] = [];
    // the console's frame (header, sidebar) is judged on the first page that shows each of its forms,
    // then left out: axe's time goes to what each page adds
    const FRAME = ['.ant-layout-header', '.ant-layout-sider'];
    const framesJudged = new Set<string>();
    for (const path of openablePaths()) {
      // within the running console, as a click on a link goes: no reload between pages
      await page.evaluate((to) => {
        (window as unknown as { settledSince?: number }).settledSince = undefined;
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, `/ui${path}`);
      // the page is judged once it has settled: its code and its data arrived (no loading bar,
      // skeleton or spinner) and nothing changed that for a moment
      const settled = await page
        .waitForFunction(
          () => {
            const state = window as unknown as { settledSince?: number };
            if (document.querySelector('.arca-loading-bar, .ant-skeleton, .ant-spin-spinning')) {
              state.settledSince = undefined;
              return false;
            }
            state.settledSince ??= performance.now();
            return performance.now() - state.settledSince > 300;
          },
          undefined,
          { timeout: 15_000, polling: 50 },
        )
        .then(() => true)
        .catch(() => false);
      if (!settled) findings.push(`${path}: still loading after 15 s`);
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
      const frame = await page.evaluate(
        (selectors) => selectors.map((selector) => document.querySelector(selector)?.textContent ?? '').join('|'),
        FRAME,
      );
      const exclude = framesJudged.has(frame) ? FRAME : [];
      framesJudged.add(frame);
      for (const violation of await seriousA11yViolations(page, exclude)) findings.push(`${path}: ${violation}`);
    }
    expect(findings).toEqual([]);
    // the walk was an administrator's from its first page to its last
    const current = await page.evaluate(
      async () => (await (await fetch('/ui/api/v1/ui/auth/current')).json()) as unknown,
    );
    expect(current).toMatchObject({ name: 'admin', admin: true });
    await page.context().close();
  }, 600_000);
});
