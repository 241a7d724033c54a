/**
 * Release bundles: `BENCH_FILES` (default 10 000) artifacts of `BENCH_KB` (default 16) KiB of random
 * bytes made into one release bundle version (from an AQL query: resolved, its manifest signed and
 * stored, every file held), then distributed to a second Arca reached through a TCP proxy that
 * counts the bytes on the wire both ways; then a second version with `BENCH_CHANGED` (default 50)
 * files changed, distributed too. Prints seconds of each step and bytes on the wire beside the
 * payload (the first: all bytes; the second: the changed files' bytes).
 */
import { AUTH, build, createRepository, deployRandomFiles } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { startCountingProxy } from '../../packages/server/src/test/tcp-proxy.ts';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const KB = Number(process.env.BENCH_KB ?? 16);
const CHANGED = Number(process.env.BENCH_CHANGED ?? 50);
const LIFECYCLE = '/lifecycle/api/v2';

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: AUTH,
      'x-requested-with': 'XMLHttpRequest',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

await build(true);
const env = { ARCA_LOG_STDOUT: 'false', ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
const [source, target] = await Promise.all([startServer(env), startServer(env)]);
const proxy = await startCountingProxy(Number(new URL(target.url).port));
try {
  await createRepository(source.url, 'bench-local');
  const files = Array.from({ length: FILES }, (_, i) => `lib/${i % 100}/f${i}.bin`);
  const deploy = (paths: string[]) => deployRandomFiles(source.url, 'bench-local', paths, KB);
  await deploy(files);
  await call(source.url, 'POST', '/ui/api/v1/ui/security/keyPairs', { pairName: 'bench-key', pairType: 'RSA' });
  const pairing = await call(target.url, 'POST', '/access/api/v1/pairing/token');
  await call(source.url, 'POST', '/ui/api/v1/mc/api/v1/deployments', {
    name: 'edge',
    url: proxy.url,
    pairing_token: pairing.token,
  });

  /** A version from an AQL query, or from a list of paths. */
  const create = async (version: string, from: { aql: string } | { paths: string[] }) => {
    const started = performance.now();
    await call(
      source.url,
      'POST',
      `${LIFECYCLE}/release_bundle`,
      {
        release_bundle_name: 'bench',
        release_bundle_version: version,
        ...('aql' in from
          ? { source_type: 'aql', source: { aql: from.aql } }
          : { source_type: 'artifacts', source: { artifacts: from.paths.map((p) => ({ path: `bench-local/${p}` })) } }),
      },
      { 'x-jfrog-signing-key-name': 'bench-key' },
    );
    return (performance.now() - started) / 1000;
  };
  const distribute = async (version: string) => {
    proxy.reset();
    const started = performance.now();
    await call(source.url, 'POST', `${LIFECYCLE}/distribution/distribute/bench/${version}`, {
      distribution_rules: [{ site_name: 'edge' }],
      auto_create_missing_repositories: true,
    });
    for (;;) {
      const [tracker] = (await (
        await fetch(`${source.url}${LIFECYCLE}/distribution/trackers/bench/${version}`, {
          headers: { authorization: AUTH },
        })
      ).json()) as { status: string; files_sent: number; bytes_sent: number; message: string }[];
      if (tracker!.status !== 'IN_PROGRESS') {
        if (tracker!.status !== 'COMPLETED')
          throw new Error(`the distribution ended ${tracker!.status}: ${tracker!.message}`);
        return {
          seconds: (performance.now() - started) / 1000,
          wire: proxy.counted.up + proxy.counted.down,
          files: tracker!.files_sent,
        };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const createFirst = await create('1', { aql: 'items.find({"repo":"bench-local"})' });
  const first = await distribute('1');
  // the files of version 1 are held: version 2 brings its changed files at new paths
  const changed = Array.from({ length: CHANGED }, (_, i) => `lib/next/f${i}.bin`);
  await deploy(changed);
  const createSecond = await create('2', { paths: [...changed, ...files.slice(CHANGED)] });
  const second = await distribute('2');
  const payload = FILES * KB * 1024;
  const changedBytes = CHANGED * KB * 1024;

  console.log(
    `\nrelease bundles: ${FILES} artifacts of ${KB} KiB (${(payload / 1e6).toFixed(0)} MB), to a second Arca`,
  );
  console.log(`  create version 1 (AQL, signed, held)     ${createFirst.toFixed(1).padStart(7)} s`);
  console.log(
    `  distribute version 1                     ${first.seconds.toFixed(1).padStart(7)} s  ${String(first.files).padStart(6)} files sent  ${(first.wire / 1e6).toFixed(2).padStart(9)} MB on the wire  ${(first.wire / payload).toFixed(3)}× the payload`,
  );
  console.log(`  create version 2 (${CHANGED} changed)           ${createSecond.toFixed(1).padStart(7)} s`);
  console.log(
    `  distribute version 2                     ${second.seconds.toFixed(1).padStart(7)} s  ${String(second.files).padStart(6)} files sent  ${(second.wire / 1e6).toFixed(2).padStart(9)} MB on the wire  ${(second.wire / changedBytes).toFixed(3)}× the changed files' bytes`,
  );
} finally {
  await proxy.close();
  await Promise.all([source.stop(), target.stop()]);
}
