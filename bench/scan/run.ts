/**
 * Security scanning at scale: `BENCH_VERSIONS` package versions (default 100 000 Maven POMs, one
 * version of as many artifacts) in a local repository, `BENCH_ADVISORIES` OSV advisories (default
 * 50 000, ranges in Maven's order over those artifacts, an OSV export zip) imported, and the
 * whole catalogue matched again. Prints the seconds of the import and of the matching, versions
 * per second, and how many versions came out affected.
 * Then the cost of blocking in the download path: a POM no advisory affects downloaded under
 * autocannon (16 connections, `BENCH_SECONDS` each, `BENCH_ROUNDS` rounds taking turns) with a watch that
 * applies a blocking policy to the repository paused and active. Target: ≤ 5 % added latency.
 * Also how long the map of blocked downloads takes to read after a change, and the slowest answer
 * to a ping meanwhile (the map is read in pages, so other requests do not wait for all of it).
 */
import { randomInt } from 'node:crypto';
import autocannon from 'autocannon';
import yazl from 'yazl';
import { AUTH, build, median } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 100_000);
const ADVISORIES = Number(process.env.BENCH_ADVISORIES ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONSOLE = { authorization: AUTH, 'x-requested-with': 'XMLHttpRequest' };

const artifact = (i: number) => ({ group: `org.bench.g${i % 1000}`, id: `a${i}`, version: `1.${i % 10}` });

function osvZip(records: object[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const record of records)
    zip.addBuffer(Buffer.from(JSON.stringify(record)), `Maven/${(record as { id: string }).id}.json`);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (const started = Date.now(); Date.now() - started < 3_600_000;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: gave up after an hour`);
}

await build();
const server = await startServer({ ARCA_LOG_STDOUT: 'false' });
try {
  const created = await fetch(`${server.url}/artifactory/api/repositories/maven-bench`, {
    method: 'PUT',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'maven' }),
  });
  if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
  let next = 0;
  const loading = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < VERSIONS; i = next++) {
        const { group, id, version } = artifact(i);
        const pom = `<project><modelVersion>4.0.0</modelVersion><groupId>${group}</groupId><artifactId>${id}</artifactId><version>${version}</version></project>`;
        const res = await fetch(
          `${server.url}/artifactory/maven-bench/${group.replaceAll('.', '/')}/${id}/${version}/${id}-${version}.pom`,
          { method: 'PUT', headers: { authorization: AUTH }, body: pom },
        );
        if (res.status !== 201) throw new Error(`deploy ${id}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  const catalogued = await until('the catalogue', async () => {
    const res = await fetch(`${server.url}/ui/api/v1/system/outbox`, { headers: CONSOLE });
    const { consumers } = (await res.json()) as { consumers: { name: string; pending: number }[] };
    return consumers.find((c) => c.name === 'catalogue')?.pending === 0 ? performance.now() : undefined;
  });
  console.log(`  ${VERSIONS} versions deployed and catalogued in ${((catalogued - loading) / 1000).toFixed(0)} s`);

  // advisories over the artifacts: each names one, affected from 1.0 to a fixed version
  const records = Array.from({ length: ADVISORIES }, (_, j) => {
    const { group, id } = artifact(j % VERSIONS);
    return {
      id: `BENCH-${j}`,
      modified: '2026-11-01T00:00:00Z',
      summary: `advisory ${j}`,
      affected: [
        {
          package: { ecosystem: 'Maven', name: `${group}:${id}` },
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: `1.${randomInt(1, 10)}` }] }],
        },
      ],
      database_specific: { severity: ['CRITICAL', 'HIGH', 'MODERATE', 'LOW'][j % 4] },
    };
  });
  const zip = await osvZip(records);
  const importing = performance.now();
  const imported = await fetch(`${server.url}/xray/api/v1/advisories/import?name=bench.zip`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  if (!imported.ok) throw new Error(`import: ${imported.status} ${await imported.text()}`);
  const importSeconds = (performance.now() - importing) / 1000;
  // the import starts the matching of the whole catalogue
  const run = await until('the matching', async () => {
    const res = await fetch(`${server.url}/ui/api/v1/system/jobs?job=advisory-matching&limit=1`, { headers: CONSOLE });
    const { runs } = (await res.json()) as {
      runs: { startedAt: number; endedAt: number | null; outcome: string; message: string | null }[];
    };
    const last = runs[0];
    if (last?.outcome === 'failure') throw new Error(`matching failed: ${last.message}`);
    return last?.outcome === 'success' && last.endedAt ? last : undefined;
  });
  const matchSeconds = (run.endedAt! - run.startedAt) / 1000;
  // what came out: the summary of a sample of versions
  const sample = Array.from({ length: 200 }, (_, i) => {
    const { group, id, version } = artifact(Math.floor((i * VERSIONS) / 200));
    return `maven-bench/${group.replaceAll('.', '/')}/${id}/${version}/${id}-${version}.pom`;
  });
  const summary = (await (
    await fetch(`${server.url}/xray/api/v1/summary/artifact`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: sample }),
    })
  ).json()) as { artifacts: { general: { path: string }; scan_status: string; issues: unknown[] }[] };
  const affected = summary.artifacts.filter((a) => a.issues.length).length;
  const scanned = summary.artifacts.filter((a) => a.scan_status === 'scanned').length;

  console.log(
    `\nscan: ${VERSIONS} package versions (Maven), ${ADVISORIES} OSV advisories (${(zip.length / 1e6).toFixed(1)} MB zip)`,
  );
  console.log(`  import of the advisories        ${importSeconds.toFixed(1).padStart(7)} s`);
  console.log(
    `  matching the whole catalogue    ${matchSeconds.toFixed(1).padStart(7)} s  ${(VERSIONS / matchSeconds).toFixed(0).padStart(7)} versions/s`,
  );
  console.log(`  a sample of 200 versions: ${scanned} scanned, ${affected} affected`);

  // blocking in the download path: a watch applying a policy that blocks every severity, paused or active
  const rest = async (method: string, url: string, body: unknown) => {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  };
  await rest('POST', '/xray/api/v2/policies', {
    name: 'bench-block',
    type: 'security',
    rules: [
      { name: 'all', criteria: { min_severity: 'All Severities' }, actions: { block_download: { active: true } } },
    ],
  });
  const watch = (active: boolean) => ({
    general_data: { name: 'bench-watch', active },
    project_resources: { resources: [{ type: 'repository', name: 'maven-bench' }] },
    assigned_policies: [{ name: 'bench-block', type: 'security' }],
  });
  await rest('POST', '/xray/api/v2/watches', watch(false));
  const clean = summary.artifacts.find((a) => a.scan_status === 'scanned' && !a.issues.length)!.general.path;
  const url = `${server.url}/artifactory/${clean.replace(/^default\//, '')}`;
  const blockedPath = summary.artifacts.find((a) => a.issues.length)?.general.path.replace(/^default\//, '');
  const downloads = async () => {
    const result = await autocannon({ url, connections: 16, duration: SECONDS, headers: { authorization: AUTH } });
    if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { rps: result.requests.average, latency: result.latency.average };
  };
  const runs: Record<'paused' | 'active', { rps: number; latency: number }[]> = { paused: [], active: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const state of ['paused', 'active'] as const) {
      await rest('PUT', '/xray/api/v2/watches/bench-watch', watch(state === 'active'));
      // the first download after the change reads what the watch blocks (paid once per change);
      // meanwhile other requests are answered: the slowest ping during the read shows how long they waited
      const first = performance.now();
      let reading = true;
      let slowestPing = 0;
      const pings = (async () => {
        while (reading) {
          const sent = performance.now();
          await (await fetch(`${server.url}/artifactory/api/system/ping`)).text();
          slowestPing = Math.max(slowestPing, performance.now() - sent);
        }
      })();
      const blocked =
        blockedPath && (await fetch(`${server.url}/artifactory/${blockedPath}`, { headers: { authorization: AUTH } }));
      reading = false;
      await pings;
      if (blocked && blocked.status !== (state === 'active' ? 403 : 200))
        throw new Error(`${blockedPath}: ${blocked.status} with the watch ${state}`);
      if (round === 0 && state === 'active')
        console.log(
          `  what the watch blocks read in ${(performance.now() - first).toFixed(0)} ms (once per change of policies, watches or ignore rules); slowest ping meanwhile ${slowestPing.toFixed(0)} ms`,
        );
      runs[state].push(await downloads());
    }
  }
  const latency = (state: 'paused' | 'active') => median(runs[state].map((r) => r.latency));
  const rps = (state: 'paused' | 'active') => median(runs[state].map((r) => r.rps));
  console.log(`  download of a clean POM, autocannon 16 connections, ${SECONDS} s, median of ${ROUNDS} (alternating):`);
  console.log(
    `    watch paused   ${rps('paused').toFixed(0).padStart(6)} req/s  mean latency ${latency('paused').toFixed(2)} ms`,
  );
  console.log(
    `    watch active   ${rps('active').toFixed(0).padStart(6)} req/s  mean latency ${latency('active').toFixed(2)} ms`,
  );
  console.log(
    `    added latency ${(((latency('active') - latency('paused')) / latency('paused')) * 100).toFixed(1)} % (target ≤ 5 %)`,
  );
} finally {
  await server.stop();
}
