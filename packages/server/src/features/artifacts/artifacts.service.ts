import type { ReadFilter } from '../../core/permissions.js';
import type { FormatFacts } from '../../core/context.plugin.js';
import type { Readable } from 'node:stream';
import picomatch from 'picomatch';
import {
  ARTIFACT_MESSAGES,
  COPY_REPORT_PATHS,
  PROPERTY_KEY_PATTERN,
  REPOSITORY_MESSAGES,
  type ConflictPolicy,
  TRASHCAN_REPO,
  formatMessage,
  type Properties,
} from '@arca/contracts';
import type { Deployed } from './artifacts.uris.js';
import { artifactorySize } from './artifacts.usage.js';
import {
  allowAll,
  ensureFolders,
  putFile,
  relocate,
  repositoryOrTrash,
  type Authorize,
  type Location,
} from './artifacts.items.js';
import type { Db } from '../../db/database.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { recordChange } from '../../core/changes.js';
import type { BinaryStore, PendingBinary } from '../../storage/binary-store.js';
import { findRepository, parseMembers } from '../repositories/index.js';
import {
  deleteProperties,
  findBinary,
  findItem,
  findSubtree,
  lockItem,
  propertiesOf,
  putProperties,
} from './artifacts.store.js';

const fill = formatMessage;

export interface Checksums {
  sha1?: string;
  sha256?: string;
  md5?: string;
}

export interface ArtifactContext {
  db: Db;
  store: BinaryStore;
  log?: { warn(obj: object, msg: string): void };
  /** Limits listings to what the caller may read; absent or null shows everything. */
  visible?: ReadFilter;
  /** How long a remote repository's cached file stays fresh (the format decides); undefined: for ever. */
  metadataMaxAgeMs?: (repo: RepositoryRow, path: string) => number | undefined;
  /**
   * Where a remote repository's upstream serves a stored path: URL-encoded and relative to the
   * repository's URL, or an absolute address (a file an index lists on another host).
   */
  upstreamPath?: (repo: RepositoryRow, path: string) => string;
  upstreamHeaders?: (repo: RepositoryRow, path: string) => Record<string, string>;
  /** The token scope a registry upstream needs for a path; with one, the upstream is asked as Docker clients ask. */
  upstreamAuth?: FormatFacts['upstreamAuth'];
  /** Where the upstream's own metadata says a path is served (`metadata` fetches it when missing or stale). */
  upstreamAddress?: FormatFacts['upstreamAddress'];
  /**
   * Where the upstream listed a path that lives on another host than its own; absent: never.
   * `cached` reads the repository's cached files without fetching.
   */
  listedElsewhere?: (
    repo: RepositoryRow,
    path: string,
    cached: (path: string) => Promise<Buffer | undefined>,
  ) => Promise<string | undefined>;
  /** Hosts remote fetches may reach although loopback or link-local (read when a fetch happens). */
  allowedHosts?: () => Promise<readonly string[]>;
}

function splitPatterns(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Ant-style include/exclude patterns of a repository. */
export function acceptsPath(repo: RepositoryRow, path: string): boolean {
  const includes = splitPatterns(repo.includes_pattern);
  const excludes = splitPatterns(repo.excludes_pattern);
  const options = { dot: true };
  const included = includes.length === 0 || includes.some((p) => picomatch.isMatch(path, p, options));
  return included && !excludes.some((p) => picomatch.isMatch(path, p, options));
}

/**
 * The console's key rule, applied to every way properties arrive (console, storage API, matrix
 * parameters): no control characters or markup, and `trash.*` belongs to the trash can.
 */
export function checkProperties(properties: Properties): void {
  for (const [key, values] of Object.entries(properties)) {
    checkPropertyKey(key);
    for (const value of values) {
      // eslint-disable-next-line no-control-regex
      if (value.length > 4000 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value))
        throw badRequest(ARTIFACT_MESSAGES.propertyValue);
    }
  }
}

export function checkPropertyKey(key: string): void {
  if (!PROPERTY_KEY_PATTERN.test(key)) throw badRequest(ARTIFACT_MESSAGES.propertyKey);
  if (key.toLowerCase().startsWith('trash.')) throw badRequest(ARTIFACT_MESSAGES.propertyKeyReserved);
}

/** Where a deploy to `repo` lands: the repository itself, or a virtual's default deployment repository. */
export async function deployTarget(db: Db, repo: RepositoryRow): Promise<RepositoryRow> {
  if (repo.key === TRASHCAN_REPO) throw new HttpError(403, `Cannot deploy to '${TRASHCAN_REPO}'.`);
  if (repo.rclass === 'remote') throw new HttpError(405, fill(ARTIFACT_MESSAGES.remoteDeploy, { key: repo.key }));
  if (repo.rclass === 'virtual') {
    const target = repo.default_deployment_repo ? await findRepository(db, repo.default_deployment_repo) : undefined;
    if (!target) throw new HttpError(405, fill(ARTIFACT_MESSAGES.virtualNoTarget, { key: repo.key }));
    return target;
  }
  return repo;
}

/** The SHA-1 and MD5 of stored contents, by SHA-256: a content's checksums never change. */
const knownChecksums = new Map<string, { sha1: string; md5: string; sha256: string }>();
const KNOWN_CHECKSUMS = 100_000;

export async function checksumsOf(db: Db, sha256: string): Promise<{ sha1: string; md5: string; sha256: string }> {
  const known = knownChecksums.get(sha256);
  if (known) return known;
  const binary = await findBinary(db, { sha256 });
  if (!binary) throw new Error(`binary ${sha256} has no row`);
  const checksums = { sha1: binary.sha1, md5: binary.md5, sha256: binary.sha256 };
  if (knownChecksums.size >= KNOWN_CHECKSUMS) knownChecksums.delete(knownChecksums.keys().next().value!);
  knownChecksums.set(sha256, checksums);
  return checksums;
}

function verifyChecksums(expected: Checksums, actual: { sha1: string; sha256: string; md5: string }): void {
  const pairs: [keyof Checksums, string][] = [
    ['sha256', 'X-Checksum-Sha256'],
    ['sha1', 'X-Checksum-Sha1'],
    ['md5', 'X-Checksum-Md5'],
  ];
  for (const [name, header] of pairs) {
    const want = expected[name]?.trim().toLowerCase();
    if (want && want !== actual[name]) {
      throw conflict(fill(ARTIFACT_MESSAGES.checksumMismatch, { header, expected: want, actual: actual[name] }));
    }
  }
}

export interface DeployInput {
  repo: RepositoryRow;
  path: string;
  properties: Properties;
  body: Readable | undefined;
  contentLength: number | undefined;
  checksums: Checksums;
  checksumDeploy: boolean;
  actor: string;
  /**
   * Deploy only if the file now at the path has this SHA-256 (null: only if nothing is there),
   * checked in the deploy's transaction; 409 otherwise. Metadata that several writers update
   * (an npm packument) is read, changed and written back with it, and retried on conflict.
   */
  ifCurrent?: string | null;
  /** The content, already written to the store's temporary area with its digests (instead of `body`). */
  written?: PendingBinary;
  /** Runs in the deploy's transaction once the file is recorded (`DeployRequest.within`). */
  within?: (trx: Db, item: ItemRow) => Promise<void>;
}

/**
 * Deploys one file: the content is streamed to a temporary file while its digests are computed,
 * checked against the client's checksums, moved into the store, and only then recorded, with its
 * folders, properties and event, in one transaction. A failure at any point leaves nothing visible.
 */
/**
 * A local repository with a storage quota takes a file only while its files, this one included
 * (less the one it replaces), stay within it: 413 with what is stored, what would be added and the quota.
 */
async function checkQuota(db: Db, target: RepositoryRow, path: string, size: number): Promise<void> {
  const quota = Number(target.quota_bytes);
  if (!quota) return;
  const [usage, replaced] = await Promise.all([
    db.selectFrom('repository_usage').select('size').where('repo_key', '=', target.key).executeTakeFirst(),
    findItem(db, target.key, path),
  ]);
  const used = Number(usage?.size ?? 0) - (replaced && replaced.folder !== 1 ? Number(replaced.size) : 0);
  if (used + size <= quota) return;
  throw new HttpError(
    413,
    fill(REPOSITORY_MESSAGES.overQuota, {
      key: target.key,
      used: artifactorySize(used),
      size: artifactorySize(size),
      quota: artifactorySize(quota),
    }),
  );
}

export async function deploy(ctx: ArtifactContext, input: DeployInput): Promise<Deployed> {
  const { db, store } = ctx;
  if (!input.path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
  checkProperties(input.properties);
  const target = await deployTarget(db, input.repo);
  if (!acceptsPath(target, input.path)) {
    throw new HttpError(403, fill(ARTIFACT_MESSAGES.patternRefused, { path: input.path, key: target.key }));
  }
  // refused before a byte is read when the size is announced, and checked again once it is known
  if (input.contentLength !== undefined) await checkQuota(db, target, input.path, input.contentLength);
  const now = Date.now();
  let binary: { sha256: string; sha1: string; md5: string; size: number };
  if (input.checksumDeploy) {
    if (!input.checksums.sha256 && !input.checksums.sha1)
      throw badRequest(ARTIFACT_MESSAGES.checksumDeployNeedsChecksum);
    const found = await findBinary(db, input.checksums);
    // touched, so that garbage collection keeps it while this deploy records its use
    if (!found || !(await store.touch(found.sha256))) throw notFound(ARTIFACT_MESSAGES.checksumDeployNotFound);
    verifyChecksums(input.checksums, found);
    binary = { sha256: found.sha256, sha1: found.sha1, md5: found.md5, size: Number(found.size) };
  } else {
    let pending: PendingBinary;
    if (input.written) pending = input.written;
    else {
      if (!input.body) throw badRequest(ARTIFACT_MESSAGES.uploadIncomplete);
      try {
        pending = await store.write(input.body, input.contentLength);
      } catch {
        throw badRequest(ARTIFACT_MESSAGES.uploadIncomplete);
      }
    }
    try {
      if (input.contentLength !== undefined && pending.size !== input.contentLength) {
        throw badRequest(ARTIFACT_MESSAGES.uploadIncomplete);
      }
      verifyChecksums(input.checksums, pending);
      await checkQuota(db, target, input.path, pending.size);
    } catch (error) {
      await pending.discard();
      throw error;
    }
    await pending.commit();
    binary = { sha256: pending.sha256, sha1: pending.sha1, md5: pending.md5, size: pending.size };
  }

  const row = await db.transaction().execute(async (trx) => {
    if (input.ifCurrent !== undefined) {
      const current = await lockItem(trx, target.key, input.path);
      if ((current?.sha256 ?? null) !== input.ifCurrent) {
        throw conflict(fill(ARTIFACT_MESSAGES.changedMeanwhile, { path: input.path }));
      }
    }
    const item = await putFile(trx, target.key, input.path, binary, input.actor, now);
    if (Object.keys(input.properties).length) await putProperties(trx, item.id, input.properties);
    await input.within?.(trx, item);
    await recordChange(trx, input.actor, {
      event: {
        type: 'artifact.deployed',
        repoKey: target.key,
        path: input.path,
        payload: { sha256: binary.sha256, size: binary.size },
      },
    });
    return item;
  });
  return { repoKey: target.key, item: row, checksums: { sha1: binary.sha1, md5: binary.md5, sha256: binary.sha256 } };
}

/** Stores a file fetched from a remote repository's upstream in its cache. */
export async function cacheRemoteFile(
  ctx: ArtifactContext,
  repo: RepositoryRow,
  path: string,
  body: Readable,
  expected: Checksums,
): Promise<ItemRow> {
  const pending = await ctx.store.write(body);
  try {
    verifyChecksums(expected, pending);
  } catch (error) {
    await pending.discard();
    throw error;
  }
  await pending.commit();
  const now = Date.now();
  return ctx.db.transaction().execute(async (trx) => {
    const item = await putFile(trx, repo.key, path, pending, 'remote', now);
    await recordChange(trx, 'remote', {
      event: {
        type: 'artifact.deployed',
        repoKey: repo.key,
        path,
        payload: { sha256: pending.sha256, size: pending.size, cached: true },
      },
    });
    return item;
  });
}

/** Copies a subtree: new items pointing at the same contents, properties included. */
/** One item of a copy or move and where it goes. */
interface Step {
  item: ItemRow;
  newPath: string;
  existing: ItemRow | undefined;
}

async function duplicate(trx: Db, steps: Step[], to: Location, actor: string, now: number): Promise<void> {
  if (to.path) await ensureFolders(trx, to.repoKey, to.path, actor, now);
  for (const { item, newPath, existing } of steps) {
    if (item.folder === 1) {
      if (!existing) await ensureFolders(trx, to.repoKey, `${newPath}/x`, actor, now);
      continue;
    }
    const binary = await findBinary(trx, { sha256: item.sha256! });
    if (!binary) throw new Error(`binary of ${item.path} is missing`);
    const copy = await putFile(trx, to.repoKey, newPath, { ...binary, size: Number(binary.size) }, actor, now);
    const properties = await propertiesOf(trx, item.id);
    if (Object.keys(properties).length) await putProperties(trx, copy.id, properties);
  }
}

async function checkCopyTarget(db: Db, from: Location, to: Location): Promise<RepositoryRow> {
  const source = await repositoryOrTrash(db, from.repoKey);
  const target = await repositoryOrTrash(db, to.repoKey);
  if (target.key === TRASHCAN_REPO || target.rclass !== 'local') {
    throw badRequest(
      `'${to.repoKey}' is not a local repository: items can only be copied or moved into local repositories.`,
    );
  }
  if (source.key !== TRASHCAN_REPO && source.package_type !== target.package_type) {
    throw badRequest(
      fill(ARTIFACT_MESSAGES.packageTypeDiffers, {
        key: target.key,
        targetType: target.package_type,
        sourceType: source.package_type,
      }),
    );
  }
  if (from.repoKey === to.repoKey && (to.path === from.path || to.path.startsWith(`${from.path}/`))) {
    throw badRequest(ARTIFACT_MESSAGES.copyIntoItself);
  }
  return target;
}

/** What a copy or move does with files that already exist at the target. */
export interface CopyMoveOptions {
  /** Work everything out and answer the report, then roll back. */
  dryRun?: boolean;
  /** 'fail' refuses the whole operation when a target file exists (409, nothing changed). */
  conflicts?: ConflictPolicy;
}

export interface CopyMoveResult {
  files: number;
  overwritten: number;
  skipped: number;
  conflicts: string[];
  conflictCount: number;
}

/** Raised inside the transaction of a dry run so that it rolls back, carrying the report out. */
class DryRun {
  constructor(readonly result: CopyMoveResult) {}
}

/**
 * Copies or moves an item (and everything below it) to `to`. Everything is decided inside one
 * transaction: a refusal (rights, patterns, file/folder clash, conflicts under 'fail') changes nothing.
 * `authorize` receives the items that will be written with their target paths, and the target paths
 * that will be overwritten (which need delete there).
 */
export async function copyOrMove(
  ctx: ArtifactContext,
  mode: 'copy' | 'move',
  from: Location,
  to: Location,
  actor: string,
  authorize: Authorize<string[]> = allowAll,
  options: CopyMoveOptions = {},
): Promise<CopyMoveResult> {
  const { db } = ctx;
  const policy = options.conflicts ?? 'overwrite';
  const target = await checkCopyTarget(db, from, to);
  const now = Date.now();
  try {
    return await db.transaction().execute(async (trx) => {
      const items = await findSubtree(trx, from.repoKey, from.path);
      if (!items.length) throw notFound();
      const targetPathOf = (item: ItemRow) => (to.path + item.path.slice(from.path.length)).replace(/^\/+/, '');
      const all: Step[] = [];
      for (const item of items) {
        const newPath = targetPathOf(item);
        const existing = await findItem(trx, to.repoKey, newPath);
        if (existing && existing.folder !== item.folder) {
          throw conflict(
            fill(item.folder ? ARTIFACT_MESSAGES.folderIsFile : ARTIFACT_MESSAGES.fileIsFolder, { path: newPath }),
          );
        }
        if (item.folder === 0 && !acceptsPath(target, newPath)) {
          throw new HttpError(403, fill(ARTIFACT_MESSAGES.patternRefused, { path: newPath, key: target.key }));
        }
        all.push({ item, newPath, existing });
      }
      const clashes = all.filter((s) => s.item.folder === 0 && s.existing);
      const conflictPaths = clashes.map((s) => s.newPath);
      if (clashes.length && policy === 'fail' && !options.dryRun) {
        throw conflict(
          fill(ARTIFACT_MESSAGES.targetsExist, {
            count: String(clashes.length),
            paths: conflictPaths.slice(0, 5).join(', ') + (clashes.length > 5 ? ', …' : ''),
          }),
        );
      }
      const skipping = policy === 'skip' ? new Set(clashes.map((s) => s.item.path)) : new Set<string>();
      // a moved folder that keeps a skipped file stays where it is; its copy is made at the target
      const keeps = (folder: ItemRow) =>
        [...skipping].some((p) => folder.path === '' || p.startsWith(`${folder.path}/`));
      const steps = all.filter((s) => !skipping.has(s.item.path));
      await authorize(
        steps.map((s) => s.item),
        targetPathOf,
        steps.filter((s) => s.item.folder === 0 && s.existing).map((s) => s.newPath),
      );
      const result: CopyMoveResult = {
        files: steps.filter((s) => s.item.folder === 0).length,
        overwritten: policy === 'skip' ? 0 : clashes.length,
        skipped: skipping.size,
        conflicts: conflictPaths.slice(0, COPY_REPORT_PATHS),
        conflictCount: clashes.length,
      };
      if (options.dryRun) throw new DryRun(result);
      if (mode === 'copy') await duplicate(trx, steps, to, actor, now);
      else {
        const kept = steps.filter((s) => s.item.folder === 1 && keeps(s.item));
        await duplicate(trx, kept, to, actor, now);
        const moving = steps.filter((s) => !kept.includes(s)).map((s) => s.item);
        await relocate(trx, moving, from, to, actor, now);
      }
      await recordChange(trx, actor, {
        event: {
          type: mode === 'copy' ? 'artifact.copied' : 'artifact.moved',
          repoKey: from.repoKey,
          path: from.path,
          payload: { to },
        },
      });
      return result;
    });
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

/** The item at `path`, with everything below it when `recursive`; 404 when there is none. */
async function itemsToAnnotate(trx: Db, repoKey: string, path: string, recursive: boolean): Promise<ItemRow[]> {
  const items = recursive
    ? await findSubtree(trx, repoKey, path)
    : [await findItem(trx, repoKey, path)].filter((i) => i !== undefined);
  if (!items.length) throw notFound();
  return items;
}

/** A change of properties: replace the values of some keys, or remove keys. */
/** Properties to set (values replace a key's), to remove, or both at once (Artifactory's PATCH). */
export type PropertyChange = { set: Properties; remove?: string[] } | { set?: Properties; remove: string[] };

/**
 * Changes properties on an item, and on everything below it when recursive, with its event in the
 * same transaction.
 */
export async function changeItemProperties(
  ctx: ArtifactContext,
  target: { repoKey: string; path: string; recursive: boolean },
  change: PropertyChange,
  actor: string,
  authorize: Authorize = allowAll,
): Promise<void> {
  const { db } = ctx;
  const { repoKey, path, recursive } = target;
  await repositoryOrTrash(db, repoKey);
  const { set, remove } = change;
  if (set) checkProperties(set);
  remove?.forEach(checkPropertyKey);
  await db.transaction().execute(async (trx) => {
    const items = await itemsToAnnotate(trx, repoKey, path, recursive);
    await authorize(items);
    for (const item of items) {
      if (remove?.length) await deleteProperties(trx, item.id, remove);
      if (set) await putProperties(trx, item.id, set);
    }
    if (remove?.length)
      await recordChange(trx, actor, {
        event: {
          type: 'artifact.property.deleted',
          repoKey,
          path,
          payload: { keys: remove, recursive },
        },
      });
    if (set && Object.keys(set).length)
      await recordChange(trx, actor, {
        event: {
          type: 'artifact.property.added',
          repoKey,
          path,
          payload: { properties: set, recursive },
        },
      });
  });
}

/** Members of a virtual repository, in resolution order. */
export async function virtualMembers(db: Db, repo: RepositoryRow): Promise<RepositoryRow[]> {
  const members: RepositoryRow[] = [];
  for (const key of parseMembers(repo)) {
    const member = await findRepository(db, key);
    if (member) members.push(member);
  }
  return members;
}
