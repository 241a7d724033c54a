import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_BUNDLE_PROJECT,
  RELEASE_BUNDLES_REPO,
  RELEASE_BUNDLE_MESSAGES,
  formatMessage,
  typedSourcesOf,
  type BundleArtifact,
  type CreateReleaseBundleBody,
  type ReleaseBundleManifest,
  type ReceiveBundleBody,
  type ReleaseBundleVersion,
  type VerifyAnswer,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ReleaseBundleArtifactsTable, ReleaseBundleVersionsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { isAllowed, requirePermission } from '../../core/permissions.js';
import { actorName } from '../../core/principals.js';
import { holdFiles, releaseHolds, repoContent, TRASHCAN_ROW } from '../artifacts/index.js';
import { signWithKeyPair, signatureHolds } from '../keys/index.js';
import { getProjectRow } from '../projects/index.js';
import { ensureSystemRepository } from '../repositories/index.js';
import { resolveSources } from './release-bundles.resolve.js';
import {
  allVersions,
  artifactsOf,
  deleteVersion as deleteVersionRows,
  findVersion,
  insertVersion,
  reachedEnvironments,
  versionsOf,
} from './release-bundles.store.js';

const fill = formatMessage;

/** What holds a version's artifacts (and names it in every refusal): 'release bundle app 1.0.0'. */
export const holderOf = (name: string, version: string) => `release bundle ${name} ${version}`;

/** Where a version's manifest is kept in the release-bundles repository. */
export const manifestPath = (name: string, version: string) => `${name}/${version}/release-bundle.json`;

/** The path the release bundle permission resources name for a version (`{name}/**` covers it). */
export const bundlePath = (name: string, version: string) => `${name}/${version}`;

/** The release-bundles repository, made with the first bundle. */
async function ensureReleaseBundlesRepository(db: Db): Promise<void> {
  const now = Date.now();
  await ensureSystemRepository(db, {
    ...TRASHCAN_ROW,
    key: RELEASE_BUNDLES_REPO,
    package_type: 'releasebundles',
    description: 'The manifests of release bundle versions, each signed',
    created_at: now,
    updated_at: now,
  });
}

const iso = (millis: number) => new Date(Number(millis)).toISOString();

/** A version's row as the calls answer it. */
export function versionAnswer(
  row: ReleaseBundleVersionsTable,
  serviceId: string,
  environments: string[] = [],
): ReleaseBundleVersion {
  return {
    status: 'COMPLETED',
    repository_key: RELEASE_BUNDLES_REPO,
    release_bundle_name: row.name,
    release_bundle_version: row.version,
    project_key: row.project_key,
    description: row.description,
    source_type: row.source_type,
    sources: JSON.parse(row.sources) as Record<string, unknown>[],
    service_id: serviceId,
    created_by: row.created_by,
    created: iso(row.created_at),
    created_millis: Number(row.created_at),
    artifact_count: Number(row.artifact_count),
    total_size: Number(row.total_size),
    signing_key: row.signing_key,
    key_fingerprint: row.key_fingerprint,
    origin: row.origin === 'received' ? 'received' : 'local',
    origin_deployment: row.origin_deployment,
    current_environment: environments.at(-1) ?? null,
    environments,
  };
}

export const serviceIdOf = (request: FastifyRequest) => `jfrt@${request.server.nodeId}`;

/** A version the caller may read, or 404 (an unreadable one is as absent as a missing one). */
export async function readableVersion(
  request: FastifyRequest,
  name: string,
  version: string,
): Promise<ReleaseBundleVersionsTable> {
  const row = await findVersion(request.server.db, name, version);
  if (
    !row ||
    !(await isAllowed(request.server.db, request.principal, 'read', RELEASE_BUNDLES_REPO, bundlePath(name, version)))
  )
    throw notFound(fill(RELEASE_BUNDLE_MESSAGES.notFound, { name, version }));
  return row;
}

/** The bytes a version's signature covers: its manifest, as stored. */
export function manifestBytes(manifest: ReleaseBundleManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Creates a version: its sources resolved once (every path the caller may read, with its SHA-256
 * now), its manifest signed with the named key pair and written to the release-bundles
 * repository, and in the same transaction its row, its artifacts, the holds that keep them as
 * they are (a file changed meanwhile refuses it all), its events and its audit entry. A refusal
 * at any point leaves nothing behind.
 */
export async function createVersion(
  request: FastifyRequest,
  body: CreateReleaseBundleBody,
  options: { project?: string; signingKey?: string },
): Promise<{ repository_key: string; release_bundle_name: string; release_bundle_version: string; created: string }> {
  const { db } = request.server;
  const name = body.release_bundle_name;
  const version = body.release_bundle_version;
  await requirePermission(request, 'deploy', RELEASE_BUNDLES_REPO, bundlePath(name, version));
  const project = options.project || DEFAULT_BUNDLE_PROJECT;
  if (project !== DEFAULT_BUNDLE_PROJECT) await getProjectRow(db, project);
  if (await findVersion(db, name, version)) throw conflict(fill(RELEASE_BUNDLE_MESSAGES.exists, { name, version }));
  const keyName = options.signingKey?.trim() || body.signing_key?.trim();
  if (!keyName) throw badRequest(RELEASE_BUNDLE_MESSAGES.signingKeyMissing);
  const sources = typedSourcesOf(body);
  const artifacts = await resolveSources(request, sources);

  const now = Date.now();
  const actor = actorName(request.principal);
  const manifest: ReleaseBundleManifest = {
    release_bundle_name: name,
    release_bundle_version: version,
    project_key: project,
    created: iso(now),
    created_by: actor,
    service_id: serviceIdOf(request),
    artifacts: artifacts.map((a) => ({ repository_key: a.repoKey, path: a.path, sha256: a.sha256, size: a.size })),
  };
  const bytes = manifestBytes(manifest);
  const signed = await signWithKeyPair(db, keyName, bytes).catch((error: unknown) => {
    if (error instanceof HttpError && error.statusCode === 404)
      throw notFound(fill(RELEASE_BUNDLE_MESSAGES.signingKeyNotFound, { name: keyName }));
    throw error;
  });
  const row: ReleaseBundleVersionsTable = {
    id: randomUUID(),
    name,
    version,
    project_key: project,
    description: body.description,
    source_type: sources.length === 1 ? sources[0]!.source_type : 'multiple',
    sources: JSON.stringify(sources),
    signing_key: signed.keyName,
    key_fingerprint: signed.fingerprint,
    public_key: signed.publicKey,
    signature: signed.signature,
    manifest_sha256: '',
    artifact_count: artifacts.length,
    total_size: artifacts.reduce((sum, a) => sum + a.size, 0),
    origin: 'local',
    origin_deployment: null,
    created_at: now,
    created_by: actor,
  };
  await storeVersion(
    request,
    row,
    artifacts.map(artifactRow),
    bytes,
    { 'release-bundle.signing-key': [signed.keyName] },
    async (trx) => {
      const payload = { name, version, project };
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'release',
          action: 'create',
          target: holderOf(name, version),
          after: {
            artifacts: artifacts.length,
            sources: sources.map((s) => s.source_type),
            signingKey: signed.keyName,
          },
        },
        event: { type: 'release_bundle.created', payload: { ...payload, artifacts: artifacts.length } },
      });
      await recordChange(trx, auditActor(request), {
        event: {
          type: 'release_bundle.signed',
          payload: { ...payload, signingKey: signed.keyName, fingerprint: signed.fingerprint },
        },
      });
    },
  );
  return {
    repository_key: RELEASE_BUNDLES_REPO,
    release_bundle_name: name,
    release_bundle_version: version,
    created: iso(now),
  };
}

/**
 * Stores a version: its manifest (the exact signed bytes) deployed to the release-bundles
 * repository and, in the same transaction, its row (with the manifest's SHA-256), its artifacts,
 * the holds on them and on the manifest (a file changed since it was resolved refuses it all) and
 * what `record` writes (events, audit). The same version stored meanwhile by another call is 409.
 */
async function storeVersion(
  request: FastifyRequest,
  row: ReleaseBundleVersionsTable,
  artifacts: Omit<ReleaseBundleArtifactsTable, 'version_id'>[],
  bytes: Buffer,
  properties: Record<string, string[]>,
  record: (trx: Db) => Promise<void>,
): Promise<void> {
  const { name, version } = row;
  const path = manifestPath(name, version);
  await ensureReleaseBundlesRepository(request.server.db);
  await repoContent(request).deploy({
    repoKey: RELEASE_BUNDLES_REPO,
    path,
    properties: { 'release-bundle.name': [name], 'release-bundle.version': [version], ...properties },
    body: undefined,
    contentLength: bytes.length,
    checksums: {},
    checksumDeploy: false,
    known: { bytes, ...digestsOf(bytes) },
    within: async (trx, item) => {
      try {
        await insertVersion(trx, { ...row, manifest_sha256: item.sha256 ?? '' }, artifacts);
      } catch (error) {
        if (await findVersion(trx, name, version))
          throw conflict(fill(RELEASE_BUNDLE_MESSAGES.exists, { name, version }));
        throw error;
      }
      await holdFiles(trx, holderOf(name, version), [
        ...artifacts.map((a) => ({ repoKey: a.repo_key, path: a.path, sha256: a.sha256 })),
        { repoKey: RELEASE_BUNDLES_REPO, path, sha256: item.sha256 ?? '' },
      ]);
      await record(trx);
    },
  });
}

function artifactRow(a: Awaited<ReturnType<typeof resolveSources>>[number]) {
  return {
    repo_key: a.repoKey,
    path: a.path,
    sha256: a.sha256,
    size: a.size,
    package_type: a.packageType,
    source: a.source,
  };
}

function digestsOf(bytes: Buffer): { sha256: string; sha1: string; md5: string } {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    sha1: createHash('sha1').update(bytes).digest('hex'),
    md5: createHash('md5').update(bytes).digest('hex'),
  };
}

/** The versions of one bundle the caller may read, newest first, with the environments each reached. */
export async function listVersions(request: FastifyRequest, name: string): Promise<ReleaseBundleVersion[]> {
  const { db } = request.server;
  const rows = [];
  for (const row of await versionsOf(db, name))
    if (await isAllowed(db, request.principal, 'read', RELEASE_BUNDLES_REPO, bundlePath(row.name, row.version)))
      rows.push(row);
  const reached = await reachedEnvironments(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => versionAnswer(row, serviceIdOf(request), reached.get(row.id)));
}

/** Every bundle the caller may read with its latest version (newest first). */
export async function listBundles(request: FastifyRequest) {
  const { db } = request.server;
  const byName = new Map<string, ReleaseBundleVersionsTable[]>();
  for (const row of await allVersions(db)) {
    if (!(await isAllowed(db, request.principal, 'read', RELEASE_BUNDLES_REPO, bundlePath(row.name, row.version))))
      continue;
    const list = byName.get(row.name) ?? [];
    list.push(row);
    byName.set(row.name, list);
  }
  const latest = [...byName.values()].map((versions) => versions[0]!);
  const reached = await reachedEnvironments(
    db,
    latest.map((r) => r.id),
  );
  return [...byName.entries()].map(([name, versions]) => ({
    release_bundle_name: name,
    project_key: versions[0]!.project_key,
    repository_key: RELEASE_BUNDLES_REPO,
    release_bundle_version_latest: versions[0]!.version,
    versions: versions.length,
    last_created: iso(versions[0]!.created_at),
    environments: reached.get(versions[0]!.id) ?? [],
  }));
}

export async function versionContent(
  request: FastifyRequest,
  name: string,
  version: string,
  page: { limit: number; offset: number },
): Promise<{ artifacts: BundleArtifact[]; total: number }> {
  const row = await readableVersion(request, name, version);
  const rows = await artifactsOf(request.server.db, row.id, page);
  return {
    artifacts: rows.map((a) => ({
      repository_key: a.repo_key,
      path: a.path,
      sha256: a.sha256,
      size: Number(a.size),
      package_type: a.package_type,
      source: a.source,
    })),
    total: Number(row.artifact_count),
  };
}

/**
 * Deletes a version: its row with its artifacts, promotions and distributions, the holds on its
 * artifacts (they may change again) and its manifest (to the trash can), with its event and audit
 * entry, in one transaction. The copies its promotions made stay where they are.
 */
export async function deleteVersion(
  request: FastifyRequest,
  name: string,
  version: string,
  /** The deployment that distributed it, deleting it here (only a received version). */
  removedBy?: string,
): Promise<void> {
  const row = await readableVersion(request, name, version);
  await requirePermission(request, 'delete', RELEASE_BUNDLES_REPO, bundlePath(name, version));
  if (removedBy !== undefined && row.origin !== 'received')
    throw conflict(fill(RELEASE_BUNDLE_MESSAGES.exists, { name, version }));
  const holder = holderOf(name, version);
  const payload = { name, version, project: row.project_key };
  const within = async (trx: Db) => {
    await releaseHolds(trx, holder);
    await deleteVersionRows(trx, row.id);
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'release',
        action: 'delete',
        target: holder,
        ...(removedBy ? { message: `asked by ${removedBy}` } : {}),
      },
      event:
        removedBy !== undefined
          ? { type: 'release_bundle.removed', payload: { ...payload, from: removedBy } }
          : { type: 'release_bundle.deleted', payload },
    });
  };
  const content = repoContent(request);
  if (await content.stored(RELEASE_BUNDLES_REPO, manifestPath(name, version)))
    await content.remove(RELEASE_BUNDLES_REPO, manifestPath(name, version), { within });
  else await request.server.db.transaction().execute(within);
}

const isGpg = (publicKey: string) => publicKey.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----');

/**
 * Verifies a version on demand: its manifest, as stored, against the signature made when it was
 * created (a changed manifest is detected), then every artifact the manifest lists against the
 * file now at its path (missing, or another SHA-256).
 */
export async function verifyVersion(request: FastifyRequest, name: string, version: string): Promise<VerifyAnswer> {
  const row = await readableVersion(request, name, version);
  const content = repoContent(request);
  const base = { key_fingerprint: row.key_fingerprint, artifacts_checked: 0, artifacts_failed: [] };
  const item = await content.stored(RELEASE_BUNDLES_REPO, manifestPath(name, version));
  if (!item)
    return { ...base, verified: false, signature: 'missing', message: RELEASE_BUNDLE_MESSAGES.manifestMissing };
  const bytes = await content.read(item);
  const valid = await signatureHolds(isGpg(row.public_key) ? 'GPG' : 'RSA', row.public_key, bytes, row.signature);
  if (!valid)
    return { ...base, verified: false, signature: 'invalid', message: RELEASE_BUNDLE_MESSAGES.tamperedManifest };
  const manifest = JSON.parse(bytes.toString('utf8')) as ReleaseBundleManifest;
  const failed: { path: string; reason: string }[] = [];
  for (const artifact of manifest.artifacts) {
    const full = `${artifact.repository_key}/${artifact.path}`;
    const now = await content.stored(artifact.repository_key, artifact.path);
    if (!now) failed.push({ path: full, reason: 'missing' });
    else if (now.sha256 !== artifact.sha256) failed.push({ path: full, reason: `SHA-256 is now ${now.sha256}` });
  }
  return {
    key_fingerprint: row.key_fingerprint,
    verified: failed.length === 0,
    signature: 'valid',
    artifacts_checked: manifest.artifacts.length,
    artifacts_failed: failed,
    message: failed.length
      ? fill(RELEASE_BUNDLE_MESSAGES.artifactsChanged, { count: String(failed.length) })
      : RELEASE_BUNDLE_MESSAGES.verified,
  };
}

/**
 * Takes in a version another deployment distributed here, once its files are here: the manifest
 * checked against its signature (with the key sent along, from a deployment paired with this one),
 * every artifact it lists found here with its SHA-256, then recorded as received — its manifest,
 * row, artifacts and holds in one transaction, as a version made here. The same version received
 * again changes nothing.
 */
export async function receiveVersion(
  request: FastifyRequest,
  name: string,
  version: string,
  body: ReceiveBundleBody,
): Promise<{ created: boolean }> {
  const { db } = request.server;
  const bytes = Buffer.from(body.manifest, 'utf8');
  let manifest: ReleaseBundleManifest;
  try {
    manifest = JSON.parse(body.manifest) as ReleaseBundleManifest;
  } catch {
    throw badRequest(RELEASE_BUNDLE_MESSAGES.tamperedManifest);
  }
  if (manifest.release_bundle_name !== name || manifest.release_bundle_version !== version)
    throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.receivedMismatch, { name, version }));
  const type = isGpg(body.public_key) ? 'GPG' : 'RSA';
  if (!(await signatureHolds(type, body.public_key, bytes, body.signature)))
    throw badRequest(RELEASE_BUNDLE_MESSAGES.tamperedManifest);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const existing = await findVersion(db, name, version);
  if (existing) {
    if (existing.manifest_sha256 === sha256) return { created: false };
    throw conflict(fill(RELEASE_BUNDLE_MESSAGES.exists, { name, version }));
  }
  const content = repoContent(request);
  const packageTypes = new Map<string, string>();
  const missing: string[] = [];
  for (const artifact of manifest.artifacts) {
    const item = await content.stored(artifact.repository_key, artifact.path);
    if (!item || item.sha256 !== artifact.sha256) missing.push(`${artifact.repository_key}/${artifact.path}`);
    if (!packageTypes.has(artifact.repository_key))
      packageTypes.set(
        artifact.repository_key,
        (await content.repository(artifact.repository_key).catch(() => undefined))?.package_type ?? 'generic',
      );
  }
  if (missing.length)
    throw conflict(
      fill(RELEASE_BUNDLE_MESSAGES.receivedMissing, { count: String(missing.length), first: missing[0]! }),
    );
  await ensureReleaseBundlesRepository(db);
  const created = Date.parse(manifest.created);
  const row: ReleaseBundleVersionsTable = {
    id: randomUUID(),
    name,
    version,
    project_key: manifest.project_key || DEFAULT_BUNDLE_PROJECT,
    description: body.description,
    source_type: body.source_type,
    sources: JSON.stringify(body.sources),
    signing_key: body.signing_key,
    key_fingerprint: body.key_fingerprint,
    public_key: body.public_key,
    signature: body.signature,
    manifest_sha256: sha256,
    artifact_count: manifest.artifacts.length,
    total_size: manifest.artifacts.reduce((sum, a) => sum + a.size, 0),
    origin: 'received',
    origin_deployment: body.origin,
    created_at: Number.isFinite(created) ? created : Date.now(),
    created_by: manifest.created_by,
  };
  await storeVersion(
    request,
    row,
    manifest.artifacts.map((a) => ({
      repo_key: a.repository_key,
      path: a.path,
      sha256: a.sha256,
      size: a.size,
      package_type: packageTypes.get(a.repository_key) ?? 'generic',
      source: `received from ${body.origin}`,
    })),
    bytes,
    { 'release-bundle.origin': [body.origin] },
    async (trx) => {
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'release',
          action: 'receive',
          target: holderOf(name, version),
          after: { from: body.origin },
        },
        event: {
          type: 'release_bundle.received',
          payload: { name, version, project: row.project_key, from: body.origin, artifacts: manifest.artifacts.length },
        },
      });
    },
  );
  return { created: true };
}
