import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  LICENSE_BUCKET_FILE_MAX_BYTES,
  LICENSE_BUCKET_MESSAGES,
  formatMessage,
  type LicenseBucket,
  type LicenseBucketAdd,
  type LicenseBucketDocument,
  type LicenseBucketStatus,
  type LicenseSplit,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { LicenseBucketsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { OutboundRefused, outboundFetch } from '../../core/outbound.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { bucketFile, openBucket, signBucket } from './license-buckets.document.js';

export const ELIGIBLE = new Set(['ONLINE', 'PARTIAL']);
const DAY = 86_400_000;
/** The report's chart reaches this far back. */
const USAGE_DAYS = 90;
const MIN_USAGE_DAYS = 30;

const iso = (ms: number) => new Date(Number(ms)).toISOString();

async function bucketRow(db: Db, id: string): Promise<LicenseBucketsTable> {
  const row = await db.selectFrom('license_buckets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(LICENSE_BUCKET_MESSAGES.notFound);
  return row;
}

async function nameFree(db: Db, name: string): Promise<void> {
  const taken = await db.selectFrom('license_buckets').select('id').where('name', '=', name).executeTakeFirst();
  if (taken) throw conflict(formatMessage(LICENSE_BUCKET_MESSAGES.nameTaken, { name }), 'name');
}

/** Keeps the bucket's used count as of now, for the report's chart; inside the change's transaction. */
export async function sampleUsage(trx: Db, bucketId: string, now: number): Promise<void> {
  const used = await trx
    .selectFrom('license_bucket_licenses')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('bucket_id', '=', bucketId)
    .where('assignee_kind', 'is not', null)
    .executeTakeFirst();
  await trx
    .insertInto('license_bucket_usage')
    .values({ bucket_id: bucketId, at: now, used: Number(used?.n ?? 0) })
    .execute();
}

/** The bucket text a source names: a file's content, what a (signed) URL answers, or the key itself. */
async function textOf(app: FastifyInstance, body: LicenseBucketAdd): Promise<string> {
  if (body.file) {
    if (!body.file.name.toLowerCase().endsWith('.json'))
      throw badRequest(LICENSE_BUCKET_MESSAGES.fileExtension, 'file');
    if (Buffer.byteLength(body.file.content) >= LICENSE_BUCKET_FILE_MAX_BYTES) {
      throw badRequest(LICENSE_BUCKET_MESSAGES.fileSize, 'file');
    }
    return body.file.content;
  }
  if (body.key) return body.key;
  const url = (body.url || body.signed_url) ?? '';
  const field = body.url ? 'url' : 'signed_url';
  try {
    const response = await outboundFetch(url, {
      headers: { accept: 'application/json, text/plain' },
      allowed: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
      timeouts: { connectMs: 10_000, firstByteMs: 30_000, idleMs: 30_000 },
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw badRequest(`${LICENSE_BUCKET_MESSAGES.unreachable} (HTTP ${response.status})`, field);
    }
    // read no more than a bucket file may hold
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += (chunk as Uint8Array).byteLength;
      if (size >= LICENSE_BUCKET_FILE_MAX_BYTES) throw badRequest(LICENSE_BUCKET_MESSAGES.fileSize, field);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const reason = error instanceof OutboundRefused ? error.message : (error as Error).message;
    throw badRequest(`${LICENSE_BUCKET_MESSAGES.unreachable} ${reason}`, field);
  }
}

/** Stores a verified bucket and its licences, with the change's record. */
async function storeBucket(
  trx: Db,
  who: ChangeActor,
  bucket: { name: string; document: LicenseBucketDocument; key: string; licenseIds: string[]; source: string },
  now: number,
): Promise<void> {
  const { document } = bucket;
  await trx
    .insertInto('license_buckets')
    .values({
      id: document.id,
      name: bucket.name,
      edition: document.edition,
      licensee: document.licensee,
      issued_at: Date.parse(document.issuedAt),
      expires_at: Date.parse(document.expiresAt),
      issuer: document.issuer,
      parent_id: null,
      bucket_key: bucket.key,
      source: bucket.source,
      added_at: now,
      added_by: who.actor,
    })
    .execute();
  await trx
    .insertInto('license_bucket_licenses')
    .values(
      document.licenses.map((key_text, position) => ({
        id: bucket.licenseIds[position]!,
        bucket_id: document.id,
        position,
        key_text,
        assignee_kind: null,
        assignee: null,
        assigned_at: null,
      })),
    )
    .execute();
  await sampleUsage(trx, document.id, now);
  await recordChange(
    trx,
    who,
    {
      audit: {
        category: 'license',
        action: 'add bucket',
        target: bucket.name,
        after: { id: document.id, edition: document.edition, size: document.licenses.length, source: bucket.source },
      },
    },
    now,
  );
}

/** Adds a bucket from a file, a URL, a signed URL or a pasted key; a bad one changes nothing. */
export async function addBucket(request: FastifyRequest, body: LicenseBucketAdd): Promise<LicenseBucket> {
  const app = request.server;
  await nameFree(app.db, body.name);
  const source = body.file ? 'file' : body.url ? 'url' : body.signed_url ? 'signed_url' : 'key';
  const opened = openBucket(await textOf(app, body), app.license);
  const before = await app.db
    .selectFrom('license_buckets')
    .select('name')
    .where('id', '=', opened.document.id)
    .executeTakeFirst();
  if (before) throw conflict(formatMessage(LICENSE_BUCKET_MESSAGES.alreadyAdded, { name: before.name }));
  const held = await app.db
    .selectFrom('license_bucket_licenses')
    .innerJoin('license_buckets', 'license_buckets.id', 'license_bucket_licenses.bucket_id')
    .select('license_buckets.name')
    .where('license_bucket_licenses.id', 'in', opened.licenseIds)
    .executeTakeFirst();
  if (held) throw conflict(formatMessage(LICENSE_BUCKET_MESSAGES.alreadyAdded, { name: held.name }));
  const now = Date.now();
  try {
    await app.db
      .transaction()
      .execute((trx) => storeBucket(trx, auditActor(request), { name: body.name, ...opened, source }, now));
  } catch (error) {
    // two adds of one bucket (or one name) at once: the second finds the first's row
    await nameFree(app.db, body.name);
    throw error;
  }
  return getBucket(app.db, opened.document.id);
}

interface Counts {
  size: number;
  used: number;
}

async function countsOf(db: Db): Promise<Map<string, Counts>> {
  const rows = await db
    .selectFrom('license_bucket_licenses')
    .select(['bucket_id', 'assignee_kind'])
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .groupBy(['bucket_id', 'assignee_kind'])
    .execute();
  const counts = new Map<string, Counts>();
  for (const row of rows) {
    const entry = counts.get(row.bucket_id) ?? { size: 0, used: 0 };
    entry.size += Number(row.n);
    if (row.assignee_kind !== null) entry.used += Number(row.n);
    counts.set(row.bucket_id, entry);
  }
  return counts;
}

/** Projects on the deployments that hold a bucket's licences, as they reported them last. */
async function projectsOf(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('license_bucket_licenses')
    .innerJoin('deployments', 'deployments.id', 'license_bucket_licenses.assignee')
    .select(['license_bucket_licenses.bucket_id', 'deployments.id', 'deployments.projects'])
    .where('license_bucket_licenses.assignee_kind', '=', 'deployment')
    .distinct()
    .execute();
  const projects = new Map<string, number>();
  for (const row of rows) projects.set(row.bucket_id, (projects.get(row.bucket_id) ?? 0) + row.projects);
  return projects;
}

function answerOf(
  row: LicenseBucketsTable,
  all: LicenseBucketsTable[],
  counts: Map<string, Counts>,
  projects: Map<string, number>,
  now: number,
): LicenseBucket {
  const { size, used } = counts.get(row.id) ?? { size: 0, used: 0 };
  const parent = row.parent_id ? all.find((b) => b.id === row.parent_id) : undefined;
  return {
    id: row.id,
    name: row.name,
    license_type: row.edition,
    customer: row.licensee,
    issued: iso(row.issued_at),
    expires: iso(row.expires_at),
    expired: Number(row.expires_at) <= now,
    size,
    used,
    available: size - used,
    projects: projects.get(row.id) ?? 0,
    parent: parent ? { id: parent.id, name: parent.name } : null,
    splits: all
      .filter((b) => b.parent_id === row.id)
      .map((b) => ({ id: b.id, name: b.name, size: counts.get(b.id)?.size ?? 0 })),
    source: row.source as LicenseBucket['source'],
    added: iso(row.added_at),
    added_by: row.added_by,
  };
}

/** Every bucket, parents before their splits. */
export async function listBuckets(db: Db, now = Date.now()): Promise<LicenseBucket[]> {
  const [all, counts, projects] = await Promise.all([
    db.selectFrom('license_buckets').selectAll().orderBy('added_at').orderBy('name').execute(),
    countsOf(db),
    projectsOf(db),
  ]);
  const ordered = all
    .filter((b) => b.parent_id === null)
    .flatMap((parent) => [parent, ...all.filter((b) => b.parent_id === parent.id)]);
  return ordered.map((row) => answerOf(row, all, counts, projects, now));
}

export async function getBucket(db: Db, id: string): Promise<LicenseBucket> {
  const found = (await listBuckets(db)).find((b) => b.id === id);
  if (!found) throw notFound(LICENSE_BUCKET_MESSAGES.notFound);
  return found;
}

/**
 * The greatest used count of each day, carried over quiet days: since the bucket came, at least
 * the last 30 days (none in use before it came) and at most the last 90.
 */
async function usageByDay(db: Db, bucketId: string, since: number, now: number) {
  const from = Math.max(now - (USAGE_DAYS - 1) * DAY, Math.min(since, now - (MIN_USAGE_DAYS - 1) * DAY));
  const firstDay = Math.floor(from / DAY) * DAY;
  const samples = await db
    .selectFrom('license_bucket_usage')
    .select(['at', 'used'])
    .where('bucket_id', '=', bucketId)
    .orderBy('at')
    .execute();
  const points: { day: string; max_used: number }[] = [];
  let carried = 0;
  let i = 0;
  // what was in use before the chart starts is where its first day starts
  while (i < samples.length && Number(samples[i]!.at) < firstDay) carried = samples[i++]!.used;
  for (let day = firstDay; day <= now; day += DAY) {
    let max = carried;
    while (i < samples.length && Number(samples[i]!.at) < day + DAY) {
      carried = samples[i++]!.used;
      max = Math.max(max, carried);
    }
    points.push({ day: new Date(day).toISOString().slice(0, 10), max_used: max });
  }
  return points;
}

/** A bucket's details: who holds its licences, what is unaccounted for, its use over time. */
export async function bucketStatus(app: FastifyInstance, id: string, now = Date.now()): Promise<LicenseBucketStatus> {
  const bucket = await getBucket(app.db, id);
  const [deployments, licences] = await Promise.all([
    app.db.selectFrom('deployments').selectAll().orderBy('name').execute(),
    app.db
      .selectFrom('license_bucket_licenses')
      .select(['id', 'assignee_kind', 'assignee'])
      .where('bucket_id', '=', id)
      .where('assignee_kind', 'is not', null)
      .execute(),
  ]);
  const heldBy = (deploymentId: string) =>
    licences.filter((l) => l.assignee_kind === 'deployment' && l.assignee === deploymentId);
  const known = new Set(deployments.map((d) => d.id));
  const unknown = new Map<string, { name: string; count: number; reason: string }>();
  for (const licence of licences) {
    const label = licence.assignee ?? '';
    if (licence.assignee_kind === 'deployment' && known.has(label)) continue;
    const reason =
      licence.assignee_kind === 'label' ? 'Acquired for use outside this fleet' : 'The deployment was unregistered';
    const entry = unknown.get(`${licence.assignee_kind}:${label}`) ?? { name: label, count: 0, reason };
    entry.count += 1;
    unknown.set(`${licence.assignee_kind}:${label}`, entry);
  }
  const usage = await usageByDay(app.db, id, Date.parse(bucket.added), now);
  return {
    ...bucket,
    deployments: deployments.map((d) => {
      const held = heldBy(d.id);
      const installed = new Set(JSON.parse(d.license_ids) as string[]);
      return {
        id: d.id,
        name: d.name,
        status: d.status,
        eligible: ELIGIBLE.has(d.status),
        nodes: d.nodes,
        projects: d.projects,
        attached: held.length,
        installed: held.filter((l) => installed.has(l.id)).length,
        suggested: Math.max(d.nodes - held.length, held.length ? 0 : 1),
      };
    }),
    unknown_usage: [...unknown.values()],
    usage,
    max_used: usage.reduce((max, p) => Math.max(max, p.max_used), 0),
  };
}

/**
 * Splits free licences off a bucket into a new one (for a team, or another management
 * deployment): signed by this deployment's issuer key, naming its parent.
 */
export async function splitBucket(
  request: FastifyRequest,
  parentId: string,
  body: LicenseSplit,
): Promise<LicenseBucket> {
  const app = request.server;
  const parent = await bucketRow(app.db, parentId);
  if (parent.parent_id) throw badRequest(LICENSE_BUCKET_MESSAGES.splitOfSplit);
  if (Number(parent.expires_at) <= Date.now()) throw badRequest(LICENSE_BUCKET_MESSAGES.expired);
  await nameFree(app.db, body.name);
  const id = randomUUID();
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    const free = await trx
      .selectFrom('license_bucket_licenses')
      .select(['id', 'key_text'])
      .where('bucket_id', '=', parentId)
      .where('assignee_kind', 'is', null)
      .orderBy('position')
      .execute();
    if (body.quantity > free.length) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'quantity');
    const taken = free.slice(free.length - body.quantity);
    const document: LicenseBucketDocument = {
      version: 1,
      id,
      edition: parent.edition as LicenseBucketDocument['edition'],
      licensee: parent.licensee,
      issuedAt: iso(now),
      expiresAt: iso(parent.expires_at),
      issuer: app.license.ownKey.id,
      parent: parentId,
      licenses: taken.map((l) => l.key_text),
    };
    await trx
      .insertInto('license_buckets')
      .values({
        id,
        name: body.name,
        edition: parent.edition,
        licensee: parent.licensee,
        issued_at: now,
        expires_at: parent.expires_at,
        issuer: app.license.ownKey.id,
        parent_id: parentId,
        bucket_key: signBucket(document, app.license.ownKey),
        source: 'split',
        added_at: now,
        added_by: auditActor(request).actor,
      })
      .execute();
    const moved = await trx
      .updateTable('license_bucket_licenses')
      .set({ bucket_id: id })
      .where(
        'id',
        'in',
        taken.map((l) => l.id),
      )
      .where('assignee_kind', 'is', null)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== taken.length) throw badRequest(LICENSE_BUCKET_MESSAGES.tooMany, 'quantity');
    await sampleUsage(trx, parentId, now);
    await sampleUsage(trx, id, now);
    await recordChange(
      trx,
      auditActor(request),
      {
        audit: {
          category: 'license',
          action: 'split bucket',
          target: parent.name,
          after: { split: body.name, quantity: body.quantity },
        },
      },
      now,
    );
  });
  return getBucket(app.db, id);
}

/**
 * Deletes a bucket. A split bucket's licences — with whoever holds them — go back to its parent;
 * a parent takes its licences and its split buckets with it. Deployments keep the licences
 * installed on them.
 */
export async function deleteBucket(request: FastifyRequest, id: string): Promise<void> {
  const app = request.server;
  const bucket = await bucketRow(app.db, id);
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    if (bucket.parent_id) {
      const last = await trx
        .selectFrom('license_bucket_licenses')
        .select((eb) => eb.fn.max('position').as('p'))
        .where('bucket_id', '=', bucket.parent_id)
        .executeTakeFirst();
      const back = await trx
        .selectFrom('license_bucket_licenses')
        .select('id')
        .where('bucket_id', '=', id)
        .orderBy('position')
        .execute();
      let position = Number(last?.p ?? -1);
      for (const licence of back) {
        await trx
          .updateTable('license_bucket_licenses')
          .set({ bucket_id: bucket.parent_id, position: ++position })
          .where('id', '=', licence.id)
          .execute();
      }
      await sampleUsage(trx, bucket.parent_id, now);
    }
    const gone = [
      id,
      ...(await trx.selectFrom('license_buckets').select('id').where('parent_id', '=', id).execute()).map((b) => b.id),
    ];
    await trx.deleteFrom('license_bucket_usage').where('bucket_id', 'in', gone).execute();
    await trx.deleteFrom('license_bucket_licenses').where('bucket_id', 'in', gone).execute();
    await trx.deleteFrom('license_buckets').where('parent_id', '=', id).execute();
    await trx.deleteFrom('license_buckets').where('id', '=', id).execute();
    await recordChange(
      trx,
      auditActor(request),
      {
        audit: {
          category: 'license',
          action: 'delete bucket',
          target: bucket.name,
          before: { id, splits: gone.length - 1, parent: bucket.parent_id },
        },
      },
      now,
    );
  });
}

/** The bucket as a file to keep or to add to another management deployment. */
export async function downloadBucket(db: Db, id: string): Promise<{ name: string; content: string }> {
  const bucket = await bucketRow(db, id);
  const [, payload] = bucket.bucket_key.split('.');
  const document = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as LicenseBucketDocument;
  return { name: `${bucket.name}.json`, content: bucketFile(document, bucket.bucket_key, bucket.name) };
}
