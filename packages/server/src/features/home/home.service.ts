import { sql } from 'kysely';
import { BUILD_INFO_REPO, HOME_ACTIVITY_DAYS, type HomeWidgetInfo } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { isAllowed } from '../../core/permissions.js';
import type { Principal } from '../../core/principals.js';
import { usageByRepository } from '../repositories/index.js';
import { canSee, readableRepositories } from '../search/index.js';

const DAY_MS = 86_400_000;
/** Entries of each list. */
const LISTED = 8;
/** Rows read for a list when the caller's rights stop at paths (filtered here). */
const CANDIDATES = 200;

/** Files in the repositories a caller may read (whole ones counted from the usage figures). */
export async function artifactCount(db: Db, principal: Principal): Promise<number> {
  const readable = await readableRepositories(db, principal, { trash: false });
  const usage = await usageByRepository(db);
  let count = 0;
  for (const key of readable.whole) count += usage.get(key)?.files ?? 0;
  for (const [key, filter] of readable.partial) {
    const rows = await db
      .selectFrom('items')
      .select(['path'])
      .where('repo_key', '=', key)
      .where('folder', '=', 0)
      .execute();
    count += rows.filter((r) => filter(r.path, false)).length;
  }
  return count;
}

/** The dashboard of what a caller may read (see `homeWidgetInfoSchema`). */
export async function homeInfo(db: Db, principal: Principal, now = Date.now()): Promise<HomeWidgetInfo> {
  const readable = await readableRepositories(db, principal, { trash: false });
  const repos = [...readable.whole, ...readable.partial.keys()];
  const usage = await usageByRepository(db);
  let artifactsSize = 0;
  for (const key of readable.whole) artifactsSize += usage.get(key)?.size ?? 0;

  const today = Math.floor(now / DAY_MS);
  const since = (today - HOME_ACTIVITY_DAYS + 1) * DAY_MS;
  const files = () =>
    db
      .selectFrom('items')
      .where('repo_key', 'in', repos.length ? repos : [''])
      .where('folder', '=', 0);
  const visible = <T extends { repo_key: string; path: string }>(rows: T[]) =>
    rows.filter((r) => canSee(readable, r.repo_key, r.path)).slice(0, LISTED);

  // a literal: SQLite would divide by a bound number as a real one
  const day = sql<number>`created_at / ${sql.lit(DAY_MS)}`;
  const [perDay, recent, downloaded, builds] = await Promise.all([
    readable.partial.size
      ? files()
          .select(['repo_key', 'path', 'created_at', 'size'])
          .where('created_at', '>=', since)
          .execute()
          .then((rows) => {
            const sums = new Map<number, { files: number; bytes: number }>();
            for (const r of rows.filter((r) => canSee(readable, r.repo_key, r.path))) {
              const d = Math.floor(Number(r.created_at) / DAY_MS);
              const sum = sums.get(d) ?? { files: 0, bytes: 0 };
              sums.set(d, { files: sum.files + 1, bytes: sum.bytes + Number(r.size) });
            }
            return [...sums].map(([d, s]) => ({ day: d, files: s.files, bytes: s.bytes }));
          })
      : files()
          .select((eb) => [
            day.as('day'),
            eb.fn.countAll<number | string>().as('files'),
            eb.fn.sum<number | string | null>('size').as('bytes'),
          ])
          .where('created_at', '>=', since)
          .groupBy(day)
          .execute(),
    files()
      .select(['repo_key', 'path', 'name', 'size', 'created_at', 'created_by'])
      .orderBy('created_at', 'desc')
      .limit(readable.partial.size ? CANDIDATES : LISTED)
      .execute(),
    files()
      .select(['repo_key', 'path', 'name', 'size', 'download_count'])
      .where('download_count', '>', 0)
      .orderBy('download_count', 'desc')
      .orderBy('name')
      .limit(readable.partial.size ? CANDIDATES : LISTED)
      .execute(),
    db
      .selectFrom('builds')
      .select(['name', 'number', 'started'])
      .orderBy('started_at', 'desc')
      .limit(CANDIDATES)
      .execute(),
  ]);

  const byDay = new Map(perDay.map((r) => [Number(r.day), r]));
  const deploymentsByDay = Array.from({ length: HOME_ACTIVITY_DAYS }, (_, i) => {
    const d = today - HOME_ACTIVITY_DAYS + 1 + i;
    const found = byDay.get(d);
    return {
      day: new Date(d * DAY_MS).toISOString().slice(0, 10),
      files: Number(found?.files ?? 0),
      bytes: Number(found?.bytes ?? 0),
    };
  });
  const latestBuilds = [];
  const mayRead = new Map<string, boolean>();
  for (const build of builds) {
    if (latestBuilds.length >= LISTED) break;
    if (!mayRead.has(build.name)) {
      const path = `${encodeURIComponent(build.name)}/x`;
      mayRead.set(build.name, await isAllowed(db, principal, 'read', BUILD_INFO_REPO, path));
    }
    if (mayRead.get(build.name)) latestBuilds.push(build);
  }
  return {
    artifactCount: await artifactCount(db, principal),
    artifactsSize,
    repositoryCount: repos.length,
    deploymentsByDay,
    recentDeployments: visible(recent).map((r) => ({
      repoKey: r.repo_key,
      path: r.path,
      name: r.name,
      size: Number(r.size),
      createdAt: new Date(Number(r.created_at)).toISOString(),
      createdBy: r.created_by,
    })),
    mostDownloaded: visible(downloaded).map((r) => ({
      repoKey: r.repo_key,
      path: r.path,
      name: r.name,
      size: Number(r.size),
      downloads: Number(r.download_count),
    })),
    latestBuilds,
  };
}
