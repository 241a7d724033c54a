import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LICENSE_BUCKET_MESSAGES, type LicenseAttach, type LicenseAttachResult } from '@arca/contracts';
import { auditActor } from '../../core/audit.js';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { badRequest } from '../../core/errors.js';
import { callDeployment, checkDeployment, deploymentToken } from '../deployments/index.js';
import { ELIGIBLE, getBucket, sampleUsage } from './license-buckets.service.js';

/* Licences handed out from a bucket to deployments, and given back. */

/** Takes `count` free licences of a bucket for someone, in one transaction; none when fewer are free. */
async function reserve(
  app: FastifyInstance,
  who: ChangeActor,
  bucketId: string,
  assignee: { kind: 'deployment' | 'label'; name: string; label: string },
  count: number,
  now: number,
): Promise<{ id: string; key_text: string }[]> {
  return app.db.transaction().execute(async (trx) => {
    const free = await trx
      .selectFrom('license_bucket_licenses')
      .select(['id', 'key_text'])
      .where('bucket_id', '=', bucketId)
      .where('assignee_kind', 'is', null)
      .orderBy('position')
      .limit(count)
      .execute();
    if (free.length < count) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'license_count');
    const taken = await trx
      .updateTable('license_bucket_licenses')
      .set({ assignee_kind: assignee.kind, assignee: assignee.name, assigned_at: now })
      .where(
        'id',
        'in',
        free.map((l) => l.id),
      )
      .where('assignee_kind', 'is', null)
      .executeTakeFirst();
    // another attach took some of them between the read and the write: take none
    if (Number(taken.numUpdatedRows) !== count) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'license_count');
    await sampleUsage(trx, bucketId, now);
    await recordChange(
      trx,
      who,
      {
        audit: {
          category: 'license',
          action: assignee.kind === 'deployment' ? 'attach licenses' : 'acquire licenses',
          target: assignee.label,
          after: { bucket: bucketId, count },
        },
      },
      now,
    );
    return free;
  });
}

/** Gives licences back to their bucket (an attach the deployment refused). */
async function giveBack(app: FastifyInstance, bucketId: string, ids: string[]): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('license_bucket_licenses')
      .set({ assignee_kind: null, assignee: null, assigned_at: null })
      .where('id', 'in', ids)
      .execute();
    await sampleUsage(trx, bucketId, Date.now());
  });
}

function refusal(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errors?: { message?: string }[]; message?: string };
    return parsed.errors?.[0]?.message ?? parsed.message ?? body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

/**
 * Attaches licences of a bucket to deployments: every target checked first (registered, Online or
 * Partial, the total within what is free), then, for each, its licences taken in one transaction
 * and installed on it over the pairing channel; a target that refuses gives its licences back.
 * Each target's result is reported (the License Update Output).
 */
export async function attachLicenses(
  request: FastifyRequest,
  bucketId: string,
  body: LicenseAttach,
): Promise<LicenseAttachResult> {
  const app = request.server;
  const bucket = await getBucket(app.db, bucketId);
  if (bucket.expired) throw badRequest(LICENSE_BUCKET_MESSAGES.expired);
  const ids = body.targets.map((t) => t.jpd_id);
  if (new Set(ids).size !== ids.length) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'targets');
  const deployments = await app.db.selectFrom('deployments').selectAll().where('id', 'in', ids).execute();
  for (const target of body.targets) {
    const deployment = deployments.find((d) => d.id === target.jpd_id);
    if (!deployment) throw badRequest(LICENSE_BUCKET_MESSAGES.unknownDeployment, 'targets');
    if (!ELIGIBLE.has(deployment.status)) throw badRequest(LICENSE_BUCKET_MESSAGES.notEligible, 'targets');
  }
  const total = body.targets.reduce((sum, t) => sum + t.license_count, 0);
  if (total > bucket.available) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'license_count');
  const who = auditActor(request);
  const results: LicenseAttachResult['results'] = [];
  for (const target of body.targets) {
    const deployment = deployments.find((d) => d.id === target.jpd_id)!;
    const result = { jpd_id: deployment.id, name: deployment.name, license_count: target.license_count };
    let taken: { id: string; key_text: string }[];
    try {
      taken = await reserve(
        app,
        who,
        bucketId,
        { kind: 'deployment', name: deployment.id, label: deployment.name },
        target.license_count,
        Date.now(),
      );
    } catch (error) {
      results.push({ ...result, success: false, message: (error as Error).message });
      continue;
    }
    let message: string;
    try {
      const answer = await callDeployment(app, deployment.url, '/artifactory/api/system/licenses', {
        method: 'POST',
        token: await deploymentToken(app, deployment.id),
        body: { licenses: taken.map((l) => ({ licenseKey: l.key_text })) },
      });
      message = answer.status === 200 ? '' : `${LICENSE_BUCKET_MESSAGES.attachFailed} ${refusal(answer.body)}`;
    } catch (error) {
      message = `${LICENSE_BUCKET_MESSAGES.attachFailed} ${(error as Error).message}`;
    }
    if (message) {
      await giveBack(
        app,
        bucketId,
        taken.map((l) => l.id),
      );
      results.push({ ...result, success: false, message });
      continue;
    }
    // what it holds now, for the report's installed count
    await checkDeployment(app, deployment.id).catch(() => undefined);
    results.push({
      ...result,
      success: true,
      message: `Assigned ${target.license_count} license${target.license_count === 1 ? '' : 's'} from bucket ${bucket.name} to ${deployment.name}.`,
    });
  }
  return { results };
}

/** Licences taken for something that is not a registered deployment (unknown usage): their keys. */
export async function acquireLicenses(
  request: FastifyRequest,
  bucketId: string,
  body: { name: string; license_count: number },
): Promise<{ license_keys: string[] }> {
  const bucket = await getBucket(request.server.db, bucketId);
  if (bucket.expired) throw badRequest(LICENSE_BUCKET_MESSAGES.expired);
  if (body.license_count > bucket.available) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'license_count');
  const taken = await reserve(
    request.server,
    auditActor(request),
    bucketId,
    { kind: 'label', name: body.name, label: body.name },
    body.license_count,
    Date.now(),
  );
  return { license_keys: taken.map((l) => l.key_text) };
}
