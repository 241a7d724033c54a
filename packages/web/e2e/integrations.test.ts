import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  startServer,
  watchConsole,
  type RunningServer,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
});

describe('integrations', () => {
  it('signs a CLI in through the browser: the user signs in, compares the code and approves', async () => {
    // what `jf login` does: a session of its own, the request, then the browser at the login page
    const session = randomUUID();
    const base = `${server.url}/access/api/v2/authentication/jfrog_client_login`;
    const agent = { 'user-agent': 'jfrog-cli-go/2.52.8' };
    expect(
      (
        await fetch(`${base}/request`, {
          method: 'POST',
          headers: { ...agent, 'content-type': 'application/json' },
          body: JSON.stringify({ session }),
        })
      ).status,
    ).toBe(200);
    expect((await fetch(`${base}/token/${session}`, { headers: agent })).status).toBe(400);

    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/ui/login?jfClientSession=${session}&jfClientName=JFrog-CLI&jfClientCode=1`);
    // the approval page asks for a sign-in first, and comes back after it
    await page.waitForURL('**/login?logout=true');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/login/cli-registration?**');
    await page.getByText('Sign in to JFrog-CLI?').waitFor();
    await page.getByLabel('Verification code').getByText(session.slice(-4).toUpperCase()).waitFor();
    await screenshot(page, 'cli-registration');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Approve sign-in' }).click();
    await page.getByText('Signed in. You can close this page and return to the command line.').waitFor();

    const answered = await fetch(`${base}/token/${session}`, { headers: agent });
    expect(answered.status).toBe(200);
    const { access_token: token } = (await answered.json()) as { access_token: string };
    expect(
      (await fetch(`${server.url}/access/api/v1/tokens`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect((await fetch(`${base}/token/${session}`, { headers: agent })).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });
});
