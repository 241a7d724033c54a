import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { replaceRun, runOf, runsOf, promotionsOf } from './builds.store.js';
import { BUILD_INFO_REPO, type BuildDiff, type BuildFile, type PublishedBuildInfo } from '@arca/contracts';
import { recordChange } from '../../core/changes.js';
import { ensureSystemRepository } from '../repositories/index.js';
import { getProjectRow } from '../projects/index.js';
import { badRequest, notFound } from '../../core/errors.js';
import { actorName } from '../../core/principals.js';
import { isAllowed } from '../../core/permissions.js';
import type { Db } from '../../db/database.js';
import type { BuildsTable } from '../../db/schema.js';
import { repoContent, type RepoContent, TRASHCAN_ROW } from '../artifacts/index.js';

/** A build-info document as JFrog's CLI and CI plug-ins send it (the fields Arca reads; the rest is kept as sent). */
export type BuildInfo = PublishedBuildInfo & { number: string };

/** `2026-11-23T10:00:00.000+0000` (Java's form, no colon in the offset) or ISO 8601 → ms. */
export function startedMillis(started: string): number {
  const ms = Date.parse(started.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  if (!Number.isFinite(ms)) throw badRequest(`'started' is no date: ${started}`);
  return ms;
}

/** Where a build run's document lives in the build-info repository. */
export const buildPath = (name: string, number: string, startedAt: number) =>
  `${encodeURIComponent(name)}/${encodeURIComponent(number)}-${startedAt}.json`;

/** Whether the caller may do `action` on a build (the build resources of permission targets). */
export function mayOnBuild(
  request: FastifyRequest,
  action: 'read' | 'annotate' | 'deploy' | 'delete' | 'manage',
  name: string,
) {
  return isAllowed(request.server.db, request.principal, action, BUILD_INFO_REPO, `${encodeURIComponent(name)}/x`);
}

/**
 * Stores a build-info document (`PUT /api/build`): in the build-info repository through the
 * door (so the caller's deploy right on the build decides), then indexed — the run, its modules'
 * artifacts and dependencies by checksum — with its event, in the project named (by `?project=` or
 * the document; it must exist); a document sent again for the same
 * name, number and start replaces the earlier one.
 */
export async function publishBuild(
  request: FastifyRequest,
  doc: PublishedBuildInfo,
  projectKey?: string,
): Promise<void> {
  const { db } = request.server;
  const { name } = doc;
  const number = String(doc.number);
  const startedAt = startedMillis(doc.started);
  const project = projectKey ?? (doc.project || undefined);
  if (project !== undefined) await getProjectRow(db, project);
  await ensureBuildInfoRepository(db);
  const path = await storeBuildDocument(repoContent(request), { ...doc, name, number }, startedAt);
  const id = randomUUID();
  const files = (doc.modules ?? []).flatMap((module) => [
    ...(module.artifacts ?? []).map((f) => fileRow(id, 'artifact', module.id ?? '', f)),
    ...(module.dependencies ?? []).map((f) => fileRow(id, 'dependency', module.id ?? '', f)),
  ]);
  await db.transaction().execute(async (trx) => {
    await replaceRun(
      trx,
      {
        id,
        name,
        number,
        started: doc.started,
        started_at: startedAt,
        path,
        project: project ?? null,
        created_at: Date.now(),
        created_by: actorName(request.principal),
      },
      files,
    );
    await recordChange(trx, actorName(request.principal), {
      event: { type: 'build.uploaded', payload: { name, number, started: doc.started } },
    });
  });
}

/**
 * Writes a run's document into the build-info repository through the caller's door (the deploy
 * right on the build decides), with the `build.*` properties; answers its path.
 */
export async function storeBuildDocument(content: RepoContent, doc: BuildInfo, startedAt: number): Promise<string> {
  const path = buildPath(doc.name, doc.number, startedAt);
  const body = Buffer.from(JSON.stringify(doc));
  await content.deploy({
    repoKey: BUILD_INFO_REPO,
    path,
    properties: { 'build.name': [doc.name], 'build.number': [doc.number], 'build.timestamp': [String(startedAt)] },
    body: Readable.from(body),
    contentLength: body.length,
    checksums: {},
    checksumDeploy: false,
  });
  return path;
}

/** The build-info repository, made with the first build published (as Artifactory has it from the start). */
async function ensureBuildInfoRepository(db: Db): Promise<void> {
  const now = Date.now();
  await ensureSystemRepository(db, {
    // a local repository with the trash can's defaults, of its own type
    ...TRASHCAN_ROW,
    key: BUILD_INFO_REPO,
    package_type: 'buildinfo',
    description: 'Build info published by CI tools',
    metadata_max_age_secs: 7200,
    created_at: now,
    updated_at: now,
  });
}

function fileRow(buildId: string, kind: 'artifact' | 'dependency', module: string, file: BuildFile) {
  return {
    build_id: buildId,
    kind,
    module,
    name: String(file.name ?? file.id ?? ''),
    type: String(file.type ?? ''),
    sha1: file.sha1?.toLowerCase() ?? null,
    sha256: file.sha256?.toLowerCase() ?? null,
    md5: file.md5?.toLowerCase() ?? null,
  };
}

const byNumber = new Intl.Collator('en', { numeric: true });

/** The runs of a build, newest first; runs that started at the same time by number, highest first (10 after 9). */
export async function buildRuns(db: Db, name: string): Promise<BuildsTable[]> {
  const runs = await runsOf(db, name);
  return runs.sort((a, b) => Number(b.started_at) - Number(a.started_at) || byNumber.compare(b.number, a.number));
}

/** A run by number (the newest when a number was published more than once); 404 when absent. */
export async function buildRun(db: Db, name: string, number: string): Promise<BuildsTable> {
  const run = await runOf(db, name, number);
  if (!run) throw notFound(`No build was found for build name: ${name}, build number: ${number}`);
  return run;
}

/** A run's document as it was published. */
export async function storedDocument(content: RepoContent, run: BuildsTable): Promise<BuildInfo> {
  const item = await content.stored(BUILD_INFO_REPO, run.path);
  if (!item) throw notFound(`No build was found for build name: ${run.name}, build number: ${run.number}`);
  return JSON.parse((await content.read(item)).toString('utf8')) as BuildInfo;
}

/** A run's document, with the promotions recorded since (as `statuses`, oldest first). */
export async function buildDocument(db: Db, content: RepoContent, run: BuildsTable): Promise<BuildInfo> {
  const doc = await storedDocument(content, run);
  const promotions = await promotionsOf(db, [run.id]);
  const statuses = [
    ...(Array.isArray(doc.statuses) ? doc.statuses : []),
    ...promotions.map((p) => ({
      status: p.status,
      comment: p.comment,
      ...(p.repository ? { repository: p.repository } : {}),
      timestamp: p.timestamp,
      user: p.user,
      ciUser: p.ci_user,
    })),
  ];
  return statuses.length ? { ...doc, statuses } : doc;
}

type Change<T> = { updated: T[]; unchanged: T[]; removed: T[]; new: T[] };

/** Artifactory's diff of two runs: artifacts, dependencies and properties, each new / updated / unchanged / removed. */
export function diffBuilds(current: BuildInfo, other: BuildInfo): BuildDiff {
  const files = (doc: BuildInfo, kind: 'artifacts' | 'dependencies') =>
    new Map(
      (doc.modules ?? []).flatMap((m) =>
        ((m[kind] ?? []) as BuildFile[]).map((f) => [String(f.name ?? f.id ?? ''), f] as const),
      ),
    );
  const compare = <T>(mine: Map<string, T>, theirs: Map<string, T>, same: (a: T, b: T) => boolean): Change<T> => {
    const change: Change<T> = { updated: [], unchanged: [], removed: [], new: [] };
    for (const [key, value] of mine) {
      const before = theirs.get(key);
      if (before === undefined) change.new.push(value);
      else if (same(value, before)) change.unchanged.push(value);
      else change.updated.push(value);
    }
    for (const [key, value] of theirs) if (!mine.has(key)) change.removed.push(value);
    return change;
  };
  const sameFile = (a: BuildFile, b: BuildFile) => (a.sha1 ?? a.sha256 ?? '') === (b.sha1 ?? b.sha256 ?? '');
  const props = (doc: BuildInfo) =>
    new Map(Object.entries(doc.properties ?? {}).map(([k, v]) => [k, { key: k, value: v }] as const));
  return {
    artifacts: compare(files(current, 'artifacts'), files(other, 'artifacts'), sameFile),
    dependencies: compare(files(current, 'dependencies'), files(other, 'dependencies'), sameFile),
    properties: compare(props(current), props(other), (a, b) => a.value === b.value),
  };
}
