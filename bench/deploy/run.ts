/**
 * Deploy: a 1 GiB deploy with X-Checksum-Sha256 verification versus `sha256sum` of the same file,
 * in one run. Prints both throughputs (median of 3) and the ratio.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../packages/web/e2e/harness.ts';
import { AUTH, build, createRepository, curl, installDebianPackages, makeFile, mb, median } from '../lib/bench.ts';

const SIZE = Number(process.env.BENCH_SIZE_MB ?? 1024) * 1024 * 1024;
const RUNS = 3;

installDebianPackages('curl');
await build();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-deploy-'));
const files = Array.from({ length: RUNS }, (_, i) => path.join(work, `big-${i}.bin`));
// a distinct file per run, so that no deploy finds its content already stored
files.forEach((file, i) => {
  makeFile(file, SIZE);
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, Buffer.from(`run-${i}`), 0, 5, 0);
  fs.closeSync(fd);
});
const server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' });
try {
  await createRepository(server.url, 'bench-local');
  const arca: number[] = [];
  const peer: number[] = [];
  for (const [i, file] of files.entries()) {
    const started = process.hrtime.bigint();
    execFileSync('sha256sum', [file]);
    peer.push(SIZE / (Number(process.hrtime.bigint() - started) / 1e9));
    const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    const res = curl([
      '-H',
      `authorization: ${AUTH}`,
      '-H',
      `X-Checksum-Sha256: ${sha}`,
      '-T',
      file,
      `${server.url}/artifactory/bench-local/big-${i}.bin`,
    ]);
    if (res.status !== 201) throw new Error(`deploy failed: ${res.status}`);
    arca.push(SIZE / res.seconds);
  }
  const a = median(arca);
  const s = median(peer);
  console.log(`deploy: ${SIZE / 1024 / 1024} MiB with SHA-256 verification, median of ${RUNS}`);
  console.log(
    `deploy: arca ${mb(a)} (runs ${arca.map(mb).join(', ')}) — streamed to a temp file (SHA-256 on the request thread, SHA-1 and MD5 on a worker), fsynced, renamed, recorded`,
  );
  console.log(`deploy: sha256sum ${mb(s)} (runs ${peer.map(mb).join(', ')})`);
  console.log(`deploy: ratio arca/sha256sum ${(a / s).toFixed(2)}`);
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
