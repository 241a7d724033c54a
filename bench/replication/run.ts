/**
 * Replication of a repository to another deployment: `BENCH_FILES` (default 10 000) artifacts of
 * `BENCH_KB` (default 100) KiB of random bytes — 1 GB — pushed to an empty repository of a second
 * Arca, then pushed again after `BENCH_CHANGED_PERCENT` (default 1) % of them changed. The second
 * deployment is reached through a TCP proxy that counts the bytes on the wire both ways: the
 * incremental run's bytes are printed beside the changed artifacts' own (target ≤ 1.1×).
 */
import { randomBytes } from 'node:crypto';
import { AUTH, build, createRepository, deployRandomFiles } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { startCountingProxy } from '../../packages/server/src/test/tcp-proxy.ts';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const KB = Number(process.env.BENCH_KB ?? 100);
const CHANGED = Number(process.env.BENCH_CHANGED_PERCENT ?? 1);
const MC = '/ui/api/v1/mc/api/v1';

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: AUTH,
      'x-requested-with': 'XMLHttpRequest',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

await build(true);
const env = { ARCA_LOG_STDOUT: 'false', ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' };
const [source, target] = await Promise.all([startServer(env), startServer(env)]);
const proxy = await startCountingProxy(Number(new URL(target.url).port));
try {
  await createRepository(source.url, 'bench-local');
  await createRepository(target.url, 'bench-local');
  const files = Array.from({ length: FILES }, (_, i) => `lib/${i % 100}/f${i}.bin`);
  // FILES artifacts of KB KiB, 16 at a time
  await deployRandomFiles(source.url, 'bench-local', files, KB);
  const pairing = await call(target.url, 'POST', '/access/api/v1/pairing/token');
  const deployment = await call(source.url, 'POST', `${MC}/deployments`, {
    name: 'target',
    url: proxy.url,
    pairing_token: pairing.token,
  });
  await call(source.url, 'POST', `${MC}/replications`, {
    key: 'bench',
    repo_key: 'bench-local',
    deployment_id: deployment.id,
    remote_repo_key: 'bench-local',
    strategy: 'push',
    cron: '0 0 3 * * *',
    sync_deletes: true,
  });

  const replicate = async () => {
    proxy.reset();
    const started = performance.now();
    const { run_id } = (await call(source.url, 'POST', `${MC}/replications/bench/run`)) as { run_id: string };
    for (;;) {
      const { run } = (await call(source.url, 'GET', `${MC}/replications/runs/${run_id}`)) as {
        run: { status: string; files_transferred: number; bytes_transferred: number; files_failed: number };
      };
      if (run.status !== 'running') {
        if (run.status !== 'success') throw new Error(`the run ended ${run.status}`);
        return { seconds: (performance.now() - started) / 1000, wire: proxy.counted.up + proxy.counted.down, run };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const full = await replicate();
  const changedCount = Math.round((FILES * CHANGED) / 100);
  for (let i = 0; i < changedCount; i++) {
    const res = await fetch(`${source.url}/artifactory/bench-local/${files[i * Math.floor(100 / CHANGED)]}`, {
      method: 'PUT',
      headers: { authorization: AUTH },
      body: randomBytes(KB * 1024),
    });
    if (res.status !== 201) throw new Error(`change: ${res.status}`);
  }
  const incremental = await replicate();
  const changedBytes = changedCount * KB * 1024;
  const total = FILES * KB * 1024;

  console.log(
    `\nreplication: ${FILES} artifacts of ${KB} KiB (${(total / 1e6).toFixed(0)} MB), pushed to a second Arca`,
  );
  const line = (name: string, r: typeof full, payload: number) =>
    console.log(
      `  ${name.padEnd(26)} ${r.seconds.toFixed(1).padStart(7)} s  ${String(r.run.files_transferred).padStart(6)} files  ${(r.wire / 1e6).toFixed(2).padStart(9)} MB on the wire  ${(r.wire / payload).toFixed(3)}× the payload`,
    );
  line('full run', full, total);
  line(`incremental (${CHANGED} % changed)`, incremental, changedBytes);
  console.log(
    `  incremental bytes on the wire / changed artifacts' bytes: ${(incremental.wire / changedBytes).toFixed(3)}× (target ≤ 1.1×)`,
  );
} finally {
  await proxy.close();
  await Promise.all([source.stop(), target.stop()]);
}
