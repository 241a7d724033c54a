/**
 * Backup and restore of a deployment holding many small artifacts and some large ones
 * (`BENCH_SMALL`, default 100 000 of 1 KiB; `BENCH_LARGE`, default 100 of `BENCH_LARGE_MB`, default
 * 10 MiB): `arca backup` while the server runs, then `arca restore` onto an empty data directory,
 * each timed and in MB/s, printed beside a plain `cp -r` of the same data directory (the floor).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, build, createRepository, loadSmallAndLarge } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const SMALL = Number(process.env.BENCH_SMALL ?? 100_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 100);
const LARGE_MB = Number(process.env.BENCH_LARGE_MB ?? 10);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-backup-'));
const dataDir = path.join(work, 'data');
const cli = path.join(ROOT, 'packages/server/dist/cli.js');

function duSize(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function timed(command: string, args: string[], env: Record<string, string> = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  return (performance.now() - started) / 1000;
}

await build();
const server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_WORKERS: '2' }, { dataDir });
try {
  await createRepository(server.url, 'bench-local');
  await loadSmallAndLarge(server.url, 'bench-local', { small: SMALL, large: LARGE, largeMb: LARGE_MB });
  const bytes = duSize(dataDir);
  const mb = bytes / 1e6;

  // the backup is made while the server runs
  const backupDir = path.join(work, 'backup');
  const backupSeconds = timed(process.execPath, [cli, 'backup', '--to', backupDir], { ARCA_DATA_DIR: dataDir });
  const again = timed(process.execPath, [cli, 'backup', '--to', backupDir], { ARCA_DATA_DIR: dataDir });
  await server.stop();
  const copySeconds = timed('cp', ['-r', dataDir, path.join(work, 'copy')]);
  const restoreSeconds = timed(process.execPath, [cli, 'restore', '--from', backupDir], {
    ARCA_DATA_DIR: path.join(work, 'restored'),
  });

  console.log(
    `\nbackup: ${SMALL} artifacts of 1 KiB and ${LARGE} of ${LARGE_MB} MiB, data directory ${mb.toFixed(0)} MB`,
  );
  const line = (name: string, seconds: number) =>
    console.log(
      `  ${name.padEnd(22)} ${seconds.toFixed(1).padStart(7)} s  ${(mb / seconds).toFixed(1).padStart(7)} MB/s`,
    );
  line('cp -r (the floor)', copySeconds);
  line('arca backup', backupSeconds);
  line('arca backup again', again);
  line('arca restore', restoreSeconds);
  console.log(
    `  backup/cp ${(backupSeconds / copySeconds).toFixed(2)}×, restore/cp ${(restoreSeconds / copySeconds).toFixed(2)}×, an incremental backup ${(again / backupSeconds).toFixed(2)}× a full one`,
  );
} finally {
  await server.stop().catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
}
