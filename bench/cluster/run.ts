/**
 * Scale-out: 1 KiB reads and 1 MiB deploys per second through nginx with 1, 2 and 3 nodes on
 * PostgreSQL and an S3 server (s3rver), printed beside one node on SQLite and the file system
 * behind the same nginx, in one run; then a 1 GiB deploy and download on the S3 store against the
 * file store (`BENCH_LARGE_MB`, default 1024). On a 2-core machine the nodes share the cores: the
 * marks are that 3 nodes do not lose throughput against 1 (≥ 1.0×) and that the S3 store's large
 * download is ≥ 0.5× the file store's. Each node runs one process (`ARCA_WORKERS=1`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import autocannon from 'autocannon';
import { freePort, startNginx, startServer, type RunningServer } from '../../packages/web/e2e/harness.ts';
import { createPostgresDatabase } from '../../packages/server/src/test/postgres.ts';
import { S3_TEST_CREDENTIALS, startS3Server } from '../../packages/server/src/test/s3-server.ts';
import {
  AUTH,
  ROOT,
  bareFastify,
  build,
  cpuSeconds,
  createRepository,
  curl,
  installDebianPackages,
  makeFile,
  mb,
  waitedChildrenCpuSeconds,
} from '../lib/bench.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const LARGE = Number(process.env.BENCH_LARGE_MB ?? 1024) * 1024 * 1024;
const DEPLOY_BYTES = 1024 * 1024;

installDebianPackages('nginx', 'curl');
await build();
// the test PostgreSQL server of the suites (started here unless it runs)
const started = execFileSync('bash', [path.join(ROOT, 'scripts/start-test-postgres.sh')], { encoding: 'utf8' });
process.env.ARCA_TEST_DATABASE_URL = /ARCA_TEST_DATABASE_URL=(\S+)/.exec(started)![1];
Object.assign(process.env, S3_TEST_CREDENTIALS);
const s3 = await startS3Server('arca-bench');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-cluster-'));

/**
 * The database statements the nodes have run so far (Arca's `arca_db_query_duration_seconds`
 * count, every node summed): the background work of the nodes included, which over a run is a few
 * statements per second beside thousands of requests.
 */
async function statements(nodes: string[]): Promise<number> {
  let total = 0;
  for (const node of nodes) {
    const text = await (await fetch(`${node}/metrics`, { headers: { authorization: AUTH } })).text();
    for (const [, count] of text.matchAll(/^arca_db_query_duration_seconds_count\{[^}]*\} (\d+)/gm))
      total += Number(count);
  }
  return total;
}

interface Figures {
  reads: number;
  deploys: number;
  /** Database statements per read and per deploy. */
  readStatements: number;
  deployStatements: number;
  /** CPU time of every node (and its workers) per read, in µs, and per second while idle, in ms. */
  cpuPerRead: number;
  idleCpu: number;
}

/** Reads of one 1 KiB file and deploys of 1 MiB files per second, through `url`, and the statements each ran. */
async function measure(url: string, nodes: string[], pids: number[]): Promise<Figures> {
  await createRepository(url, 'bench-local');
  const put = await fetch(`${url}/artifactory/bench-local/small.bin`, {
    method: 'PUT',
    headers: { authorization: AUTH },
    body: Buffer.alloc(1024, 7),
  });
  if (put.status !== 201) throw new Error(`deploy: ${put.status}`);
  const small = `${url}/artifactory/bench-local/small.bin`;
  await autocannon({ url: small, connections: 16, duration: 2, headers: { authorization: AUTH } });
  // what the nodes spend doing nothing asked of them (heartbeats, leases, feeds), over 3 s
  const idleFrom = cpuSeconds(pids);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleCpu = ((cpuSeconds(pids) - idleFrom) / 3) * 1000;
  const beforeReads = await statements(nodes);
  const cpuBeforeReads = cpuSeconds(pids);
  const reads = await autocannon({ url: small, connections: 16, duration: SECONDS, headers: { authorization: AUTH } });
  const cpuPerRead = ((cpuSeconds(pids) - cpuBeforeReads) / reads.requests.total) * 1e6;
  if (reads.non2xx || reads.errors) throw new Error(`reads: ${reads.non2xx} non-2xx, ${reads.errors} errors`);
  const readStatements = ((await statements(nodes)) - beforeReads) / reads.requests.total;
  // deploys of distinct 1 MiB contents (no deduplication), 8 at a time
  const body = Buffer.alloc(DEPLOY_BYTES);
  let deployed = 0;
  const beforeDeploys = await statements(nodes);
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let i = 0; Date.now() < until; i++) {
        body.writeUInt32LE(worker * 1_000_000 + i, 0);
        const res = await fetch(`${url}/artifactory/bench-local/deploys/w${worker}-${i}.bin`, {
          method: 'PUT',
          headers: { authorization: AUTH },
          body: Buffer.from(body),
        });
        if (res.status !== 201) throw new Error(`deploy: ${res.status} ${await res.text()}`);
        deployed += 1;
      }
    }),
  );
  const deployStatements = ((await statements(nodes)) - beforeDeploys) / deployed;
  return {
    reads: reads.requests.average,
    deploys: deployed / SECONDS,
    readStatements,
    deployStatements,
    cpuPerRead,
    idleCpu,
  };
}

/** `count` nodes with `env`, nginx in front; measured, then stopped. */
async function cluster(count: number, env: (i: number) => Record<string, string>): Promise<Figures> {
  const nodes: RunningServer[] = [];
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  for (let i = 0; i < count; i++) {
    nodes.push(await startServer({ ARCA_PORT: String(ports[i]), ARCA_LOG_STDOUT: 'false', ...env(i) }));
  }
  const proxy = await startNginx(ports);
  try {
    return await measure(
      proxy.url,
      nodes.map((node) => node.url),
      nodes.map((node) => node.process.pid!),
    );
  } finally {
    await proxy.stop();
    for (const node of nodes) await node.stop();
  }
}

/**
 * The floor of what more processes cost on the same cores: `count` bare Fastify processes
 * answering 1 KiB behind the same nginx, their CPU µs per request — what 3 processes on 2 cores
 * cost against 1 with no cluster work at all (scheduling, smaller batches per event-loop turn).
 */
async function bareCpuPerRead(count: number): Promise<number> {
  const bare = await Promise.all(Array.from({ length: count }, () => bareFastify({ bytes: 1024 })));
  const proxy = await startNginx(bare.map((b) => b.port));
  try {
    const url = `${proxy.url}/ping`;
    await autocannon({ url, connections: 16, duration: 2 });
    const pids = bare.map((b) => b.process.pid!);
    const before = cpuSeconds(pids);
    const reads = await autocannon({ url, connections: 16, duration: SECONDS });
    if (reads.non2xx || reads.errors) throw new Error(`bare reads: ${reads.non2xx} non-2xx, ${reads.errors} errors`);
    return ((cpuSeconds(pids) - before) / reads.requests.total) * 1e6;
  } finally {
    await proxy.stop();
    for (const b of bare) b.stop();
  }
}

const results: ({ name: string } & Figures)[] = [];
const bareCpu: Record<number, number> = {};
try {
  for (const count of [1, 3]) bareCpu[count] = await bareCpuPerRead(count);
  results.push({ name: '1 node, SQLite + file system', ...(await cluster(1, () => ({}))) });
  for (const count of [1, 2, 3]) {
    const database = await createPostgresDatabase();
    const prefix = `run-${count}`;
    try {
      const figures = await cluster(count, (i) => ({
        ...s3.env,
        ARCA_S3_PREFIX: prefix,
        ARCA_DATABASE_URL: database.url,
        ARCA_NODE_ID: `bench-${count}-${i + 1}`,
      }));
      results.push({ name: `${count} node${count > 1 ? 's' : ''}, PostgreSQL + S3`, ...figures });
    } finally {
      await database.drop();
    }
  }

  // one large file: deployed and downloaded with curl, on each store (one node, SQLite); on S3
  // also with the local read cache (its second download), and the S3 server's own answer of the
  // same object (a presigned GET): the floor of any store in front of that server
  const file = path.join(work, 'large.bin');
  makeFile(file, LARGE);
  const digest = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) digest.update(chunk as Buffer);
  const sha256 = digest.digest('hex');
  const large: Record<string, { deploy: number; download: number }> = {};
  /** CPU seconds of each process while a large file is downloaded, and the download's wall time. */
  const downloadCpu: Record<string, { s3: number; arca: number; curl: number; wall: number }> = {};
  const timedDownload = (label: string, url: string, arcaPid?: number, headers: string[] = []) => {
    const pids = { s3: cpuSeconds([s3.process.pid!]), arca: arcaPid ? cpuSeconds([arcaPid]) : 0 };
    const curlFrom = waitedChildrenCpuSeconds();
    const down = curl([...headers, url]);
    downloadCpu[label] = {
      s3: cpuSeconds([s3.process.pid!]) - pids.s3,
      arca: arcaPid ? cpuSeconds([arcaPid]) - pids.arca : 0,
      curl: waitedChildrenCpuSeconds() - curlFrom,
      wall: down.seconds,
    };
    return down;
  };
  for (const [store, env] of [
    ['file system', {}],
    ['S3', { ...s3.env, ARCA_S3_PREFIX: 'large' }],
    ['S3 + cache', { ...s3.env, ARCA_S3_PREFIX: 'large', ARCA_STORE_CACHE_DIR: path.join(work, 'read-cache') }],
  ] as const) {
    const server = await startServer({ ARCA_LOG_STDOUT: 'false', ...env });
    try {
      await createRepository(server.url, 'bench-local');
      const up = curl(['-H', `authorization: ${AUTH}`, '-T', file, `${server.url}/artifactory/bench-local/large.bin`]);
      if (up.status !== 201) throw new Error(`large deploy: ${up.status}`);
      const download = () =>
        timedDownload(store, `${server.url}/artifactory/bench-local/large.bin`, server.process.pid!, [
          '-H',
          `authorization: ${AUTH}`,
        ]);
      let down = download();
      // with the read cache, the first download fills it and the second is served from it
      if (store === 'S3 + cache') down = download();
      if (down.status !== 200) throw new Error(`large download: ${down.status}`);
      large[store] = { deploy: up.bytesPerSecond, download: down.bytesPerSecond };
    } finally {
      await server.stop();
    }
  }
  const client = new S3Client({
    endpoint: s3.env.ARCA_S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: S3_TEST_CREDENTIALS.AWS_ACCESS_KEY_ID,
      secretAccessKey: S3_TEST_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
    },
  });
  const object = `large/sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  const presigned = await getSignedUrl(client, new GetObjectCommand({ Bucket: s3.env.ARCA_S3_BUCKET, Key: object }), {
    expiresIn: 600,
  });
  const direct = timedDownload('S3 server', presigned);
  if (direct.status !== 200) throw new Error(`the S3 server's own download: ${direct.status}`);
  client.destroy();

  console.log(`\ncluster: through nginx, ${SECONDS} s each, one process per node, ${os.availableParallelism()} cores`);
  console.log(
    `  ${'setup'.padEnd(30)} ${'1 KiB reads/s'.padStart(14)} ${'1 MiB deploys/s'.padStart(16)} ${'statements/read'.padStart(16)} ${'statements/deploy'.padStart(18)} ${'CPU µs/read'.padStart(12)} ${'idle CPU ms/s'.padStart(14)}`,
  );
  for (const r of results) {
    console.log(
      `  ${r.name.padEnd(30)} ${r.reads.toFixed(0).padStart(14)} ${r.deploys.toFixed(1).padStart(16)} ${r.readStatements.toFixed(2).padStart(16)} ${r.deployStatements.toFixed(1).padStart(18)} ${r.cpuPerRead.toFixed(0).padStart(12)} ${r.idleCpu.toFixed(1).padStart(14)}`,
    );
  }
  const one = results[1]!;
  const three = results[3]!;
  console.log(
    `  3 nodes / 1 node on PostgreSQL + S3: reads ${(three.reads / one.reads).toFixed(2)}×, deploys ${(three.deploys / one.deploys).toFixed(2)}× (mark ≥ 1.0×); CPU per read ${(three.cpuPerRead / one.cpuPerRead).toFixed(2)}× (target ≤ 1.2×)`,
  );
  const bareRatio = bareCpu[3]! / bareCpu[1]!;
  console.log(
    `  bare Fastify, 1 KiB answers, same nginx: CPU µs/request ${bareCpu[1]!.toFixed(0)} with 1 process, ${bareCpu[3]!.toFixed(0)} with 3 (${bareRatio.toFixed(2)}×: what 3 processes on these cores cost by themselves); Arca's 3/1 beyond it ${(three.cpuPerRead / one.cpuPerRead / bareRatio).toFixed(2)}×`,
  );
  console.log(`\nlarge file (${LARGE / 1024 / 1024} MiB), one node:`);
  for (const [store, figures] of Object.entries(large)) {
    console.log(
      `  ${store.padEnd(12)} deploy ${mb(figures.deploy).padStart(10)}  download ${mb(figures.download).padStart(10)}${store === 'S3 + cache' ? '  (second download, from the read cache)' : ''}`,
    );
  }
  console.log(
    `  ${'S3 server'.padEnd(12)} ${''.padStart(17)}  download ${mb(direct.bytesPerSecond).padStart(10)}  (the object itself, presigned GET: the floor)`,
  );
  console.log(`  CPU seconds while downloading (${os.availableParallelism()} cores × wall time available):`);
  for (const [label, cpu] of Object.entries(downloadCpu))
    console.log(
      `    ${label.padEnd(12)} S3 server ${cpu.s3.toFixed(2).padStart(5)}  Arca ${cpu.arca.toFixed(2).padStart(5)}  curl ${cpu.curl.toFixed(2).padStart(5)}  sum ${(cpu.s3 + cpu.arca + cpu.curl).toFixed(2).padStart(5)} of ${(cpu.wall * os.availableParallelism()).toFixed(2).padStart(5)}  (wall ${cpu.wall.toFixed(2)} s)`,
    );
  const fileDownload = large['file system']!.download;
  console.log(
    `  S3 / file system: download ${(large.S3!.download / fileDownload).toFixed(2)}× (mark ≥ 0.5×), deploy ${(large.S3!.deploy / large['file system']!.deploy).toFixed(2)}×; with the read cache ${(large['S3 + cache']!.download / fileDownload).toFixed(2)}×; S3 store / S3 server ${(large.S3!.download / direct.bytesPerSecond).toFixed(2)}×`,
  );
} finally {
  await s3.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
