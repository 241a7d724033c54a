/**
 * Download: a 1 GiB artifact over loopback from Arca versus the same file from nginx, in one run.
 * Prints both throughputs (median of 3) and the ratio. Target: Arca / nginx ≥ 0.8.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../packages/web/e2e/harness.ts';
import {
  AUTH,
  build,
  createRepository,
  curl,
  freePort,
  installDebianPackages,
  makeFile,
  mb,
  median,
  startNginx,
} from '../lib/bench.ts';

const SIZE = Number(process.env.BENCH_SIZE_MB ?? 1024) * 1024 * 1024;
const RUNS = 3;

installDebianPackages('nginx', 'curl');
await build();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-download-'));
const file = path.join(work, 'www', 'big.bin');
fs.mkdirSync(path.dirname(file), { recursive: true });
makeFile(file, SIZE);

const server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' });
const nginxPort = await freePort();
const nginx = await startNginx(path.join(work, 'www'), nginxPort, path.join(work, 'nginx'));
try {
  await createRepository(server.url, 'bench-local');
  const deployed = curl(['-H', `authorization: ${AUTH}`, '-T', file, `${server.url}/artifactory/bench-local/big.bin`]);
  if (deployed.status !== 201) throw new Error(`deploy failed: ${deployed.status}`);
  const arca: number[] = [];
  const peer: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    arca.push(curl(['-H', `authorization: ${AUTH}`, `${server.url}/artifactory/bench-local/big.bin`]).bytesPerSecond);
    peer.push(curl([`http://127.0.0.1:${nginxPort}/big.bin`]).bytesPerSecond);
  }
  const a = median(arca);
  const n = median(peer);
  console.log(`download: ${SIZE / 1024 / 1024} MiB over loopback, median of ${RUNS}`);
  console.log(`download: arca ${mb(a)} (runs ${arca.map(mb).join(', ')})`);
  console.log(`download: nginx ${mb(n)} (runs ${peer.map(mb).join(', ')})`);
  console.log(`download: ratio arca/nginx ${(a / n).toFixed(2)} (target ≥ 0.80)`);
} finally {
  nginx.kill('SIGTERM');
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
