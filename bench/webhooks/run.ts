/**
 * Webhooks: a burst of 1,000 deploys with 3 subscriptions listening to them, each sending to a
 * receiver on this machine. Prints the latency from each deploy's answer to its arrival at the
 * receiver (p50, p95, p99), deliveries per second over the burst, and whether any was lost or
 * came twice. Target: p95 ≤ 1 s, none lost.
 */
import { Worker } from 'node:worker_threads';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { AUTH, build, createRepository, percentile } from '../lib/bench.ts';

const DEPLOYS = Number(process.env.BENCH_DEPLOYS ?? 1000);
const SUBSCRIPTIONS = 3;
const CONCURRENCY = 8;
/** Server processes (ARCA_WORKERS): one by default, where deploys and deliveries share the process that sends. */
const WORKERS = process.env.BENCH_WORKERS ?? '1';

await build();
const arrivals = new Map<string, number>();
let duplicates = 0;
// the receiver has an event loop of its own, as a real one would: the deploys driven from this
// thread do not delay its answers (arrival times are wall-clock, comparable across threads)
const receiver = new Worker(
  `
  const http = require('node:http');
  const { parentPort } = require('node:worker_threads');
  let batch = [];
  setInterval(() => { if (batch.length) { parentPort.postMessage(batch); batch = []; } }, 50).unref();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      batch.push([body.subscription_key + ' ' + body.data.path, at]);
      res.end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
  parentPort.on('message', () => server.close(() => process.exit(0)));
  `,
  { eval: true },
);
const receiverPort = await new Promise<number>((resolve) =>
  receiver.once('message', (m: { port: number }) => resolve(m.port)),
);
receiver.on('message', (batch: [string, number][]) => {
  for (const [key, at] of batch) {
    if (arrivals.has(key)) duplicates++;
    else arrivals.set(key, at);
  }
});
const receiverUrl = `http://127.0.0.1:${receiverPort}`;

const server = await startServer({
  ARCA_LOG_STDOUT: 'false',
  ARCA_LOG_LEVEL: 'warn',
  ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  ARCA_WORKERS: WORKERS,
});
try {
  await createRepository(server.url, 'bench-local');
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    const res = await fetch(`${server.url}/event/api/v1/subscriptions`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({
        key: `hook${i}`,
        event_filter: { domain: 'artifact', event_types: ['deployed'], criteria: { repoKeys: ['bench-local'] } },
        handlers: [{ url: `${receiverUrl}/hook${i}`, secret: 'bench', use_secret_for_signing: true }],
      }),
    });
    if (res.status !== 201) throw new Error(`subscription: ${res.status} ${await res.text()}`);
  }
  const answered = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < DEPLOYS; i = next++) {
        const path = `burst/file-${i}.txt`;
        const res = await fetch(`${server.url}/artifactory/bench-local/${path}`, {
          method: 'PUT',
          headers: { authorization: AUTH },
          body: `content ${i}`,
        });
        if (res.status !== 201) throw new Error(`deploy ${i}: ${res.status}`);
        answered.set(path, performance.timeOrigin + performance.now());
      }
    }),
  );
  const expected = DEPLOYS * SUBSCRIPTIONS;
  const deadline = Date.now() + 120_000;
  while (arrivals.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const seconds = (performance.now() - started) / 1000;
  const lastAnswer = Math.max(...answered.values()) - (performance.timeOrigin + started);
  const byOrder = [...answered.entries()].sort((a, b) => a[1] - b[1]).map(([path]) => path);
  const lagOf = (paths: string[]) =>
    percentile(
      paths.flatMap((p) =>
        Array.from({ length: SUBSCRIPTIONS }, (_, i) => arrivals.get(`hook${i} ${p}`)! - answered.get(p)!),
      ),
      50,
    );
  console.log(
    `  deploys answered within ${(lastAnswer / 1000).toFixed(1)} s; median latency of the first 100: ${lagOf(byOrder.slice(0, 100)).toFixed(0)} ms, of the last 100: ${lagOf(byOrder.slice(-100)).toFixed(0)} ms`,
  );
  const latencies: number[] = [];
  for (const [key, at] of arrivals) latencies.push(at - answered.get(key.split(' ')[1]!)!);
  console.log(
    `\nwebhooks: ${DEPLOYS} deploys (${CONCURRENCY} at a time), ${SUBSCRIPTIONS} subscriptions, ${WORKERS} server process(es)`,
  );
  console.log(
    `  delivered   ${arrivals.size} of ${expected}, ${duplicates} duplicates, ${expected - arrivals.size} lost`,
  );
  console.log(`  throughput  ${(arrivals.size / seconds).toFixed(0)} deliveries/s (first deploy to last arrival)`);
  console.log(
    `  latency     p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (target p95 ≤ 1000 ms)`,
  );
} finally {
  await server.stop();
  await receiver.terminate();
}
