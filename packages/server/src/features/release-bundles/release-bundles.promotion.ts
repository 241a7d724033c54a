import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  RELEASE_BUNDLES_REPO,
  RELEASE_BUNDLE_MESSAGES,
  TRASHCAN_REPO,
  formatMessage,
  type PromotionRecord,
  type promotionBodySchema,
} from '@arca/contracts';
import type { ReleaseBundlePromotionsTable, RepositoryRow } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, conflict } from '../../core/errors.js';
import { requirePermission } from '../../core/permissions.js';
import { actorName } from '../../core/principals.js';
import { repoContent, type RepoContent } from '../artifacts/index.js';
import { findRepository } from '../repositories/index.js';
import { getEnvironment } from './release-bundles.environments.js';
import { bundlePath, holderOf, readableVersion, serviceIdOf } from './release-bundles.service.js';
import { artifactsOf, insertPromotion, promotionsOf } from './release-bundles.store.js';

const fill = formatMessage;

type Operation = 'copy' | 'move';

/** A promotion record as the calls answer it. */
export function promotionAnswer(
  row: ReleaseBundlePromotionsTable,
  bundle: { name: string; version: string },
  serviceId: string,
): PromotionRecord {
  return {
    status: row.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED',
    repository_key: RELEASE_BUNDLES_REPO,
    release_bundle_name: bundle.name,
    release_bundle_version: bundle.version,
    environment: row.environment,
    operation: row.operation === 'move' ? 'move' : 'copy',
    included_repository_keys: JSON.parse(row.repositories) as string[],
    service_id: serviceId,
    created_by: row.created_by,
    created: new Date(Number(row.created_at)).toISOString(),
    created_millis: Number(row.created_at),
    artifact_count: Number(row.artifact_count),
    messages: row.message ? [{ text: row.message }] : [],
  };
}

/** Removes a file for good (the trash can keeps nothing of it): what a failed promotion copied. */
async function removeForGood(content: RepoContent, repoKey: string, path: string): Promise<void> {
  await content.remove(repoKey, path).catch(() => undefined);
  await content.remove(TRASHCAN_REPO, `${repoKey}/${path}`).catch(() => undefined);
}

/**
 * Promotes a version to an environment: each artifact copied, by checksum (no bytes move), to the
 * same path in the environment's repository of its package type (a generic one takes any), with
 * the bundle's name, version and environment as properties. A file already there with the same
 * content counts as promoted; one with other content refuses the promotion unless overwriting is
 * asked. `move` also takes away the copies the previous promotion made elsewhere. A promotion that
 * fails midway takes back the copies it made and is recorded as failed; the refusals before it
 * starts (rights, environment, repositories) record nothing.
 */
export async function promoteVersion(
  request: FastifyRequest,
  name: string,
  version: string,
  body: z.infer<typeof promotionBodySchema>,
  operation: Operation,
): Promise<PromotionRecord> {
  const { db } = request.server;
  const row = await readableVersion(request, name, version);
  await requirePermission(request, 'deploy', RELEASE_BUNDLES_REPO, bundlePath(name, version));
  const environment = await getEnvironment(db, body.environment);
  const repositories = environment.repositories.filter(
    (key) =>
      (!body.included_repository_keys.length || body.included_repository_keys.includes(key)) &&
      !body.excluded_repository_keys.includes(key),
  );
  if (!repositories.length)
    throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.environmentEmpty, { name: environment.name }));
  const targets: RepositoryRow[] = [];
  for (const key of repositories) {
    const repo = await findRepository(db, key);
    if (repo?.rclass === 'local') targets.push(repo);
  }
  const artifacts = await artifactsOf(db, row.id);
  const content = repoContent(request);
  // each artifact's target: the environment's repository of its type, else a generic one
  const plan = artifacts.map((artifact) => {
    const target =
      targets.find((t) => t.package_type === artifact.package_type) ??
      targets.find((t) => t.package_type === 'generic');
    if (!target)
      throw badRequest(
        `No repository of environment '${environment.name}' takes ${artifact.package_type} artifacts (${artifact.repo_key}/${artifact.path}): assign one to it.`,
      );
    return { artifact, to: { repoKey: target.key, path: artifact.path } };
  });
  // the rights on every target first: a promotion the caller may not finish does not start
  for (const { to } of plan) await requirePermission(request, 'deploy', to.repoKey, to.path);

  const copied: { repoKey: string; path: string }[] = [];
  const now = Date.now();
  const record: ReleaseBundlePromotionsTable = {
    id: randomUUID(),
    version_id: row.id,
    environment: environment.name,
    operation,
    status: 'COMPLETED',
    repositories: JSON.stringify([...new Set(plan.map((p) => p.to.repoKey))].sort()),
    artifact_count: plan.length,
    message: '',
    created_at: now,
    created_by: actorName(request.principal),
  };
  const previous = (await promotionsOf(db, row.id)).find((p) => p.status === 'COMPLETED');
  try {
    for (const { artifact, to } of plan) {
      const there = await content.stored(to.repoKey, to.path);
      if (there && there.sha256 === artifact.sha256) continue;
      if (there && !body.overwrite_existing_artifacts)
        throw conflict(fill(RELEASE_BUNDLE_MESSAGES.promotionConflict, { path: `${to.repoKey}/${to.path}` }));
      await content.deploy({
        repoKey: to.repoKey,
        path: to.path,
        properties: {
          'release-bundle.name': [name],
          'release-bundle.version': [version],
          'release-bundle.environment': [environment.name],
        },
        body: undefined,
        contentLength: undefined,
        checksums: { sha256: artifact.sha256 },
        checksumDeploy: true,
      });
      if (!there) copied.push(to);
    }
  } catch (error) {
    for (const at of copied) await removeForGood(content, at.repoKey, at.path);
    const failed = {
      ...record,
      status: 'FAILED',
      message: error instanceof Error ? error.message : String(error),
    };
    await db.transaction().execute(async (trx) => {
      await insertPromotion(trx, failed);
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'release',
          action: 'promote',
          target: holderOf(name, version),
          outcome: 'failure',
          after: { environment: environment.name },
          message: failed.message,
        },
      });
    });
    throw error instanceof HttpError ? error : conflict(failed.message);
  }
  // a move takes away what the previous promotion placed (and this one did not take over)
  if (operation === 'move' && previous) {
    const placedNow = new Set(plan.map((p) => `${p.to.repoKey}/${p.to.path}`));
    const before = JSON.parse(previous.repositories) as string[];
    for (const artifact of artifacts)
      for (const repoKey of before) {
        if (placedNow.has(`${repoKey}/${artifact.path}`)) continue;
        const there = await content.stored(repoKey, artifact.path);
        if (there?.sha256 === artifact.sha256) await content.remove(repoKey, artifact.path);
      }
  }
  await db.transaction().execute(async (trx) => {
    await insertPromotion(trx, record);
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'release',
        action: 'promote',
        target: holderOf(name, version),
        after: { environment: environment.name, operation, repositories: JSON.parse(record.repositories) as string[] },
      },
      event: {
        type: 'release_bundle.promoted',
        payload: {
          name,
          version,
          project: row.project_key,
          environment: environment.name,
          repositories: JSON.parse(record.repositories) as string[],
        },
      },
    });
  });
  return promotionAnswer(record, { name, version }, serviceIdOf(request));
}

/** A version's promotions, newest first, failed attempts included. */
export async function listPromotions(
  request: FastifyRequest,
  name: string,
  version: string,
): Promise<PromotionRecord[]> {
  const row = await readableVersion(request, name, version);
  return (await promotionsOf(request.server.db, row.id)).map((p) =>
    promotionAnswer(p, { name, version }, serviceIdOf(request)),
  );
}
