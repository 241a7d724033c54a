import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousA11yViolations } from './harness';

/**
 * The accessibility judge every browser test relies on: it must find what a reader of the page
 * would be stopped by, wherever on the page it is, and leave out only what it is told to.
 */
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;

const PAGE = `<!doctype html><html lang="en"><head><title>Judge</title></head><body>
  <main>
    <h1>Judge</h1>
    <div class="frame"><button id="frame-button"></button></div>
    <div class="dialog"><img id="dialog-image" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></div>
    <p style="color:#bbb;background:#fff">Pale text that cannot be read on white</p>
    <iframe title="Embedded" src="/frame"></iframe>
  </main>
</body></html>`;
const FRAME = `<!doctype html><html lang="en"><head><title>Embedded</title></head><body><input id="unlabelled"></body></html>`;
let site: http.Server;

beforeAll(async () => {
  // served as the console is, the frame from the page's own origin
  site = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/frame' ? FRAME : PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  ({ browser, close: closeBrowser } = await launchBrowser());
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  await closeBrowser?.();
  site?.close();
});

describe('the accessibility judge', () => {
  it('finds serious and critical violations in the page and in its frames', async () => {
    const found = await seriousA11yViolations(page);
    expect(found).toEqual(
      expect.arrayContaining([
        'button-name: #frame-button',
        'image-alt: #dialog-image',
        expect.stringMatching(/^color-contrast: /),
        expect.stringMatching(/^label: iframe .*#unlabelled/),
      ]),
    );
  });

  it('judges only within what it is given, leaving out what it is told to', async () => {
    expect(await seriousA11yViolations(page, { include: '.dialog' })).toEqual(['image-alt: #dialog-image']);
    const outside = await seriousA11yViolations(page, { exclude: ['.frame', '.dialog'] });
    expect(outside.some((v) => v.startsWith('button-name') || v.startsWith('image-alt'))).toBe(false);
    expect(outside.some((v) => v.startsWith('color-contrast'))).toBe(true);
  });

  it('judges the page as it is now, after it changed', async () => {
    await page.evaluate(() => document.querySelector('#frame-button')!.setAttribute('aria-label', 'Open'));
    expect(await seriousA11yViolations(page, { include: '.frame' })).toEqual([]);
  });
});
