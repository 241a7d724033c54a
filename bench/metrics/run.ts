/**
 * What the Prometheus metrics cost on the hot read path: the 1 KiB anonymous download measured
 * with autocannon (16 connections, one worker) against two servers started side by side, metrics on
 * (the default) and off (`ARCA_METRICS=false`), measured in turn (`BENCH_ROUNDS` pairs of
 * `BENCH_SECONDS`); prints requests/s of each and the overhead, the median of the rounds' ratios.
 * Target: metrics add ≤ 3 %.
 */
import autocannon from 'autocannon';
import { AUTH, build, createRepository } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A server with a 1 KiB file anonymous users may read, warmed up; answers its URL and how to stop it. */
async function serve(metrics: boolean) {
  const server = await startServer({ ARCA_WORKERS: '1', ARCA_LOG_STDOUT: 'false', ARCA_METRICS: String(metrics) });
  await createRepository(server.url, 'libs-local');
  const res = await fetch(`${server.url}/artifactory/libs-local/small.bin`, {
    method: 'PUT',
    headers: { authorization: AUTH },
    body: Buffer.alloc(1024, 7),
  });
  if (res.status !== 201) throw new Error(`deploy: ${res.status}`);
  const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const settings = (await (
    await fetch(`${server.url}/ui/api/v1/ui/security/settings`, { headers: json })
  ).json()) as object;
  const opened = await fetch(`${server.url}/ui/api/v1/ui/security/settings`, {
    method: 'PUT',
    headers: json,
    body: JSON.stringify({ ...settings, anonymousAccess: true }),
  });
  if (!opened.ok) throw new Error(`anonymous access: ${opened.status}`);
  const url = `${server.url}/artifactory/libs-local/small.bin`;
  await autocannon({ url, connections: 16, duration: 3 });
  return { server, url };
}

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

await build();
// both servers run through the whole benchmark, measured in turn: the machine's drift falls on both alike
const without = await serve(false);
const withMetrics = await serve(true);
const on: number[] = [];
const off: number[] = [];
const ratios: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      off.push(await measure(without.url));
      on.push(await measure(withMetrics.url));
    } else {
      on.push(await measure(withMetrics.url));
      off.push(await measure(without.url));
    }
    ratios.push(on.at(-1)! / off.at(-1)!);
    console.log(
      `  round ${String(round + 1).padStart(2)}: metrics off ${off.at(-1)!.toFixed(0)} req/s, on ${on.at(-1)!.toFixed(0)} req/s`,
    );
  }
  const scrape = await fetch(`${withMetrics.server.url}/metrics`, { headers: { authorization: AUTH } });
  if (!(await scrape.text()).includes('http_request_duration_seconds_count')) throw new Error('no metrics kept');
} finally {
  await without.server.stop();
  await withMetrics.server.stop();
}
console.log(`\nmetrics: 1 KiB anonymous reads, 1 worker each, ${ROUNDS} paired rounds of ${SECONDS} s`);
console.log(`  metrics off  ${median(off).toFixed(0)} req/s (median)`);
console.log(`  metrics on   ${median(on).toFixed(0)} req/s (median)`);
console.log(
  `  overhead     ${((1 - median(ratios)) * 100).toFixed(1)} % (median of the rounds' on/off ratios; target ≤ 3 %)`,
);
