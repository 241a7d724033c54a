/**
 * Security scanning at scale: `BENCH_VERSIONS` package versions (default 100 000 Maven POMs, one
 * version of as many artifacts) in a local repository, `BENCH_ADVISORIES` OSV advisories (default
 * 50 000, ranges in Maven's order over those artifacts, an OSV export zip) imported, and the
 * whole catalogue matched again. Prints the seconds of the import and of the matching, versions
 * per second, and how many versions came out affected.
 */
import { randomInt } from 'node:crypto';
import yazl from 'yazl';
import { AUTH, build } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 100_000);
const ADVISORIES = Number(process.env.BENCH_ADVISORIES ?? 50_000);
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
  ).json()) as { artifacts: { scan_status: string; issues: unknown[] }[] };
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
} finally {
  await server.stop();
}
