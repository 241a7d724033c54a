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

/** Every path of the route table as a visitor would open it: optional parts left out, required ones filled. */
function openablePaths(): string[] {
  return Object.keys(HANDLES)
    .filter((path) => path !== '*' && path !== '/logout')
    .map((path) =>
      path
        .replace(/\/:\w+\?/g, '')
        .replace(/\/\*$/, '')
        .replace(/:(\w+)/g, (_, name: string) => PARAMETERS[name] ?? 'unknown'),
    );
}

describe('every page of the console', () => {
  it('has one h1 and no serious accessibility finding on any route, as an administrator', async () => {
    const { page } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/ui/overview');
    const findings: string[] = [];
    for (const path of openablePaths()) {
      // within the running console, as a click on a link goes: no reload between pages
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, `/ui${path}`);
      // the page has rendered its heading (a redirect lands on a page that has one too)
      const heading = page.getByRole('heading', { level: 1 });
      try {
        await heading.first().waitFor({ timeout: 15_000 });
      } catch {
        findings.push(`${path}: no h1`);
        continue;
      }
      // what loads after the heading (lists, charts) is judged too
      await page
        .waitForFunction(() => !document.querySelector('.ant-skeleton, .ant-spin-spinning'), undefined, {
          timeout: 5_000,
        })
        .catch(() => undefined);
      // a route that sends the visitor on (the login page of someone signed in) is judged where it lands
      const single = await expect
        .poll(() => heading.count(), { timeout: 5_000 })
        .toBe(1)
        .then(() => true)
        .catch(() => false);
      if (!single) findings.push(`${path}: ${await heading.count()} h1`);
      for (const violation of await seriousA11yViolations(page)) findings.push(`${path}: ${violation}`);
    }
    expect(findings).toEqual([]);
    await page.context().close();
  }, 600_000);
});
