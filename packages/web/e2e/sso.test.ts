import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  freePort,
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
  type RunningServer,
} from './harness';
import { clientHome, consoleFetch, restCall, run } from './clients/clients';
import {
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  startOidcProvider,
  type OidcTestProvider,
} from '../../server/src/test/oidc-provider';
import { startSamlIdp, type SamlTestIdp } from '../../server/src/test/saml-idp';
import {
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_SUFFIX,
  startLdapServer,
  type LdapServer,
} from '../../server/src/test/ldap-server';

let arca: RunningServer;
let ldap: LdapServer;
let op: OidcTestProvider;
let idp: SamlTestIdp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const call = (method: string, url: string, body?: unknown) =>
  restCall(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);
const consoleCall = (method: string, path: string, body?: unknown) =>
  consoleFetch(arca.url, { user: 'admin', password: ADMIN_PASSWORD }, method, path, body);

beforeAll(async () => {
  ldap = await startLdapServer();
  // SAML is spoken only at a configured address
  const port = await freePort();
  arca = await startServer({
    ARCA_PORT: String(port),
    ARCA_BASE_URL: `http://127.0.0.1:${port}`,
    // the directory and the identity providers of the test run on this host
    ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  });
  op = await startOidcProvider([`${arca.url}/ui/api/v1/auth/oauth2/callback/acme-id`]);
  idp = await startSamlIdp();
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await arca?.stop();
  await ldap?.stop();
  await op?.stop();
  await idp?.stop();
});

/** An .npmrc that signs in to one npm repository with a user's password. */
function npmrc(registry: string, user: string, password: string): string {
  const auth = Buffer.from(`${user}:${password}`).toString('base64');
  return `registry=${registry}\n${registry.replace(/^https?:/, '')}:_auth=${auth}\n`;
}

describe('directory sign-in', () => {
  it('connects an LDAP server from the console, imports its groups, and lets its users in with their directory password', async () => {
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/security/authentication-providers',
    });
    await page.getByRole('heading', { name: 'Authentication Providers' }).waitFor();
    await page.getByText('No directory yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'New LDAP Setting' }).click();
    const form = page.getByRole('dialog', { name: 'New LDAP Setting' });
    await form.getByLabel('Name', { exact: true }).fill('corp');
    await form.getByLabel('LDAP URL').fill(`${ldap.url}/${LDAP_SUFFIX}`);
    await form.getByLabel('Search base').fill('ou=people');
    await form.getByLabel('Manager DN').fill(LDAP_ADMIN_DN);
    await form.getByLabel('Manager password').fill('not-the-password');
    await form.getByRole('button', { name: 'Test Connection' }).click();
    await form.getByText(`The server refused the bind of '${LDAP_ADMIN_DN}': invalid credentials.`).waitFor();
    await form.getByLabel('Manager password').fill(LDAP_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Test Connection' }).click();
    await form.getByText('Connected, and the bind succeeded.').waitFor();
    await form.getByLabel('Test user name').fill('alice');
    await form.getByLabel('Test user password').fill('alice-directory-pw');
    await form.getByRole('button', { name: 'Test User' }).click();
    await form.getByText(`Signed in as uid=alice,ou=people,${LDAP_SUFFIX}.`).waitFor();
    await form.getByText('E-mail: alice@acme.test').waitFor();
    await screenshot(page, 'ldap-setting');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('LDAP setting corp was saved').waitFor();

    await page.getByRole('button', { name: 'New Group Setting' }).click();
    const groups = page.getByRole('dialog', { name: 'New Group Setting' });
    await groups.getByLabel('Name', { exact: true }).fill('corp-groups');
    await groups.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Group setting corp-groups was saved').waitFor();
    await page
      .getByRole('row', { name: /corp-groups/ })
      .getByRole('button', { name: 'Import Groups' })
      .click();
    const importing = page.getByRole('dialog', { name: 'Import Groups of corp-groups' });
    await importing.getByRole('row', { name: /readers/ }).waitFor();
    await importing.getByLabel('Import developers').check();
    await screenshot(page, 'ldap-import-groups');
    await importing.getByRole('button', { name: 'Import 1 Group' }).click();
    await page.getByText('Imported developers').waitFor();
    await screenshot(page, 'authentication-providers');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();

    // a private npm repository the directory's developers may use
    await call('PUT', '/artifactory/api/repositories/team-npm', { rclass: 'local', packageType: 'npm' });
    await call('PUT', '/artifactory/api/v2/security/permissions/team', {
      name: 'team',
      repo: { repositories: ['team-npm'], actions: { groups: { developers: ['read', 'write'] } } },
    });
    const registry = `${arca.url}/artifactory/api/npm/team-npm/`;
    const { home, env } = clientHome();
    const pkg = fs.mkdtempSync(path.join(home, 'pkg-'));
    fs.writeFileSync(path.join(pkg, '.npmrc'), npmrc(registry, 'admin', ADMIN_PASSWORD));
    fs.writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: 'team-lib', version: '1.0.0', license: 'MIT', main: 'index.js' }),
    );
    fs.writeFileSync(path.join(pkg, 'index.js'), "module.exports = 'built by the team';\n");
    await run('npm', ['publish'], { cwd: pkg, env });

    // alice installs with her directory password; bob, no developer, is refused
    const app = fs.mkdtempSync(path.join(home, 'app-'));
    fs.writeFileSync(path.join(app, '.npmrc'), npmrc(registry, 'alice', 'alice-directory-pw'));
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    await run('npm', ['install', 'team-lib@1.0.0'], { cwd: app, env });
    expect(fs.readFileSync(path.join(app, 'node_modules/team-lib/index.js'), 'utf8')).toContain('built by the team');
    const bob = await fetch(`${registry}team-lib`, {
      headers: { authorization: `Basic ${Buffer.from('bob:bob-directory-pw').toString('base64')}` },
    });
    expect(bob.status).toBe(403);

    // alice in the console: her realm, her groups; no password of hers to change here
    const session = await signIn(browser, arca.url, 'alice', 'alice-directory-pw', { at: '/profile' });
    await session.page.getByLabel('Current password').fill('alice-directory-pw');
    await session.page.getByRole('button', { name: 'Unlock' }).click();
    await session.page.getByText('ldap', { exact: true }).waitFor();
    await session.page.context().close();
    const users = (await (await call('GET', '/artifactory/api/security/users/alice')).json()) as {
      realm: string;
      groups: string[];
    };
    expect(users).toMatchObject({ realm: 'ldap', groups: ['developers'] });
  });

  it('signs in through an OpenID provider from the login page, and sends everyone there when it is the way in', async () => {
    await call('PUT', '/artifactory/api/security/groups/platform-team', { description: 'Platform' });
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/security/authentication-providers/oidc',
    });
    await page.getByText('No identity provider yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'New Provider' }).click();
    const form = page.getByRole('dialog', { name: 'New OpenID Connect Provider' });
    await form.getByLabel('Name', { exact: true }).fill('acme-id');
    await form.getByLabel('Button text').fill('Acme ID');
    await form.getByLabel('Issuer URL').fill(op.issuer);
    await form.getByLabel('Client ID').fill(OIDC_CLIENT_ID);
    await form.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET);
    await form.getByLabel('Scopes').fill('openid profile email groups');
    await form.getByLabel('Group mapping').fill('platform = platform-team');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Provider acme-id was saved').waitFor();
    await page.getByText(`${arca.url}/ui/api/v1/auth/oauth2/callback/acme-id`).waitFor();
    await screenshot(page, 'oidc-providers');
    expect(problems).toEqual([]);
    await page.context().close();

    // a visitor signs in with the provider's button: its login and consent pages, then the console
    const visitor = await browser.newContext({ ignoreHTTPSErrors: true });
    const login = await visitor.newPage();
    await login.goto(`${arca.url}/ui/login`);
    const button = login.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    await screenshot(login, 'login-with-provider');
    await button.click();
    await login.locator('input[name=login]').fill('dana');
    await login.locator('input[name=password]').fill('anything');
    await login.locator('button[type=submit]').click();
    await login.getByRole('button', { name: 'Continue' }).click();
    await login.waitForURL(`${arca.url}/ui/**`);
    await login.getByRole('button', { name: /dana/ }).waitFor();
    const dana = (await (await call('GET', '/artifactory/api/security/users/dana')).json()) as {
      realm: string;
      groups: string[];
    };
    expect(dana).toMatchObject({ realm: 'oauth', groups: ['platform-team'] });

    // a provider's user has no password: the CLI card hands over the API key without asking for one
    await login.goto(`${arca.url}/ui/integrations`);
    await login.getByRole('button', { name: 'Set up JFrog CLI' }).click();
    const setup = login.getByRole('dialog', { name: 'Set up JFrog CLI' });
    // exact: the spinner shown while the key is fetched is labelled "Fetching your API key"
    const key = (await setup.getByLabel('API key', { exact: true }).textContent())!.trim();
    expect(await setup.getByLabel('Current password').count()).toBe(0);
    await screenshot(login, 'integrations-cli-oauth-user');
    const withKey = await fetch(`${arca.url}/artifactory/api/security/apiKey`, {
      headers: { 'X-JFrog-Art-Api': key },
    });
    expect(((await withKey.json()) as { apiKey: string }).apiKey).toBe(key);
    await visitor.close();

    // the provider as the way in: the login page goes there; ?local=true keeps the form
    expect((await consoleCall('PUT', 'ui/oauth2/settings', { autoRedirectProvider: 'acme-id' })).status).toBe(200);
    const next = await browser.newContext();
    const page2 = await next.newPage();
    await page2.goto(`${arca.url}/ui/login`);
    await page2.waitForURL(`${op.issuer}/**`);
    await page2.goto(`${arca.url}/ui/login?local=true`);
    await page2.getByLabel('Username').waitFor();
    await next.close();
    await consoleCall('PUT', 'ui/oauth2/settings', { autoRedirectProvider: '' });
  });

  it('signs in through a SAML identity provider and signs out of it too', async () => {
    await call('PUT', '/artifactory/api/security/groups/auditors-group', { description: 'Auditors' });
    const { page, problems } = await signIn(browser, arca.url, 'admin', ADMIN_PASSWORD, {
      at: '/admin/security/authentication-providers/saml',
    });
    await page.getByText('No SAML identity provider yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'New SAML Provider' }).click();
    const form = page.getByRole('dialog', { name: 'New SAML Provider' });
    await form.getByLabel('Name', { exact: true }).fill('acme-saml');
    await form.getByLabel('Button text').fill('Acme SSO');
    await form.getByLabel('Metadata URL').fill(idp.metadataUrl);
    await form.getByLabel('Group mapping').fill('auditors = auditors-group');
    await form.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('SAML provider acme-saml was saved').waitFor();
    await page
      .getByRole('row', { name: /acme-saml/ })
      .getByRole('button', { name: /expand/i })
      .click();
    await page.getByText(`${arca.url}/ui/api/v1/auth/saml/acs/acme-saml`).waitFor();
    await screenshot(page, 'saml-providers');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // HTTP SSO refuses to turn on without a proxy it trusts
    await page.getByRole('tab', { name: 'HTTP SSO' }).click();
    await page.getByLabel('Enabled').click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Name at least one trusted proxy address.').waitFor();
    await screenshot(page, 'http-sso');
    // the refused save's 400 is the one console error expected
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await page.context().close();

    const visitor = await browser.newContext();
    const login = await visitor.newPage();
    await login.goto(`${arca.url}/ui/login`);
    await login.getByRole('link', { name: 'Sign in with Acme SSO' }).click();
    await login.getByLabel('IdP user').fill('frank');
    await login.getByRole('button', { name: 'Sign in to Acme IdP' }).click();
    await login.waitForURL(`${arca.url}/ui/**`);
    await login.getByRole('button', { name: /frank/ }).waitFor();
    const frank = (await (await call('GET', '/artifactory/api/security/users/frank')).json()) as {
      realm: string;
      groups: string[];
    };
    expect(frank).toMatchObject({ realm: 'saml', groups: ['auditors-group'] });
    // signing out of Arca goes on to the identity provider's logout service
    await login.goto(`${arca.url}/ui/login?logout=true`);
    await login.getByText('Signed out of Acme IdP').waitFor();
    await visitor.close();
  });
});
