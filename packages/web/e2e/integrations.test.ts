import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  watchConsole,
  watchNotices,
  type RunningServer,
} from './harness';
import { startVcsDouble } from '../../server/src/test/vcs-double';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  // the vendor double and the application's callback listen on this machine
  server = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
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
    // the command line runs on another machine (here: another loopback address) than the browser
    const requested = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ session });
      http
        .request(
          `${base}/request`,
          { method: 'POST', localAddress: '127.0.0.2', headers: { ...agent, 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject)
        .end(body);
    });
    expect(requested).toBe(200);
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
    // where it came from, when, and that it is not this browser's address
    await page.getByText("The request came from 127.0.0.2, not from this browser's address (127.0.0.1).").waitFor();
    await page.getByText(/\(now|seconds? ago|a minute ago|\d+ minutes? ago\)/).waitFor();
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

  it('registers an application, shows its secret once, and a user authorises it with PKCE', async () => {
    // the application's callback: records what the browser brings back
    const arrived: URL[] = [];
    const callback = http.createServer((req, res) => {
      arrived.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Back in the application</title><p>Done</p>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    const callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/cb`;
    try {
      const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
      // a notification leaves after seconds: each is collected as it shows
      const notices = await watchNotices(page);
      await page.goto(`${server.url}/ui/admin/configuration/integrations`);
      await page.getByText('No application integrations yet').waitFor();
      await page.getByRole('button', { name: 'New Integration' }).first().click();
      await page.getByLabel('Application Name').fill('ci bot');
      await page.getByText('Name cannot contain spaces or special characters').waitFor();
      await page.getByLabel('Application Name').fill('ci-bot');
      await page.getByLabel('Description').fill('Builds and publishes on every merge');
      await page.getByLabel('Callback URL').fill(callbackUrl);
      await screenshot(page, 'app-integrations-new');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByText('The secret is shown once and not retrievable later: copy it now.').first().waitFor();
      await expect.poll(() => notices).toContain('Successfully created integration');
      const clientId = (await page.getByLabel('Client ID').textContent())!.trim();
      const secret = (await page.getByLabel('Secret').textContent())!.trim();
      expect(clientId).toMatch(/^arca-/);
      await screenshot(page, 'app-integrations-created');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('row', { name: /ci-bot/ }).waitFor();
      await screenshot(page, 'app-integrations');
      expect(await page.getByText(secret).count()).toBe(0);

      // the application sends the user to the authorisation endpoint it discovered
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
        authorization_endpoint: string;
        token_endpoint: string;
      };
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(metadata.authorization_endpoint);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callbackUrl,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'xyz',
      }).toString();
      await page.goto(authorize.toString());
      await page.getByText('Authorise ci-bot?').waitFor();
      await screenshot(page, 'oauth-authorize');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Authorise' }).click();
      await page.waitForURL(`${callbackUrl}?**`);
      const back = arrived.find((url) => url.pathname === '/cb')!;
      expect(back.searchParams.get('state')).toBe('xyz');

      const token = await fetch(metadata.token_endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: callbackUrl,
          code_verifier: verifier,
        }),
      });
      expect(token.status).toBe(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      expect(
        (await fetch(`${server.url}/access/api/v1/tokens`, { headers: { authorization: `Bearer ${accessToken}` } }))
          .status,
      ).toBe(200);

      // the user takes the authorisation back from the profile: the application's token stops working
      await page.goto(`${server.url}/ui/profile`);
      await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByText('No application acts on your behalf.').waitFor();
      await expect.poll(() => notices).toContain('The authorisation was revoked.');
      // and the administrator deletes the application, after the permanent-delete confirmation
      await page.goto(`${server.url}/ui/admin/configuration/integrations`);
      await page.getByRole('button', { name: 'Delete integration ci-bot' }).click();
      await page.getByText('The integration is deleted permanently', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('No application integrations yet').waitFor();
      await expect.poll(() => notices).toContain('Successfully deleted integration');
      expect(
        (await fetch(`${server.url}/access/api/v1/tokens`, { headers: { authorization: `Bearer ${accessToken}` } }))
          .status,
      ).toBe(401);
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await new Promise<void>((resolve) => callback.close(() => resolve()));
    }
  });

  it('connects a GitHub account after a passing test, lists it, edits and deletes it', async () => {
    const account = { user: 'octo-dev', token: 'ghp_e2e0123456789TOKEN' };
    const double = await startVcsDouble(account);
    try {
      const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, { at: '/integrations' });
      await page.getByRole('region', { name: 'Source control' }).waitFor();
      await page.getByRole('region', { name: 'Developer Tools' }).waitFor();
      await screenshot(page, 'integrations-empty');
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Connect GitHub' }).click();
      const modal = page.getByRole('dialog', { name: 'Connect GitHub' });
      await modal.getByRole('button', { name: 'Test connection' }).click();
      for (const message of ['Integration name is required', 'User name is required', 'Token is required'])
        await modal.getByText(message).waitFor();
      await modal.getByLabel('Integration Name').fill('github main');
      await modal.getByText('Name cannot contain spaces or special characters').waitFor();
      await modal.getByLabel('Integration Name').fill('github-main');
      await modal.getByLabel('URL').fill(`${double.url}/github`);
      await modal.getByLabel('User name').fill(account.user);
      await modal.getByLabel('Token').fill('wrong-token');
      await modal.getByRole('button', { name: 'Test connection' }).click();
      await page.getByRole('status').getByText('Connection test failed, please check your credentials').waitFor();
      expect(await modal.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await modal.getByLabel('Token').fill(account.token);
      await modal.getByRole('button', { name: 'Test connection' }).click();
      await page.getByRole('status').getByText('Connection test succeeded').waitFor();
      await screenshot(page, 'integrations-git-modal');
      await modal.getByRole('button', { name: 'Create' }).click();
      await page.getByText(/^Successfully created github-/).waitFor();
      await modal.getByText('Select service').first().waitFor();
      await modal.getByRole('button', { name: 'Finish' }).click();

      // a second account under the same name: the create fails with the spec's message and the reason
      await page.getByRole('button', { name: 'Add a GitHub integration' }).click();
      const second = page.getByRole('dialog', { name: 'Connect GitHub' });
      await second.getByLabel('Integration Name').fill('github-main');
      await second.getByLabel('URL').fill(`${double.url}/github`);
      await second.getByLabel('User name').fill(account.user);
      await second.getByLabel('Token').fill(account.token);
      await second.getByRole('button', { name: 'Test connection' }).click();
      await page.getByRole('status').getByText('Connection test succeeded').waitFor();
      await second.getByRole('button', { name: 'Create' }).click();
      await page.getByText('Error while creating integration').waitFor();
      await second.getByText('An integration of that name exists already.').waitFor();
      await second.getByRole('button', { name: 'Cancel' }).click();
      expect(double.requests.filter((r) => r.path === '/user').at(-1)?.headers.authorization).toBe(
        `Bearer ${account.token}`,
      );

      // the card is connected, no service uses it yet; its header leads to its instances
      const card = page.getByRole('region', { name: 'Source control' });
      await card.getByText('CONNECTED', { exact: true }).waitFor();
      await card.getByText('Connect a service').waitFor();
      await screenshot(page, 'integrations');
      await card.getByRole('link', { name: 'GitHub' }).click();
      await page.waitForURL('**/integrations/github');
      await page.getByRole('heading', { name: '1 Instances' }).waitFor();
      await page
        .getByRole('row', { name: /github-main/ })
        .getByRole('button', { name: 'Select a Product' })
        .waitFor();
      await screenshot(page, 'integrations-github');
      expect(await seriousA11yViolations(page)).toEqual([]);

      // edit without retyping the token: tested with the one kept
      await page
        .getByRole('row', { name: /github-main/ })
        .getByRole('button', { name: 'Edit Integration' })
        .click();
      const edit = page.getByRole('dialog', { name: 'Edit github-main' });
      await edit.getByLabel('Integration Name').fill('github-org');
      await edit.getByRole('button', { name: 'Test connection' }).click();
      await page.getByRole('status').getByText('Connection test succeeded').waitFor();
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Successfully updated github-org').waitFor();
      await page
        .getByRole('row', { name: /github-org/ })
        .getByRole('button', { name: 'Delete github-org' })
        .click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('Successfully deleted github-org').waitFor();
      await page.getByRole('heading', { name: '0 Instances' }).waitFor();
      // the refused duplicate is the one failed call the browser reports
      expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
      await page.context().close();
    } finally {
      await double.close();
    }
  });

  it("sets up the CLI with the user's API key after the password is confirmed", async () => {
    const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, { at: '/integrations' });
    await page.getByRole('button', { name: 'Set up JFrog CLI' }).click();
    const modal = page.getByRole('dialog', { name: 'Set up JFrog CLI' });
    await modal.getByLabel('Current password').fill(ADMIN_PASSWORD);
    await modal.getByRole('button', { name: 'Continue' }).click();
    const key = (await modal.getByLabel('API key', { exact: true }).textContent())!.trim();
    await modal.getByText(`jf config add arca --url=${server.url} --user=admin --password=${key}`).waitFor();
    await screenshot(page, 'integrations-cli');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const authorized = await fetch(`${server.url}/artifactory/api/repositories`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${key}`).toString('base64')}` },
    });
    expect(authorized.status).toBe(200);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('grants terraform login from its authorisation screen, and shows the error without a redirect', async () => {
    // terraform's listener on a free port of its range
    const arrived: URL[] = [];
    const listener = http.createServer((req, res) => {
      arrived.push(new URL(req.url ?? '/', 'http://localhost'));
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('The login server has closed.');
    });
    let port = 10000;
    for (; port <= 10010; port++) {
      const bound = await new Promise<boolean>((resolve) => {
        listener.once('error', () => resolve(false));
        listener.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) break;
    }
    try {
      const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD);
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        client_id: 'terraform-cli',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        redirect_uri: `http://127.0.0.1:${port}/login`,
        response_type: 'code',
        state: 'tf-state',
      });
      await page.goto(`${server.url}/ui/terraform/oauth2/authorize?${query}`);
      await page
        .getByText(
          'This page indicates that you ran the Terraform Login command from the Terraform CLI. Proceed to grant Terraform CLI access to the artifact repository on behalf of admin.',
        )
        .waitFor();
      await screenshot(page, 'terraform-authorize');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Proceed' }).click();
      await page
        .getByText('Close this page and return to the Terraform CLI to see the result of the login process.')
        .waitFor();
      const back = arrived.find((url) => url.pathname === '/login')!;
      expect(back.searchParams.get('state')).toBe('tf-state');
      const token = await fetch(`${server.url}/access/api/v1/terraform/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'terraform-cli',
          code: back.searchParams.get('code')!,
          redirect_uri: `http://127.0.0.1:${port}/login`,
          code_verifier: verifier,
        }),
      });
      expect(token.status).toBe(200);

      await page.goto(`${server.url}/ui/terraform/oauth2/authorize?client_id=terraform-cli`);
      await page
        .getByText(
          'Failed to grant authorization to the Terraform CLI. Retry running the terraform login command from the terminal.',
        )
        .waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
