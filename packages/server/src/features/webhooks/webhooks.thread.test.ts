import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostingThread } from './webhooks.thread.js';
import type { PostRun } from './webhooks.poster.js';

/** A receiver that answers each path's status from `statuses`, holds `/hang`, and records arrivals in order. */
let server: http.Server;
let base: string;
const arrivals: string[] = [];
const held: http.ServerResponse[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(req.url ?? '');
      if (req.url === '/hang') held.push(res);
      else {
        res.statusCode = req.url === '/fail' ? 503 : 200;
        res.end('answer');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const handler = (path: string): PostRun['handler'] => ({
  handler_type: 'webhook',
  url: `${base}${path}`,
  secret: 'shh',
  use_secret_for_signing: false,
  custom_http_headers: [],
});
const run = (path: string, n: number): PostRun => ({
  handler: handler(path),
  deliveries: Array.from({ length: n }, (_, i) => ({ body: JSON.stringify({ i }), eventId: `e${i}` })),
  allowed: ['127.0.0.1'],
  startBefore: Date.now() + 60_000,
});

describe('the posting thread', () => {
  it('posts a run in order and stops it at the first failure', async () => {
    const thread = new PostingThread();
    try {
      arrivals.length = 0;
      const sent = await thread.post(run('/ok', 5));
      expect(sent.map((e) => e.status)).toEqual([200, 200, 200, 200, 200]);
      expect(sent.map((e) => JSON.parse(e.request.body) as { i: number })).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
      expect(sent[0]!.request.headers['x-jfrog-event-auth']).toBe('**********');
      expect(sent[0]!.response?.body).toBe('answer');
      const failed = await thread.post(run('/fail', 3));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ status: 503, error: 'The receiver answered 503.' });
      expect(arrivals).toEqual(['/ok', '/ok', '/ok', '/ok', '/ok', '/fail']);
      // nothing starts after the run's deadline
      expect(await thread.post({ ...run('/ok', 3), startBefore: Date.now() - 1 })).toEqual([]);
    } finally {
      await thread.stop(Promise.resolve());
    }
  });

  it('fails the runs it held when the thread dies, and starts anew for the next', async () => {
    const thread = new PostingThread();
    try {
      const hanging = thread.post(run('/hang', 2));
      await expect.poll(() => held.length, { timeout: 15_000 }).toBe(1);
      // the thread dies mid-post (an out-of-memory kill, a crash in a dependency)
      await thread['calls']['worker']!.terminate();
      await expect(hanging).rejects.toThrow('the posting thread stopped');
      const again = await thread.post(run('/ok', 1));
      expect(again.map((e) => e.status)).toEqual([200]);
    } finally {
      await thread.stop(Promise.resolve());
    }
  });
});
