import { ALL_PROJECTS_CONTEXT, type LargestFolders, type StorageGrowth, type StorageSummary } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { BinaryStore } from '../../storage/binary-store.js';
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
export async function artifactoryStorageInfo(db: Db, store: BinaryStore) {
  const summary = await storageSummary(db);
  const figures = await store.figures();
  const total = figures.totalBytes ?? 0;
  const free = figures.freeBytes ?? 0;
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
    // an object store has no disk to fill: what it holds is the binaries' size
    fileStoreSummary:
      figures.totalBytes === undefined
        ? {
            storageType: figures.type,
            storageDirectory: figures.location,
            totalSpace: 'unlimited',
            usedSpace: artifactorySize(summary.binariesSize),
            freeSpace: 'unlimited',
          }
        : {
            storageType: 'filesystem',
            storageDirectory: figures.location,
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

/** Today's UTC day, YYYY-MM-DD. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Records today's files and bytes of every repository (a second sample the same day replaces the first). */
export async function sampleStorage(db: Db, now = Date.now()): Promise<number> {
  const day = dayOf(now);
  const usage = await usageByRepository(db);
  const rows = [...usage].map(([repo_key, u]) => ({ day, repo_key, files: u.files, size: u.size }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('storage_samples').where('day', '=', day).execute();
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('storage_samples')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  return rows.length;
}

/** Whether today has a sample already (a new node takes one at start). */
export async function sampledToday(db: Db, now = Date.now()): Promise<boolean> {
  return (
    (await db.selectFrom('storage_samples').select('day').where('day', '=', dayOf(now)).limit(1).executeTakeFirst()) !==
    undefined
  );
}

/**
 * The daily samples of the last `days` days, the deployment's or one project's repositories; the
 * last day is today, as the repositories are now.
 */
export async function storageGrowth(
  db: Db,
  days: number,
  projectKey?: string,
  now = Date.now(),
): Promise<StorageGrowth> {
  const scoped = projectKey !== undefined && projectKey !== ALL_PROJECTS_CONTEXT.key;
  const keys = scoped
    ? (await listRepositories(db)).filter((r) => r.project_key === projectKey).map((r) => r.key)
    : undefined;
  let query = db
    .selectFrom('storage_samples')
    .selectAll()
    .where('day', '>', dayOf(now - days * 86_400_000))
    .orderBy('day');
  if (keys) query = query.where('repo_key', 'in', keys.length ? keys : ['']);
  const byDay = new Map<string, StorageGrowth['days'][number]>();
  // today is what the repositories hold now, not this morning's sample
  const today = dayOf(now);
  const live = [...(await usageByRepository(db))]
    .filter(([key]) => !keys || keys.includes(key))
    .map(([repo_key, u]) => ({ day: today, repo_key, files: u.files, size: u.size }));
  const sampled = (await query.execute()).filter((row) => row.day !== today);
  for (const row of [...sampled, ...live]) {
    const entry = byDay.get(row.day) ?? { day: row.day, files: 0, size: 0, repositories: {} };
    entry.files += Number(row.files);
    entry.size += Number(row.size);
    entry.repositories[row.repo_key] = Number(row.size);
    byDay.set(row.day, entry);
  }
  return { days: [...byDay.values()] };
}

/**
 * A repository's folders holding the most bytes, everything below each counted: each file's size
 * goes to every folder above it.
 */
export async function largestFolders(db: Db, repoKey: string, limit: number): Promise<LargestFolders> {
  const totals = new Map<string, { size: number; files: number }>();
  const files = await db
    .selectFrom('items')
    .select(['path', 'size'])
    .where('repo_key', '=', repoKey)
    .where('folder', '=', 0)
    .execute();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      const entry = totals.get(folder) ?? { size: 0, files: 0 };
      entry.size += Number(file.size);
      entry.files += 1;
      totals.set(folder, entry);
    }
  }
  const folders = [...totals]
    .map(([path, t]) => ({ path, ...t }))
    .sort((a, b) => b.size - a.size || a.path.localeCompare(b.path))
    .slice(0, limit);
  return { repoKey, folders };
}
