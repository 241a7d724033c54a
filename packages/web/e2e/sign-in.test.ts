import path from 'node:path';
import Database from 'better-sqlite3';
import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startMailServer } from '../../server/src/test/mail';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  startServer,
  watchConsole,
} from './harness';

let server: RunningServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let mail: Awaited<ReturnType<typeof startMailServer>>;
const admin = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
  'x-requested-with': 'XMLHttpRequest',
  'content-type': 'application/json',
};

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: admin,
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

beforeAll(async () => {
  mail = await startMailServer();
  server = await startServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
  await call('PUT', '/ui/api/v1/ui/mail', {
    enabled: true,
    host: '127.0.0.1',
    port: mail.port,
    useSsl: false,
    useTls: false,
    username: '',
    password: '',
    from: 'arca@example.com',
    subjectPrefix: '[Arca]',
    externalUrl: server.url,
  });
});
afterAll(async () => {
  await closeBrowser?.();
  await server?.stop();
  await mail?.close();
});

async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  return { page, problems: watchConsole(page) };
}

async function logIn(page: Page, user: string, password: string) {
  await page.goto(`${server.url}/ui/login`);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The code of the current 30-second step, or of a later one (accepted one step ahead, for clock drift). */
const totp = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

async function typeCode(page: Page, code: string) {
  await page.locator('.ant-otp input').first().click();
  await page.keyboard.type(code);
}

async function waitForMail(count: number) {
  await expect.poll(() => mail.messages.length, { timeout: 10_000 }).toBe(count);
  return mail.messages[count - 1]!;
}

describe('sign-in flows in the browser', () => {
  it('enrols an authenticator from Edit Profile, then signs in with a code computed from its secret', async () => {
    await call('PUT', '/artifactory/api/security/users/mia', { email: 'mia@example.com', password: 'Mia-password-1' });
    const { page, problems } = await newPage();
    await logIn(page, 'mia', 'Mia-password-1');
    await page.waitForURL('**/ui/packages');
    await page.goto(`${server.url}/ui/profile`);
    await page.getByLabel('Current password').fill('Mia-password-1');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('link', { name: /set up now/ }).click();
    const key = page.locator('code').filter({ hasText: /^[A-Z2-7 ]{16,}$/ });
    await key.waitFor();
    const secret = (await key.textContent())!.replace(/\s/g, '');
    await screenshot(page, 'sign-in-mfa-enroll');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await typeCode(page, totp(secret));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.waitForURL('**/ui/profile');

    await page.goto(`${server.url}/ui/logout`);
    await page.waitForURL(/\/ui\/login\?logout=true/);
    await expect.poll(() => page.getByLabel('Username').isEnabled()).toBe(true);
    await page.getByLabel('Username').fill('mia');
    await page.getByLabel('Password').fill('Mia-password-1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/ui/login/otp-login');
    await typeCode(page, '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByText(/The code is not valid/).isVisible()).toBe(true);
    await screenshot(page, 'sign-in-otp');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.locator('.ant-otp input').first().click();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace');
    // the enrolment used this step's code, and a code works once
    await typeCode(page, totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/ui/packages');
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });

  it('resets a forgotten password through the link of a real e-mail, and the link works once', async () => {
    await call('PUT', '/artifactory/api/security/users/fay', { email: 'fay@example.com', password: 'Fay-password-1' });
    const { page } = await newPage();
    await page.goto(`${server.url}/ui/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('User name or e-mail').fill('fay@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByText(/link to reset the password is on its way/).isVisible()).toBe(true);
    await screenshot(page, 'sign-in-forgot-password');
    const message = await waitForMail(1);
    expect(message.to).toEqual(['fay@example.com']);
    const link = linkIn(message.raw);

    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('Fay-password-2');
    await page.getByLabel('Confirm new password').fill('Fay-password-2');
    await screenshot(page, 'sign-in-reset-password');
    await page.getByRole('button', { name: 'Reset password and sign in' }).click();
    await page.waitForURL('**/ui/packages');

    const { page: again } = await newPage();
    await again.goto(link);
    await expect.poll(() => again.getByText(/This link is not valid/).isVisible()).toBe(true);
  });

  it('sends a user whose password expired to change-password, then signs in', async () => {
    await call('PUT', '/artifactory/api/security/users/gil', { email: 'gil@example.com', password: 'Gil-password-1' });
    const settings = (await (await call('GET', '/ui/api/v1/ui/security/settings')).json()) as Record<string, unknown>;
    await call('PUT', '/ui/api/v1/ui/security/settings', { ...settings, passwordExpiryDays: 90 });
    // the password was last changed 91 days ago
    const db = new Database(path.join(server.dataDir, 'arca.db'));
    db.prepare("UPDATE users SET password_changed_at = ? WHERE name = 'gil'").run(Date.now() - 91 * 86_400_000);
    db.close();
    const { page } = await newPage();
    await logIn(page, 'gil', 'Gil-password-1');
    await page.waitForURL('**/ui/login/change-password/gil');
    await expect
      .poll(() => page.getByText('Your password has expired. Choose a new one to continue.').isVisible())
      .toBe(true);
    await page.getByLabel('Current password').fill('Gil-password-1');
    await page.getByLabel('New password', { exact: true }).fill('Gil-password-1');
    await page.getByLabel('Confirm new password').fill('Gil-password-1');
    await page.getByRole('button', { name: 'Change password and sign in' }).click();
    await expect
      .poll(() => page.getByText('The new password must differ from the current one.').isVisible())
      .toBe(true);
    await screenshot(page, 'sign-in-change-password');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('New password', { exact: true }).fill('Gil-password-2');
    await page.getByLabel('Confirm new password').fill('Gil-password-2');
    await page.getByRole('button', { name: 'Change password and sign in' }).click();
    await page.waitForURL('**/ui/packages');
  });

  it('accepts an invitation from a real e-mail and signs the new user in', async () => {
    await call('POST', '/ui/api/v1/ui/users', { name: 'ivy', email: 'ivy@example.com', invite: true });
    const message = await waitForMail(2);
    expect(message.to).toEqual(['ivy@example.com']);
    const { page } = await newPage();
    await page.goto(linkIn(message.raw));
    await expect.poll(() => page.getByText('Choose a password for ivy').isVisible()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill('Ivy-password-1');
    await page.getByLabel('Confirm new password').fill('Ivy-password-1');
    await screenshot(page, 'sign-in-invitation');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL('**/ui/packages');
  });

  it('shows the mail settings and sends a test message', async () => {
    const { page, problems } = await newPage();
    await logIn(page, 'admin', ADMIN_PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
    await page.goto(`${server.url}/ui/admin/configuration/mail`);
    await page.getByLabel('Test recipient').fill('ops@example.com');
    await page.getByRole('button', { name: /Send/ }).click();
    await expect.poll(() => page.getByText('A test message was sent to ops@example.com.').isVisible()).toBe(true);
    await waitForMail(3);
    await screenshot(page, 'sign-in-mail-settings');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
