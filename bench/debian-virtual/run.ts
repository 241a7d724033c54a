/**
 * A virtual Debian repository over a remote one whose mirror has `BENCH_PACKAGES` (default
 * 60 000) packages in each of two architectures, and a local one: seconds to the first
 * `InRelease` (the merge of the members' indexes) and to the next one, and the latency of ping
 * and of a 1 KiB read asked every 20 ms meanwhile (p50, p99, max). Targets: first InRelease
 * ≤ 10 s, the next at once, reads ≤ 100 ms throughout.
 */
import { AUTH, build, createRepository, percentile } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { startDebianMirror } from '../../packages/server/src/test/debian-mirror.ts';

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 60_000);

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

await build();
const mirror = await startDebianMirror(PACKAGES);
const server = await startServer({
  ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  ARCA_WORKERS: process.env.BENCH_WORKERS ?? '1',
});
try {
  const api = `${server.url}/artifactory/api/repositories`;
  await call(`${api}/mirror`, 'PUT', { rclass: 'remote', packageType: 'debian', url: mirror.url });
  await call(`${api}/deb-local`, 'PUT', { rclass: 'local', packageType: 'debian' });
  await call(`${api}/deb-all`, 'PUT', {
    rclass: 'virtual',
    packageType: 'debian',
    repositories: ['deb-local', 'mirror'],
  });
  await createRepository(server.url, 'files');
  await call(`${server.url}/artifactory/files/small.bin`, 'PUT', 'x'.repeat(1024));

  const latencies: number[] = [];
  let reading = true;
  const reader = (async () => {
    for (let i = 0; reading; i++) {
      const started = performance.now();
      const url = i % 2 ? `${server.url}/artifactory/api/system/ping` : `${server.url}/artifactory/files/small.bin`;
      const res = await fetch(url, { headers: { authorization: AUTH } });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const inRelease = `${server.url}/artifactory/deb-all/dists/stable/InRelease`;
  let started = performance.now();
  const first = await fetch(inRelease, { headers: { authorization: AUTH } });
  const text = await first.text();
  const firstSeconds = (performance.now() - started) / 1000;
  reading = false;
  await reader;
  if (first.status !== 200 || !text.includes('BEGIN PGP SIGNED MESSAGE'))
    throw new Error(`InRelease: ${first.status} ${text.slice(0, 200)}`);
  started = performance.now();
  await (await fetch(inRelease, { headers: { authorization: AUTH } })).text();
  const secondMs = performance.now() - started;
  const packages = await fetch(`${server.url}/artifactory/deb-all/dists/stable/main/binary-amd64/Packages`, {
    headers: { authorization: AUTH },
  });
  const entries = (await packages.text()).split('\n\n').filter((s) => s.trim()).length;
  console.log(`virtual Debian repository over a mirror of ${PACKAGES.toLocaleString()} packages × 2 architectures`);
  console.log(
    `  first InRelease:  ${firstSeconds.toFixed(2)} s (target ≤ 10 s); merged amd64 index: ${entries.toLocaleString()} entries`,
  );
  console.log(`  next InRelease:   ${secondMs.toFixed(0)} ms`);
  console.log(
    `  reads meanwhile:  ${latencies.length} — p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (target ≤ 100 ms)`,
  );
} finally {
  await server.stop();
  await mirror.stop();
}
