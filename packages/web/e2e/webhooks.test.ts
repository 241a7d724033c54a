import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  launchBrowser,
  type RunningServer,
  screenshot,
  seriousA11yViolations,
  signIn,
  startServer,
} from './harness';

const AUTH = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };

interface Arrival {
  path: string;
  body: { event_id: string; subscription_key: string; event_type: string; data: { path: string } };
}

/** A receiver on this machine: records what arrives, answers 200. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Arrival['body'],
      });
      res.end('received');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const createRepo = (url: string) =>
  fetch(`${url}/artifactory/api/repositories/libs-local`, {
    method: 'PUT',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
  });

describe('webhooks against a real server', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('loses no event when the server is killed mid-burst and started again', { timeout: 180_000 }, async () => {
    const env = { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
    let server: RunningServer = await startServer(env);
    const { dataDir } = server;
    const port = new URL(server.url).port;
    try {
      expect((await createRepo(server.url)).status).toBe(200);
      const created = await fetch(`${server.url}/event/api/v1/subscriptions`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({
          key: 'burst',
          event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { anyLocal: true } },
          handlers: [{ url: `${receiver.url}/burst` }],
        }),
      });
      expect(created.status).toBe(201);
      const target = server.url;
      let next = 0;
      let killed = false;
      const burst = Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < 500; i = next++) {
            if (i === 250 && !killed) {
              killed = true;
              server.process.kill('SIGKILL');
            }
            await fetch(`${target}/artifactory/libs-local/burst/f-${i}.txt`, {
              method: 'PUT',
              headers: AUTH,
              body: `file ${i}`,
            }).catch(() => undefined);
          }
        }),
      );
      await burst;
      await new Promise((resolve) =>
        server.process.exitCode !== null || server.process.signalCode !== null
          ? resolve(null)
          : server.process.once('exit', resolve),
      );
      server = await startServer({ ...env, ARCA_PORT: port }, { dataDir });
      // every file the repository holds was deployed, so its event must arrive: none lost
      const listed = (await (
        await fetch(`${server.url}/artifactory/api/storage/libs-local/burst?list&deep=1`, { headers: AUTH })
      ).json()) as { files: { uri: string }[] };
      const stored = listed.files.map((f) => `burst${f.uri}`);
      expect(stored.length).toBeGreaterThan(0);
      await expect
        .poll(() => new Set(receiver.arrivals.filter((a) => a.path === '/burst').map((a) => a.body.data.path)).size, {
          timeout: 90_000,
          interval: 250,
        })
        .toBe(stored.length);
      const arrived = receiver.arrivals.filter((a) => a.path === '/burst');
      const idsByPath = new Map<string, Set<string>>();
      for (const a of arrived)
        idsByPath.set(a.body.data.path, (idsByPath.get(a.body.data.path) ?? new Set()).add(a.body.event_id));
      expect([...idsByPath.keys()].sort()).toEqual([...stored].sort());
      // a re-sent event keeps its id; different events never share one
      expect([...idsByPath.values()].every((ids) => ids.size === 1)).toBe(true);
      expect(new Set([...idsByPath.values()].map((ids) => [...ids][0])).size).toBe(stored.length);
    } finally {
      await server.stop();
      const fs = await import('node:fs');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('in the console', () => {
    let server: RunningServer;
    let browser: Browser;
    let closeBrowser: () => Promise<void>;
    beforeAll(async () => {
      server = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
      ({ browser, close: closeBrowser } = await launchBrowser());
      expect((await createRepo(server.url)).status).toBe(200);
    });
    afterAll(async () => {
      await closeBrowser?.();
      await server?.stop();
    });

    it('creates a webhook, tests it, sees a deploy’s delivery in the log and re-sends it', async () => {
      const { page, problems } = await signIn(browser, server.url, 'admin', ADMIN_PASSWORD, {
        at: '/admin/configuration/webhooks',
      });
      await expect.poll(() => page.getByText('No webhooks yet').isVisible()).toBe(true);
      await screenshot(page, 'webhooks-empty');
      await page.getByRole('button', { name: /New Webhook/ }).click();
      await page.getByRole('heading', { name: 'New Webhook' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('1bad');
      await page.getByLabel('Description', { exact: true }).click();
      await expect.poll(() => page.getByText('Name cannot contain special characters').isVisible()).toBe(true);
      await page.getByLabel('Name', { exact: true }).fill('ci-notify');
      await page.getByLabel('Description', { exact: true }).fill('Tell CI about new files');
      await page.getByRole('group', { name: 'Artifact events' }).getByLabel('deployed').check();
      await page.getByLabel('URL', { exact: true }).fill('not a url');
      await page.getByLabel('Secret', { exact: true }).click();
      await expect.poll(() => page.getByText('Enter a valid URL').isVisible()).toBe(true);
      await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/console`);
      await page.getByLabel('Secret', { exact: true }).fill('s3cret');
      await page.getByRole('button', { name: 'Test' }).click();
      await expect
        .poll(() => page.getByText('Dummy Webhook was sent successfully (the receiver answered 200).').isVisible())
        .toBe(true);
      expect(receiver.arrivals.some((a) => a.path === '/console' && a.body.subscription_key === 'ci-notify')).toBe(
        true,
      );
      await screenshot(page, 'webhooks-form');
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.getByRole('link', { name: 'Edit ci-notify' }).isVisible()).toBe(true);

      const deployed = await fetch(`${server.url}/artifactory/libs-local/app/readme.txt`, {
        method: 'PUT',
        headers: AUTH,
        body: 'hello',
      });
      expect(deployed.status).toBe(201);
      await expect
        .poll(
          () => receiver.arrivals.filter((a) => a.path === '/console' && a.body.data.path === 'app/readme.txt').length,
          {
            timeout: 15_000,
          },
        )
        .toBe(1);
      await page.reload();
      await expect.poll(() => page.getByText(/Delivered · 200/).isVisible(), { timeout: 15_000 }).toBe(true);
      await screenshot(page, 'webhooks-list');

      await page.getByRole('button', { name: 'Delivery log of ci-notify' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'View delivery' }).first().isVisible()).toBe(true);
      await page.getByRole('button', { name: 'View delivery' }).first().click();
      await expect.poll(() => page.getByText('Attempt 1').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('received').first().isVisible()).toBe(true);
      await screenshot(page, 'webhooks-delivery');
      await page.getByRole('dialog').getByRole('button', { name: 'Re-send' }).click();
      await expect
        .poll(
          () => receiver.arrivals.filter((a) => a.path === '/console' && a.body.data.path === 'app/readme.txt').length,
          {
            timeout: 15_000,
          },
        )
        .toBe(2);
      const [first, again] = receiver.arrivals.filter(
        (a) => a.path === '/console' && a.body.data.path === 'app/readme.txt',
      );
      expect(again!.body.event_id).toBe(first!.body.event_id);
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await screenshot(page, 'webhooks-deliveries');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
});
