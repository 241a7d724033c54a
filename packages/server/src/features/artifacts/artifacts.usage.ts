import fsp from 'node:fs/promises';
import { ALL_PROJECTS_CONTEXT, type StorageSummary } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { listRepositories, usageByRepository } from '../repositories/index.js';
import { repoKind } from './artifacts.browse.js';
import { TRASHCAN_ROW } from './artifacts.items.js';

/**
 * Binaries, artifacts and each repository's files, folders and space — the deployment's, or one
 * project's (its repositories, and the binaries their files use, each counted once).
 */
export async function storageSummary(db: Db, projectKey?: string): Promise<StorageSummary> {
  const scoped = projectKey !== undefined && projectKey !== ALL_PROJECTS_CONTEXT.key;
  const repos = (await listRepositories(db)).filter((r) => !scoped || r.project_key === projectKey);
  const keys = repos.map((r) => r.key);
  let binariesQuery = db
    .selectFrom('binaries')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('size').as('size')])
    .where('ref_count', '>', 0);
  if (scoped) {
    binariesQuery = binariesQuery.where('sha256', 'in', (eb) =>
      eb
        .selectFrom('items')
        .select('sha256')
        .where('repo_key', 'in', keys.length ? keys : [''])
        .where('folder', '=', 0),
    );
  }
  const [allUsage, binaries] = await Promise.all([usageByRepository(db), binariesQuery.executeTakeFirstOrThrow()]);
  const usage = scoped ? new Map([...allUsage].filter(([key]) => keys.includes(key))) : allUsage;
  let artifactsCount = 0;
  let artifactsSize = 0;
  let itemsCount = 0;
  for (const entry of usage.values()) {
    artifactsCount += entry.files;
    artifactsSize += entry.size;
    itemsCount += entry.files + entry.folders;
  }
  const binariesSize = Number(binaries.size ?? 0);
  const rows = [...repos, ...(scoped ? [] : [TRASHCAN_ROW])].map((repo) => {
    const u = usage.get(repo.key) ?? { files: 0, folders: 0, size: 0 };
    return {
      repoKey: repo.key,
      repoType: repoKind(repo),
      packageType: repo.package_type,
      filesCount: u.files,
      foldersCount: u.folders,
      usedSpace: u.size,
      percentage: artifactsSize ? Math.round((u.size / artifactsSize) * 10_000) / 100 : 0,
    };
  });
  return {
    binariesCount: Number(binaries.n),
    binariesSize,
    artifactsCount,
    artifactsSize,
    optimization: artifactsSize ? Math.round((1 - binariesSize / artifactsSize) * 10_000) / 100 : 0,
    itemsCount,
    repositories: rows,
  };
}

/** Sizes as Artifactory writes them: `0 bytes`, `512 bytes`, `3.48 KB`, `59.77 GB`. */
export function artifactorySize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${units[unit]}`;
}

const count = (n: number) => n.toLocaleString('en-US');
const percent = (part: number, whole: number) => `${whole ? ((part / whole) * 100).toFixed(2) : '0.00'}%`;

/**
 * `GET /api/storageinfo` in Artifactory's shape (numbers written as it writes them, for the
 * disk-usage tools that read them): binaries, the file store's disk, and each repository with a
 * `TOTAL` row.
 */
export async function artifactoryStorageInfo(db: Db, filestoreDir: string) {
  const summary = await storageSummary(db);
  const disk = await fsp.statfs(filestoreDir).catch(() => undefined);
  const total = disk ? disk.blocks * disk.bsize : 0;
  const free = disk ? disk.bavail * disk.bsize : 0;
  const used = total - free;
  const kind: Record<string, string> = { local: 'LOCAL', remote: 'CACHE', virtual: 'VIRTUAL', trashcan: 'TRASH' };
  const repositories = summary.repositories.map((r) => ({
    repoKey: r.repoKey,
    repoType: kind[r.repoType] ?? r.repoType.toUpperCase(),
    foldersCount: r.foldersCount,
    filesCount: r.filesCount,
    usedSpace: artifactorySize(r.usedSpace),
    usedSpaceInBytes: r.usedSpace,
    itemsCount: r.filesCount + r.foldersCount,
    packageType: r.packageType,
    percentage: `${r.percentage}%`,
  }));
  const totals = summary.repositories.reduce(
    (t, r) => ({ files: t.files + r.filesCount, folders: t.folders + r.foldersCount, size: t.size + r.usedSpace }),
    { files: 0, folders: 0, size: 0 },
  );
  return {
    binariesSummary: {
      binariesCount: count(summary.binariesCount),
      binariesSize: artifactorySize(summary.binariesSize),
      artifactsSize: artifactorySize(summary.artifactsSize),
      optimization: `${summary.optimization.toFixed(2)}%`,
      itemsCount: count(summary.itemsCount),
      artifactsCount: count(summary.artifactsCount),
    },
    fileStoreSummary: {
      storageType: 'filesystem',
      storageDirectory: filestoreDir,
      totalSpace: artifactorySize(total),
      usedSpace: `${artifactorySize(used)} (${percent(used, total)})`,
      freeSpace: `${artifactorySize(free)} (${percent(free, total)})`,
    },
    repositoriesSummaryList: [
      ...repositories,
      {
        repoKey: 'TOTAL',
        repoType: 'NA',
        foldersCount: totals.folders,
        filesCount: totals.files,
        usedSpace: artifactorySize(totals.size),
        usedSpaceInBytes: totals.size,
        itemsCount: totals.files + totals.folders,
      },
    ],
  };
}
