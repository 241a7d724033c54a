import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import axe, { type AxeResults, type ElementContext } from 'axe-core';
import { expect, onTestFinished } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { freePort } from '../../server/src/test/free-port.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'test-results');
export const ADMIN_PASSWORD = 'E2e-admin-password';
export const CHROMIUM = process.env.ARCA_CHROMIUM ?? '/usr/bin/chromium';

export { freePort };

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts the built server (`node packages/server/dist/main.js`) on a free port and a temporary data dir. */
export async function startServer(
  env: Record<string, string> = {},
  /**
   * `onboarding`: the administrator's first visit opens the onboarding wizard; without it the
   * deployment is provisioned as automation provisions one (ARCA_ONBOARDING=false), so that other
   * tests land where they would afterwards.
   */
  options: {
    dataDir?: string;
    onboarding?: boolean;
    /** Its own process group, as systemd and container runtimes start it: a stop signals the whole group. */
    processGroup?: boolean;
    /** Another built checkout to run instead of this one (a benchmark's before/after). */
    root?: string;
  } = {},
): Promise<RunningServer> {
  const root = options.root ?? ROOT;
  const main = path.join(root, 'packages/server/dist/main.js');
  if (!fs.existsSync(main) || !fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
    throw new Error('Build first: npm run build');
  }
  // a restart on the same data directory may keep its port (a node's id is its host and port)
  const port = env.ARCA_PORT ? Number(env.ARCA_PORT) : await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'arca-e2e-'));
  let out = '';
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      ARCA_DATA_DIR: dataDir,
      ARCA_PORT: String(port),
      ARCA_HOST: '127.0.0.1',
      ARCA_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ARCA_DATABASE_URL: '',
      // one process unless a test asks for more: in-process state (mail capture, progress) stays in reach
      ARCA_WORKERS: '1',
      // the lowest scrypt cost: the suites sign in often (passwords.test.ts proves the default)
      ARCA_PASSWORD_HASH_COST: '1024',
      ...(options.onboarding ? {} : { ARCA_ONBOARDING: 'false' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const res = await fetch(`${url}/artifactory/api/system/ping`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start in 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => out,
    stop: async () => {
      // a process killed by a signal has no exit code, only the signal
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        if (options.processGroup) process.kill(-child.pid!, 'SIGTERM');
        else child.kill('SIGTERM');
        await exited;
      }
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless; Playwright gives every launch a fresh, empty profile directory. */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // every page asks for reduced motion, as a person may: the console then draws no animations, so
  // that no step waits for one to end (nor for one Ant Design leaves hanging) and a page at rest
  // costs no repaints. (Browser.newPage makes its context through newContext too.)
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ reducedMotion: 'reduce', ...options });
  return {
    browser,
    close: async () => {
      await browser.close();
    },
  };
}

/**
 * Waits until nothing on the page moves: no animation running, nothing passing through Ant
 * Design's motion classes (pages ask for reduced motion, so this is at once but for what a
 * component moves itself). Gives up quietly after 10 s: what is judged then is what shows.
 */
export async function atRest(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== 'running') &&
        !document.querySelector('[class*="-appear"], [class*="-enter"], [class*="-leave"]'),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

/** A full-page screenshot under test-results/, once the page is at rest. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await atRest(page);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Collects console errors and page errors, for a test to assert there were none. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  return problems;
}

/**
 * Collects the title of every notification the page shows, from now on and across page loads: a
 * notification leaves after a few seconds, so a test that was slow to look still learns it came.
 */
export async function watchNotices(page: Page): Promise<string[]> {
  const notices: string[] = [];
  await page.exposeBinding('arcaNoticeShown', (_source, text: string) => void notices.push(text));
  const observe = () => {
    const seen = new WeakSet<Element>();
    const report = (window as unknown as { arcaNoticeShown(text: string): void }).arcaNoticeShown;
    const scan = () => {
      for (const title of document.querySelectorAll('.ant-notification-notice-title, .ant-message-notice-content')) {
        if (seen.has(title)) continue;
        seen.add(title);
        report(title.textContent ?? '');
      }
    };
    const start = () => {
      new MutationObserver(scan).observe(document.body, { childList: true, subtree: true, characterData: true });
      scan();
    };
    if (document.body) start();
    else document.addEventListener('DOMContentLoaded', start);
  };
  await page.addInitScript(observe);
  await page.evaluate(observe);
  return notices;
}

/**
 * Accessibility violations of serious or critical impact on the current page: within `include`
 * (a dialog) when given, leaving out the parts named by `exclude` (parts judged already, such as
 * the console's frame). axe-core runs in the page itself, put there once per document (and into
 * each frame, so that it judges their contents too): every rule of its default set, only the
 * violations gathered in full.
 */
export async function seriousA11yViolations(
  page: Page,
  { include, exclude = [] }: { include?: string; exclude?: string[] } = {},
): Promise<string[]> {
  // judged at rest, as a reader sees it: not under the pointer of the last click, no transition running
  await page.mouse.move(0, 0);
  await atRest(page);
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  }
  const context = include ? { include: [include], exclude } : { exclude };
  const violations = await page.evaluate(async (context) => {
    const { axe } = window as unknown as {
      axe: { run(context: ElementContext, options: object): Promise<AxeResults> };
    };
    const result = await axe.run(context as ElementContext, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, context);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

/** Clicks an entry of the dropdown menu on screen once the menu is at rest (a click while it slides in may be missed). */
export async function chooseMenuItem(page: Page, name: string | RegExp): Promise<void> {
  await page
    .locator('.ant-dropdown:visible:not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])')
    .getByRole('menuitem', { name })
    .click();
}

/** Picks an option of an Ant Design select: opens it, narrows it by typing when it searches, clicks the option. */
export async function chooseOption(page: Page, select: Locator, text: string): Promise<void> {
  const root = select.locator('xpath=ancestor::div[contains(@class,"ant-select ")][1]');
  await root.click();
  if ((await select.getAttribute('readonly')) === null) await page.keyboard.type(text);
  // an option clicked while the list still slides in may be missed: the click waits for the list at rest
  const list = page.locator(
    '.ant-select-dropdown:visible:not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])',
  );
  await list.locator('.ant-select-item-option').filter({ hasText: text }).first().click();
  // a single select closes on its own; a multiple one stays open until it loses the focus. It is
  // closed by taking the focus away, never by an Escape: an Escape that arrives once the list has
  // closed (it may close on its own while the page is busy) travels on and closes the dialog around it
  if ((await root.getAttribute('class'))?.split(/\s+/).includes('ant-select-multiple')) await select.blur();
  // closed and its animation over, so that nothing half-visible is left for the next step (or axe)
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

/**
 * A fresh browser context signed in to the console as `user`, with its console problems collected,
 * on the console's page at `at` (the landing page unless told). The context signs in with the call
 * the login form makes, so that the session is the form's; the form itself is proven by
 * sign-in.test.ts, and a test that is about signing in fills it in. Opening the page a test is
 * about at once spares a first page load, which in a fresh context is the costliest of all.
 */
export async function signIn(
  browser: Browser,
  serverUrl: string,
  user: string,
  password: string,
  options: { viewport?: { width: number; height: number }; at?: string } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1366, height: 860 } });
  // a session a test opened ends with the test: a page left open keeps polling and rendering while
  // the file's later tests run (one opened for the whole file, in beforeAll, lives as long)
  if (expect.getState().currentTestName !== undefined) onTestFinished(() => context.close());
  const answer = await context.request.post(`${serverUrl}/ui/api/v1/ui/auth/login`, {
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    data: { user, password, type: 'login' },
  });
  const body = (await answer.json()) as { mfaStatus?: string };
  if (!answer.ok() || body.mfaStatus) {
    throw new Error(`${user} cannot sign in without the form: ${answer.status()} ${JSON.stringify(body)}`);
  }
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${serverUrl}/ui${options.at ?? '/'}`);
  return { page, problems };
}

/**
 * Opens the Packages page, reloading until the catalogue lists `name` (it follows repository
 * content through the outbox within seconds), then the package's page at its Versions tab;
 * answers the version links, newest first.
 */
export async function openCataloguedPackage(page: Page, serverUrl: string, name: string): Promise<Locator> {
  await page.goto(`${serverUrl}/ui/packages`);
  const link = page.getByRole('link', { name });
  for (let tries = 0; ; tries++) {
    // the list has loaded once it shows the package, another package or its empty state
    await link
      .or(page.getByRole('table'))
      .or(page.getByText('No packages yet.', { exact: false }))
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    if ((await link.count()) === 1) break;
    if (tries >= 20) throw new Error(`'${name}' did not appear on the Packages page`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.reload();
  }
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.getByRole('tab', { name: /Versions/ }).click();
  const versions = page.getByRole('tabpanel').getByRole('link');
  await versions.first().waitFor();
  return versions;
}

/** Debian's nginx. */
export const NGINX = '/usr/sbin/nginx';

/**
 * A certificate for 127.0.0.1 signed by itself (Debian's openssl), as a client is told to trust
 * it (SSL_CERT_FILE): the certificate and its key, as files in `dir`.
 */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'tls.crt');
  const key = path.join(dir, 'tls.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/**
 * Debian's nginx in front of the nodes, with the deployment guide's proxy settings; over TLS with
 * `tls`'s certificate (clients that send credentials over HTTPS only, as the go command does).
 */
export async function startNginx(
  ports: number[],
  options: { tls?: { cert: string; key: string } } = {},
): Promise<{ url: string; errorLog(): string; stop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-nginx-'));
  const port = await freePort();
  const { tls } = options;
  const guide = fs.readFileSync(path.join(ROOT, 'docs/deploy/nginx.conf'), 'utf8');
  const site = guide
    .replace(
      /upstream arca \{[^}]*\}/,
      `upstream arca {\n${ports.map((p) => `  server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}\n  keepalive 64;\n}`,
    )
    .replace(
      /listen 80;/,
      tls
        ? `listen 127.0.0.1:${port} ssl;\n    ssl_certificate ${tls.cert};\n    ssl_certificate_key ${tls.key};`
        : `listen 127.0.0.1:${port};`,
    )
    .replace(/listen \[::\]:80;/, '');
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nworker_processes 1;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;\n${site}\n}\n`,
  );
  const child: ChildProcess = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const ca = tls ? fs.readFileSync(tls.cert) : undefined;
  const live = () =>
    new Promise<boolean>((resolve) => {
      const request = (tls ? https : http).get(`${url}/livez`, { ca }, (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      });
      request.on('error', () => resolve(false));
    });
  for (let i = 0; ; i++) {
    if (await live()) break;
    if (i > 100) throw new Error(`nginx did not answer: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    /** What nginx logged about its upstreams (why it answered 502, for one). */
    errorLog: () => fs.readFileSync(path.join(dir, 'error.log'), 'utf8'),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
