/**
 * What the Prometheus metrics cost on the hot read path: the 1 KiB anonymous download measured
 * with autocannon (16 connections, one worker) against Arca with metrics on (the default) and off
 * (`ARCA_METRICS=false`), in alternating rounds; prints requests/s of each, the median of the
 * rounds, and the overhead. Target: metrics add ≤ 3 %.
 */
import autocannon from 'autocannon';
import { AUTH, build, createRepository } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(metrics: boolean): Promise<number> {
  const server = await startServer({ ARCA_WORKERS: '1', ARCA_LOG_STDOUT: 'false', ARCA_METRICS: String(metrics) });
  try {
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
    // a short warm-up, then the measured run
    await autocannon({ url, connections: 16, duration: 2 });
    const result = await autocannon({ url, connections: 16, duration: SECONDS });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
    if (metrics) {
      const scrape = await fetch(`${server.url}/metrics`, { headers: { authorization: AUTH } });
      if (!(await scrape.text()).includes('http_request_duration_seconds_count')) throw new Error('no metrics kept');
    }
    return result.requests.average;
  } finally {
    await server.stop();
  }
}

await build();
const on: number[] = [];
const off: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // alternating, so that the machine's drift falls on both alike
  if (round % 2 === 0) {
    off.push(await measure(false));
    on.push(await measure(true));
  } else {
    on.push(await measure(true));
    off.push(await measure(false));
  }
  console.log(`  round ${round + 1}: metrics off ${off.at(-1)!.toFixed(0)} req/s, on ${on.at(-1)!.toFixed(0)} req/s`);
}
const overhead = (1 - median(on) / median(off)) * 100;
console.log(`\nmetrics: 1 KiB anonymous reads, 1 worker, ${ROUNDS} rounds of ${SECONDS} s (median)`);
console.log(`  metrics off  ${median(off).toFixed(0)} req/s`);
console.log(`  metrics on   ${median(on).toFixed(0)} req/s`);
console.log(`  overhead     ${overhead.toFixed(1)} % (target ≤ 3 %)`);
