import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import picomatch from 'picomatch';
import {
  RELEASE_BUNDLES_REPO,
  RELEASE_BUNDLE_MESSAGES,
  formatMessage,
  type AbortedTarget,
  type DistributionTracker,
  type distributeBodySchema,
} from '@arca/contracts';
import type { z } from 'zod';
import type { ReleaseBundleDistributionsTable, ReleaseBundleVersionsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { isAllowed } from '../../core/permissions.js';
import { actorName } from '../../core/principals.js';
import { getSetting } from '../../core/settings.store.js';
import type { TaskRun } from '../../core/work.js';
import { systemContent } from '../artifacts/index.js';
import {
  deploymentRemote,
  pushFile,
  remoteFetch,
  remoteHeldContents,
  remoteManifest,
  type Remote,
} from '../replications/index.js';
import { bundlePath, manifestPath, readableVersion } from './release-bundles.service.js';
import {
  artifactsOf,
  distributionsOf,
  findDistribution,
  findVersionById,
  insertDistribution,
  updateDistribution,
} from './release-bundles.store.js';
import { listDeployments } from '../deployments/index.js';

/*
 * Distribution: a version sent to paired deployments. Each target is a task of the durable-work
 * kernel (tried again with a growing wait while the target is away), which sends every artifact
 * by checksum first — only content the target lacks travels — then the signed manifest, which
 * the target verifies before it records the version as received.
 */

const fill = formatMessage;

/** The durable-work kernel's kind for one target's distribution (or deletion); its key is the row's id. */
export const BUNDLE_DISTRIBUTION = 'release-bundle-distribution';

/** Attempts before a distribution to an unreachable target fails (about an hour with the waits below). */
const MAX_ATTEMPTS = 30;
const WORKERS = 4;

interface Payload {
  distributionId: string;
  autoCreateRepositories: boolean;
}

interface Progress {
  filesDone: number;
  filesSent: number;
  bytesSent: number;
}

/** The spec's refusals of a distribution: offline mode, then the caller's rights. */
async function checkMayDistribute(request: FastifyRequest, name: string, version: string): Promise<void> {
  if ((await getSetting(request.server.db, 'general')).globalOfflineMode)
    throw new HttpError(409, RELEASE_BUNDLE_MESSAGES.offline);
  await checkDistributeRights(request, name, version);
}

async function checkDistributeRights(request: FastifyRequest, name: string, version: string): Promise<void> {
  const allowed = await isAllowed(
    request.server.db,
    request.principal,
    'manage',
    RELEASE_BUNDLES_REPO,
    bundlePath(name, version),
  );
  if (!allowed) throw new HttpError(403, RELEASE_BUNDLE_MESSAGES.noDistributePermission);
}

/**
 * Starts the distribution (or, with `action` 'delete', the deletion) of a version on every paired
 * deployment the rules name (`site_name` patterns; `*` for all): one tracker row and one task per
 * target, answered at once; the tasks go on in the background.
 */
export async function startDistribution(
  request: FastifyRequest,
  name: string,
  version: string,
  body: z.infer<typeof distributeBodySchema>,
  action: 'distribute' | 'delete',
): Promise<DistributionTracker[]> {
  const { db } = request.server;
  const row = await readableVersion(request, name, version);
  await checkMayDistribute(request, name, version);
  const deployments = await listDeployments(db);
  if (!deployments.length) throw badRequest(RELEASE_BUNDLE_MESSAGES.noDistributionTargets);
  const patterns = body.distribution_rules.map((r) => r.site_name || '*');
  const match = picomatch(patterns, { nocase: true });
  const targets = deployments.filter((d) => match(d.name));
  if (!targets.length) throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.noTargetMatches, { rules: patterns.join(', ') }));
  if (body.dry_run) return targets.map((t) => trackerOf(planned(row, t, action, request)));
  const started: ReleaseBundleDistributionsTable[] = [];
  for (const target of targets) {
    const tracker = planned(row, target, action, request);
    await db.transaction().execute(async (trx) => {
      await insertDistribution(trx, tracker);
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'release',
          action: action === 'delete' ? 'remote-delete' : 'distribute',
          target: `release bundle ${name} ${version}`,
          after: { target: target.name },
        },
        event: {
          type: 'distribution.changed',
          payload: { name, version, project: row.project_key, status: 'started', action, target: target.name },
        },
      });
    });
    await request.server.work.submit<Payload>(
      BUNDLE_DISTRIBUTION,
      { distributionId: tracker.id, autoCreateRepositories: body.auto_create_missing_repositories },
      { key: tracker.id, serialKey: `bundle-target:${target.id}` },
    );
    started.push(tracker);
  }
  return started.map(trackerOf);
}

function planned(
  row: ReleaseBundleVersionsTable,
  target: { id: string; name: string },
  action: 'distribute' | 'delete',
  request: FastifyRequest,
): ReleaseBundleDistributionsTable {
  return {
    id: randomUUID(),
    version_id: row.id,
    deployment_id: target.id,
    target_name: target.name,
    action,
    status: 'IN_PROGRESS',
    files_total: action === 'delete' ? 0 : Number(row.artifact_count),
    files_done: 0,
    files_sent: 0,
    bytes_sent: 0,
    message: '',
    created_at: Date.now(),
    created_by: actorName(request.principal),
    finished_at: null,
  };
}

/** A tracker row as `GET …/distribution/trackers/{name}/{version}` answers it. */
export function trackerOf(row: ReleaseBundleDistributionsTable): DistributionTracker {
  return {
    distribution_tracker_id: row.id,
    type: row.action === 'delete' ? 'delete' : 'distribute',
    status: row.status as DistributionTracker['status'],
    target: row.target_name,
    deployment_id: row.deployment_id,
    files_total: Number(row.files_total),
    files_done: Number(row.files_done),
    files_sent: Number(row.files_sent),
    bytes_sent: Number(row.bytes_sent),
    message: row.message,
    created: new Date(Number(row.created_at)).toISOString(),
    created_by: row.created_by,
    finished: row.finished_at === null ? null : new Date(Number(row.finished_at)).toISOString(),
  };
}

/**
 * Aborts a version's distributions still under way (not its deletions): each target's task is
 * stopped, waiting or running, and its tracker ends as ABORTED. A target that has taken the whole
 * bundle already keeps it; files sent to the others stay there, unheld, like any other content.
 */
export async function abortDistribution(
  request: FastifyRequest,
  name: string,
  version: string,
): Promise<AbortedTarget[]> {
  const { db, work } = request.server;
  const row = await readableVersion(request, name, version);
  await checkDistributeRights(request, name, version);
  const running = (await distributionsOf(db, row.id)).filter(
    (d) => d.action === 'distribute' && d.status === 'IN_PROGRESS',
  );
  if (!running.length) throw new HttpError(409, fill(RELEASE_BUNDLE_MESSAGES.nothingToAbort, { name, version }));
  const user = actorName(request.principal);
  const aborted: AbortedTarget[] = [];
  for (const tracker of running) {
    // the task first: once asked to stop, its next hold fails, so it sends nothing more
    const task = await work.get(BUNDLE_DISTRIBUTION, tracker.id);
    if (task) await work.requestStop(task.id);
    const ended = await db.transaction().execute(async (trx) => {
      const message = fill(RELEASE_BUNDLE_MESSAGES.aborted, { user });
      if (!(await updateDistribution(trx, tracker.id, { status: 'ABORTED', message, finished_at: Date.now() })))
        return false;
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'release',
          action: 'abort-distribution',
          target: `release bundle ${name} ${version}`,
          after: { target: tracker.target_name },
        },
        event: {
          type: 'distribution.changed',
          payload: {
            name,
            version,
            project: row.project_key,
            status: 'aborted',
            action: 'distribute',
            target: tracker.target_name,
            message,
          },
        },
      });
      return true;
    });
    if (ended) aborted.push({ name: tracker.target_name, service_id: tracker.deployment_id, type: 'artifactory' });
  }
  return aborted;
}

export async function listTrackers(request: FastifyRequest, name: string, version: string) {
  const row = await readableVersion(request, name, version);
  return (await distributionsOf(request.server.db, row.id)).map(trackerOf);
}

/** Defines the distribution's kind of work on this process (a distribution goes on on any node). */
export function defineDistributions(app: FastifyInstance): void {
  app.work.define<Payload, Progress, null>(BUNDLE_DISTRIBUTION, {
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: 1000,
    backoffCapMs: 2 * 60_000,
    run: async (task) => {
      await runDistribution(app, task);
      return null;
    },
  });
}

async function ensureRepository(remote: Remote, repoKey: string, packageType: string, create: boolean) {
  const found = await remoteFetch(remote, `/artifactory/api/repositories/${encodeURIComponent(repoKey)}`);
  await found.body?.cancel().catch(() => undefined);
  if (found.status === 200) return;
  if (!create) throw new Error(fill(RELEASE_BUNDLE_MESSAGES.targetRepositoryMissing, { key: repoKey }));
  const made = await remoteFetch(remote, `/artifactory/api/repositories/${encodeURIComponent(repoKey)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ rclass: 'local', packageType })),
  });
  const text = await made.text().catch(() => '');
  if (made.status >= 300)
    throw new Error(`the target refused to create '${repoKey}': ${made.status} ${text.slice(0, 200)}`);
}

/** One target's distribution or deletion, from the start or from where the holder before it stopped. */
async function runDistribution(app: FastifyInstance, task: TaskRun<Payload, Progress>): Promise<void> {
  const row = await findDistribution(app.db, task.payload.distributionId);
  if (!row || row.status !== 'IN_PROGRESS') return;
  const version = await findVersionById(app.db, row.version_id);
  const bundle = version && { name: version.name, version: version.version, project: version.project_key };
  // what attempts before this one sent, as the row counts it (each attempt saves its figures as it ends)
  const progress: Progress = { filesDone: 0, filesSent: Number(row.files_sent), bytesSent: Number(row.bytes_sent) };
  const save = async (changes: Partial<ReleaseBundleDistributionsTable>) => {
    await updateDistribution(app.db, row.id, {
      files_done: progress.filesDone,
      files_sent: progress.filesSent,
      bytes_sent: progress.bytesSent,
      ...changes,
    });
  };
  const end = async (status: 'COMPLETED' | 'FAILED', message = '') => {
    await app.db.transaction().execute(async (trx) => {
      const changed = await updateDistribution(trx, row.id, {
        status,
        message,
        finished_at: Date.now(),
        files_done: progress.filesDone,
        files_sent: progress.filesSent,
        bytes_sent: progress.bytesSent,
      });
      // aborted meanwhile: the abort has said so
      if (changed && bundle)
        await recordChange(trx, row.created_by, {
          event: {
            type: 'distribution.changed',
            payload: {
              ...bundle,
              status: status === 'COMPLETED' ? 'completed' : 'failed',
              action: row.action === 'delete' ? 'delete' : 'distribute',
              target: row.target_name,
              ...(message ? { message } : {}),
            },
          },
        });
    });
  };
  if (!version || !bundle) return end('FAILED', 'The release bundle version was deleted meanwhile.');
  try {
    const base = await deploymentRemote(app, row.deployment_id, '');
    const origin = (await getSetting(app.db, 'general')).customUrlBase || app.nodeId;
    const receive = `/lifecycle/api/v2/distribution/receive/${encodeURIComponent(version.name)}/${encodeURIComponent(version.version)}`;
    if (row.action === 'delete') {
      const res = await remoteFetch(base, `${receive}?origin=${encodeURIComponent(origin)}`, { method: 'DELETE' });
      const text = await res.text().catch(() => '');
      if (res.status !== 204 && res.status !== 404)
        throw new Error(`the target answered ${res.status}: ${text.slice(0, 300)}`);
      return end('COMPLETED');
    }
    const all = await artifactsOf(app.db, version.id);
    // what the target holds already at the same path with the same content is not sent at all;
    // the rest goes by checksum first (content the target holds elsewhere costs no bytes)
    const there = new Map<string, string>();
    for (const [repoKey, packageType] of new Map(all.map((a) => [a.repo_key, a.package_type]))) {
      await ensureRepository({ ...base, repo: repoKey }, repoKey, packageType, task.payload.autoCreateRepositories);
      for (const [path, entry] of await remoteManifest({ ...base, repo: repoKey }))
        there.set(`${repoKey}/${path}`, entry.sha256);
    }
    const artifacts = all.filter((a) => there.get(`${a.repo_key}/${a.path}`) !== a.sha256);
    progress.filesDone = all.length - artifacts.length;
    // asked once for all: what it holds goes by checksum, the rest with its bytes, no probe per file
    const held = await remoteHeldContents(
      base,
      artifacts.map((a) => a.sha256),
    );
    let next = 0;
    let savedAt = Date.now();
    const worker = async () => {
      while (next < artifacts.length) {
        task.signal.throwIfAborted();
        const artifact = artifacts[next++]!;
        const sent = await pushFile(
          app,
          { ...base, repo: artifact.repo_key },
          artifact.repo_key,
          { path: artifact.path, sha256: artifact.sha256, size: Number(artifact.size), props: '', properties: {} },
          false,
          false,
          held?.has(artifact.sha256),
        );
        progress.filesDone += 1;
        if (sent.outcome === 'transferred') {
          progress.filesSent += 1;
          progress.bytesSent += sent.bytes;
        }
        if (Date.now() - savedAt > 1000) {
          savedAt = Date.now();
          await task.hold(progress);
          await save({});
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    // the last moment an abort stops the target from taking the bundle
    await task.hold(progress);
    const content = systemContent(app);
    const item = await content.stored(RELEASE_BUNDLES_REPO, manifestPath(version.name, version.version));
    if (!item) throw new Error(RELEASE_BUNDLE_MESSAGES.manifestMissing);
    const manifest = await content.read(item);
    const res = await remoteFetch(base, receive, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(
        JSON.stringify({
          manifest: manifest.toString('utf8'),
          signature: version.signature,
          public_key: version.public_key,
          key_fingerprint: version.key_fingerprint,
          signing_key: version.signing_key,
          description: version.description,
          source_type: version.source_type,
          sources: JSON.parse(version.sources) as unknown[],
          origin,
        }),
      ),
    });
    const text = await res.text().catch(() => '');
    if (res.status !== 200 && res.status !== 201) {
      // the target refused the bundle itself (its signature, its content, its size): trying again
      // changes nothing; a target that is away or busy (5xx, 408, 429) is tried again
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
        return end('FAILED', `the target refused it (${res.status}): ${text.slice(0, 300)}`);
      throw new Error(`the target answered ${res.status}: ${text.slice(0, 300)}`);
    }
    await end('COMPLETED');
  } catch (error) {
    if (task.signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (task.attempt >= MAX_ATTEMPTS) {
      await end('FAILED', message);
      return;
    }
    await save({ message: `attempt ${task.attempt} failed, trying again: ${message}` });
    throw error;
  }
}
