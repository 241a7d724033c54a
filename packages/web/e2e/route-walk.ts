import type { Page } from 'playwright-core';
import { HANDLES } from '../src/app/route-handles';

/**
 * A walk through the console's route table: each route opened as a visitor opens it, judged once
 * it has settled. Shared by the every-route and every-dialog walks.
 */

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
export function openablePaths(): string[] {
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

/** Opens a console path within the running console, as a click on a link does: no reload. */
export async function openInConsole(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/ui${path}`);
}

/**
 * Counts the page's requests in flight (`arcaInFlight`), in this document and in those it loads
 * next, so that `settled` knows when its data has arrived even where nothing on screen says it
 * is loading (a list that asks for its rows once its code is there).
 */
export async function trackRequests(page: Page): Promise<void> {
  const install = () => {
    const state = window as unknown as { arcaInFlight?: number };
    if (state.arcaInFlight !== undefined) return;
    state.arcaInFlight = 0;
    const original = window.fetch.bind(window);
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      state.arcaInFlight! += 1;
      try {
        return await original(...args);
      } finally {
        state.arcaInFlight! -= 1;
      }
    };
  };
  await page.addInitScript(install);
  await page.evaluate(install);
}

/**
 * Waits until the page has settled: its code and its data arrived (no loading bar, skeleton or
 * spinner, no request in flight where `trackRequests` counts them) and nothing changed that for
 * 300 ms from now. False when it has not within 15 s.
 */
export async function settled(page: Page): Promise<boolean> {
  await page.evaluate(() => ((window as unknown as { settledSince?: number }).settledSince = undefined));
  return page
    .waitForFunction(
      () => {
        const state = window as unknown as { settledSince?: number; arcaInFlight?: number };
        if (
          (state.arcaInFlight ?? 0) > 0 ||
          document.querySelector('.arca-loading-bar, .ant-skeleton, .ant-spin-spinning')
        ) {
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
}
