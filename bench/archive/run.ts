/**
 * Archive and restore throughput: `BENCH_SMALL` (default 100 000) artifacts of 1 KiB and
 * `BENCH_LARGE` (default 100) of `BENCH_LARGE_MB` (default 10) MiB, all archived by one retention
 * policy (skipping the trash can) and all restored to where they were, in items/s and MB/s,
 * beside `cp -r` of the same contents from the hot store's folder to another (the floor: the
 * bytes alone, no database, no checks) and beside the same copy made durable the way a store that
 * survives a crash must write (each file written to a temporary name, fsynced, renamed into
 * place and its folder fsynced, 16 at once: the floor of any crash-safe archive on this disk).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, build, createRepository, loadSmallAndLarge } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const SMALL = Number(process.env.BENCH_SMALL ?? 100_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 100);
const LARGE_MB = Number(process.env.BENCH_LARGE_MB ?? 10);
/** Items a restore call names at once (the body stays far below the 1 MiB limit). */
const RESTORE_CALL = 5000;

interface Execution {
  migrationIdentifier: string;
  state: string;
  total: number;
  done: number;
  failed: number;
  startedAt: number;
  endedAt: number | null;
}

/**
 * Copies every file under `from` to the same place under `to` as a crash-safe store writes one:
 * to a temporary name, fsynced, renamed, the folder fsynced; 16 files at once. Answers seconds.
 */
async function durableCopy(from: string, to: string): Promise<number> {
  const files = (fs.readdirSync(from, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(from, f)).isFile(),
  );
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < files.length) {
        const file = files[next++]!;
        const target = path.join(to, file);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const temporary = `${target}.tmp`;
        const handle = await fs.promises.open(temporary, 'w');
        await handle.writeFile(await fs.promises.readFile(path.join(from, file)));
        await handle.sync();
        await handle.close();
        await fs.promises.rename(temporary, target);
        const folder = await fs.promises.open(path.dirname(target), 'r');
        await folder.sync();
        await folder.close();
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-archive-'));
const dataDir = path.join(work, 'data');
const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

await build(true);
const server = await startServer(
  { ARCA_LOG_STDOUT: 'false', ARCA_WORKERS: '2', ARCA_ARCHIVE_RELEASE_GRACE_SECONDS: '0' },
  { dataDir },
);
const api = (method: string, url: string, body?: unknown) =>
  fetch(`${server.url}/ui/api/v1${url}`, { method, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });

async function until(kind: 'archive' | 'restore', id: string): Promise<Execution> {
  for (;;) {
    const res = await api('GET', `/ui/retention/${kind}/executions?from=0&to=${Date.now() + 60_000}`);
    const run = ((await res.json()) as { executions: Execution[] }).executions.find(
      (e) => e.migrationIdentifier === id,
    );
    if (run?.endedAt) return run;
    await new Promise((r) => setTimeout(r, 200));
  }
}

try {
  await createRepository(server.url, 'bench-local');
  const jobs = await loadSmallAndLarge(server.url, 'bench-local', { small: SMALL, large: LARGE, largeMb: LARGE_MB });
  const bytes = jobs.reduce((sum, j) => sum + j.bytes, 0);
  const mb = bytes / 1e6;

  // the floor: the same contents copied from the hot store's folder to another
  const copyStarted = performance.now();
  execFileSync('cp', ['-r', path.join(dataDir, 'filestore'), path.join(work, 'copy')]);
  const copySeconds = (performance.now() - copyStarted) / 1000;
  const durableSeconds = await durableCopy(path.join(dataDir, 'filestore'), path.join(work, 'durable'));

  const policy = {
    key: 'bench',
    cronExp: '0 0 3 1 1 ?',
    skipTrashcan: true,
    searchCriteriaForm: { include: { repositories: ['bench-local'], names: ['*.bin'] } },
  };
  if ((await api('POST', '/ui/retention/archive/policies', policy)).status !== 201) throw new Error('policy');
  const triggered = (await (await api('POST', '/ui/retention/archive/policies/bench/trigger')).json()) as Execution;
  const archived = await until('archive', triggered.migrationIdentifier);
  if (archived.done !== jobs.length)
    throw new Error(`archived ${archived.done} of ${jobs.length}: ${JSON.stringify(archived)}`);
  const archiveSeconds = (archived.endedAt! - archived.startedAt) / 1000;

  let restoreSeconds = 0;
  let restored = 0;
  for (let i = 0; i < jobs.length; i += RESTORE_CALL) {
    const res = await api('POST', '/ui/retention/restore', {
      restoreToOriginal: true,
      itemsToRestore: jobs.slice(i, i + RESTORE_CALL).map((j) => ({ repoKey: 'bench-local', path: j.path })),
    });
    if (res.status !== 202) throw new Error(`restore: ${res.status} ${await res.text()}`);
    const run = await until('restore', ((await res.json()) as Execution).migrationIdentifier);
    restored += run.done;
    restoreSeconds += (run.endedAt! - run.startedAt) / 1000;
  }
  if (restored !== jobs.length) throw new Error(`restored ${restored} of ${jobs.length}`);

  console.log(`\narchive: ${SMALL} artifacts of 1 KiB and ${LARGE} of ${LARGE_MB} MiB, ${mb.toFixed(0)} MB`);
  const line = (name: string, seconds: number) =>
    console.log(
      `  ${name.padEnd(30)} ${seconds.toFixed(1).padStart(7)} s  ${(jobs.length / seconds).toFixed(0).padStart(7)} items/s  ${(mb / seconds).toFixed(1).padStart(7)} MB/s`,
    );
  line('cp -r hot store (the floor)', copySeconds);
  line('durable copy (fsync per file)', durableSeconds);
  line('archive (policy run)', archiveSeconds);
  line('restore (to the original place)', restoreSeconds);
  console.log(
    `  archive/cp ${(archiveSeconds / copySeconds).toFixed(2)}×, restore/cp ${(restoreSeconds / copySeconds).toFixed(2)}×; archive/durable copy ${(archiveSeconds / durableSeconds).toFixed(2)}×, restore/durable copy ${(restoreSeconds / durableSeconds).toFixed(2)}×`,
  );
} finally {
  await server.stop().catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
}
