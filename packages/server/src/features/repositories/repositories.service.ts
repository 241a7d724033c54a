import {
  REPOSITORY_MESSAGES,
  TRASHCAN_REPO,
  BUILD_INFO_REPO,
  canonicalPackageType,
  defaultLayout,
  formatMessage,
  repositoryConfigSchema,
  type ArcaEvent,
  type RepositoryAnswer,
  type RepositoryConfig,
  type RepositoryConfigInput,
  type RepositoryListItem,
  type RepositoryReaderAnswer,
  type RemoteState,
  type RemoteTestAnswer,
  PROXY_MESSAGES,
  CERTIFICATE_MESSAGES,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { bumpConfigGeneration } from '../../core/config-cache.js';
import type { RepositoryRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import type { FastifyRequest } from 'fastify';
import { recordChange, type ChangeActor, type OnChange } from '../../core/changes.js';
import { auditActor } from '../../core/audit.js';
import { findProxy } from '../../core/proxies.js';
import { findCertificate } from '../../core/certificates.js';
import { OutboundRefused, checkOutboundUrl } from '../../core/outbound.js';
import {
  deleteRepository,
  findRepository,
  findRepositoryIgnoringCase,
  hasItems,
  insertRepository,
  insertRepositoryIfAbsent,
  listRepositories,
  updateRepository,
} from './repositories.store.js';
import { forgetRemoteState, reasonOf, upstreamFetch } from './repositories.upstream.js';

/** Repository rows and usage as other features read them, through this service. */
export { findRepository, listRepositories, usageByRepository } from './repositories.store.js';

/** Keys that would clash with the server's own paths. */
const RESERVED_KEYS = new Set([TRASHCAN_REPO, 'api', 'ui', 'list', 'webapp', 'favicon.ico', 'v2']);

const iso = (ms: number) => new Date(ms).toISOString();

/** One change of a repository's configuration, recorded (audit and event) in its transaction. */
export interface RepositoryChange {
  action: 'create' | 'update' | 'delete';
  row: RepositoryRow;
  before?: RepositoryRow;
  /** What else happened (a deletion with content: how much went). */
  message?: string;
}

/** Records repository changes of a request: the audit entry (configuration before and after) and the event. */
export function recordRepositoryChange(request: FastifyRequest): OnChange<RepositoryChange> {
  return recordRepositoryChangeAs(auditActor(request));
}

/** The same, for a change made on behalf of `who` away from their request (a deletion another node finishes). */
export function recordRepositoryChangeAs(who: ChangeActor): OnChange<RepositoryChange> {
  const eventOf = (action: RepositoryChange['action'], row: RepositoryRow): ArcaEvent =>
    action === 'create'
      ? { type: 'repository.created', repoKey: row.key, payload: { rclass: row.rclass, packageType: row.package_type } }
      : {
          type: action === 'update' ? 'repository.updated' : 'repository.deleted',
          repoKey: row.key,
          payload: { rclass: row.rclass, packageType: row.package_type },
        };
  return (trx, { action, row, before, message }) =>
    recordChange(trx, who, {
      audit: {
        category: 'repository',
        action,
        target: row.key,
        ...(before ? { before: toAnswer(before) } : {}),
        ...(action !== 'delete' ? { after: toAnswer(row) } : {}),
        ...(message ? { message } : {}),
      },
      event: eventOf(action, row),
    });
}
const fill = (message: string, values: Record<string, string>) => formatMessage(message, values);

export function parseMembers(row: RepositoryRow): string[] {
  return JSON.parse(row.members) as string[];
}

export function toAnswer(row: RepositoryRow): RepositoryAnswer {
  return {
    key: row.key,
    rclass: row.rclass as RepositoryAnswer['rclass'],
    packageType: row.package_type,
    description: row.description,
    notes: row.notes,
    includesPattern: row.includes_pattern,
    excludesPattern: row.excludes_pattern,
    repoLayoutRef: row.repo_layout_ref,
    url: row.url,
    username: row.username,
    proxy: row.proxy_key,
    clientTlsCertificate: row.client_tls_certificate,
    offline: Number(row.offline) === 1,
    socketTimeoutMillis: Number(row.socket_timeout_ms),
    storageQuotaBytes: Number(row.quota_bytes),
    hasPassword: row.password !== null && row.password !== '',
    repositories: parseMembers(row),
    defaultDeploymentRepo: row.default_deployment_repo,
    metadataRetrievalCachePeriodSecs: Number(row.metadata_max_age_secs),
    checksumPolicyType: row.checksum_policy as RepositoryAnswer['checksumPolicyType'],
    suppressPomConsistencyChecks: Number(row.suppress_pom_checks) === 1,
    redeployReleases: Number(row.redeploy_releases) === 1,
    created: iso(row.created_at),
    lastModified: iso(row.updated_at),
  };
}

export function toReaderAnswer(row: RepositoryRow): RepositoryReaderAnswer {
  return {
    key: row.key,
    rclass: row.rclass as RepositoryReaderAnswer['rclass'],
    packageType: row.package_type,
    description: row.description,
    repoLayoutRef: row.repo_layout_ref,
    ...(row.rclass === 'remote' ? { url: row.url } : {}),
    ...(row.rclass === 'virtual'
      ? { repositories: parseMembers(row), defaultDeploymentRepo: row.default_deployment_repo }
      : {}),
  };
}

export function toListItem(row: RepositoryRow): RepositoryListItem {
  return {
    key: row.key,
    type: row.rclass.toUpperCase() as RepositoryListItem['type'],
    description: row.description,
    url: row.url,
    packageType: row.package_type,
  };
}

function validUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks a configuration against the rules and the other repositories; returns the row to store. */
async function validate(
  db: Db,
  config: RepositoryConfig,
  existing: RepositoryRow | undefined,
  now: number,
  allowedHosts: readonly string[] = [],
): Promise<RepositoryRow> {
  const { key } = config;
  if (!existing) {
    if (RESERVED_KEYS.has(key.toLowerCase())) throw badRequest(fill(REPOSITORY_MESSAGES.keyReserved, { key }), 'key');
    if (await findRepositoryIgnoringCase(db, key)) throw conflict(fill(REPOSITORY_MESSAGES.keyTaken, { key }), 'key');
  } else if (existing.rclass !== config.rclass) {
    throw badRequest(REPOSITORY_MESSAGES.classChange);
  }
  const packageType = canonicalPackageType(config.packageType);
  if (!packageType) throw badRequest(fill(REPOSITORY_MESSAGES.unknownType, { type: config.packageType }));
  if (config.rclass === 'remote') {
    if (!config.url.trim()) throw badRequest(REPOSITORY_MESSAGES.urlRequired, 'url');
    if (!validUrl(config.url.trim())) throw badRequest(REPOSITORY_MESSAGES.invalidUrl, 'url');
    if (config.proxy && !(await findProxy(db, config.proxy))) {
      throw badRequest(fill(PROXY_MESSAGES.notFound, { key: config.proxy }), 'proxy');
    }
    if (config.clientTlsCertificate) {
      const certificate = await findCertificate(db, config.clientTlsCertificate);
      if (!certificate) {
        throw badRequest(
          fill(CERTIFICATE_MESSAGES.notFound, { alias: config.clientTlsCertificate }),
          'clientTlsCertificate',
        );
      }
      if (certificate.kind !== 'client') {
        throw badRequest(
          fill(CERTIFICATE_MESSAGES.notClient, { alias: config.clientTlsCertificate }),
          'clientTlsCertificate',
        );
      }
    }
    try {
      checkOutboundUrl(config.url.trim(), allowedHosts);
    } catch (error) {
      if (error instanceof OutboundRefused) throw badRequest(error.message, 'url');
      throw error;
    }
  }
  let members: string[] = [];
  let defaultDeploymentRepo = '';
  if (config.rclass === 'virtual') {
    members = [...new Set(config.repositories.map((m) => m.trim()).filter(Boolean))];
    for (const member of members) {
      const row = await findRepository(db, member);
      if (!row) throw badRequest(fill(REPOSITORY_MESSAGES.memberUnknown, { key: member }));
      if (row.rclass === 'virtual') throw badRequest(fill(REPOSITORY_MESSAGES.memberVirtual, { key: member }));
      if (packageType !== 'generic' && row.package_type !== packageType) {
        throw badRequest(
          fill(REPOSITORY_MESSAGES.memberType, { key: member, memberType: row.package_type, type: packageType }),
        );
      }
    }
    defaultDeploymentRepo = config.defaultDeploymentRepo.trim();
    if (defaultDeploymentRepo) {
      const target = await findRepository(db, defaultDeploymentRepo);
      if (!members.includes(defaultDeploymentRepo) || target?.rclass !== 'local') {
        throw badRequest(fill(REPOSITORY_MESSAGES.deployTargetNotMember, { key: defaultDeploymentRepo }));
      }
    }
  }
  return {
    key,
    rclass: config.rclass,
    package_type: packageType,
    description: config.description,
    notes: config.notes,
    includes_pattern: config.includesPattern.trim() || '**/*',
    excludes_pattern: config.excludesPattern.trim(),
    repo_layout_ref: config.repoLayoutRef || defaultLayout(packageType),
    url: config.rclass === 'remote' ? config.url.trim() : '',
    username: config.rclass === 'remote' ? config.username : '',
    proxy_key: config.rclass === 'remote' ? config.proxy : '',
    client_tls_certificate: config.rclass === 'remote' ? config.clientTlsCertificate : '',
    offline: config.rclass === 'remote' && config.offline ? 1 : 0,
    socket_timeout_ms: config.socketTimeoutMillis,
    quota_bytes: config.rclass === 'local' ? config.storageQuotaBytes : 0,
    password:
      config.rclass !== 'remote'
        ? null
        : config.password !== undefined
          ? config.password
          : (existing?.password ?? null),
    members: JSON.stringify(members),
    default_deployment_repo: defaultDeploymentRepo,
    metadata_max_age_secs: config.metadataRetrievalCachePeriodSecs,
    checksum_policy: config.checksumPolicyType,
    suppress_pom_checks: config.suppressPomConsistencyChecks ? 1 : 0,
    redeploy_releases: config.redeployReleases ? 1 : 0,
    // assigned through the project calls, kept on edits
    project_key: existing?.project_key ?? null,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
}

function parseConfig(input: unknown): RepositoryConfig {
  const result = repositoryConfigSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw issue.path.length
      ? badRequest(`${issue.path.join('.')}: ${issue.message}`, issue.path.join('.'))
      : badRequest(issue.message);
  }
  return result.data;
}

export async function getRepository(db: Db, key: string): Promise<RepositoryRow> {
  const row = await findRepository(db, key);
  if (!row) throw notFound(fill(REPOSITORY_MESSAGES.notFound, { key }));
  return row;
}

/** What a repository change may need besides its input. */
export interface RepositoryChangeOptions {
  now?: number;
  projectKey?: string | null;
  /** Hosts a remote repository may name although they are loopback or link-local. */
  allowedHosts?: readonly string[];
  /** The upstream a quick-created remote repository of a type proxies when none is given. */
  defaultUpstream?: (packageType: string) => string | undefined;
}

export async function createRepository(
  db: Db,
  input: unknown,
  record: OnChange<RepositoryChange>,
  { now = Date.now(), projectKey = null, allowedHosts = [] }: RepositoryChangeOptions = {},
): Promise<RepositoryRow> {
  const row = { ...(await validate(db, parseConfig(input), undefined, now, allowedHosts)), project_key: projectKey };
  await db.transaction().execute(async (trx) => {
    await insertRepository(trx, row);
    await record(trx, { action: 'create', row });
  });
  return row;
}

/** Applies a partial configuration over the stored one (Artifactory's POST semantics). */
export async function updateRepositoryConfig(
  db: Db,
  key: string,
  input: Record<string, unknown>,
  record: OnChange<RepositoryChange>,
  { now = Date.now(), allowedHosts = [] }: RepositoryChangeOptions = {},
): Promise<RepositoryRow> {
  const existing = await getRepository(db, key);
  const merged: RepositoryConfigInput = {
    ...(toAnswer(existing) as RepositoryConfigInput),
    ...(input as Partial<RepositoryConfigInput>),
    key,
  };
  const row = await validate(db, parseConfig(merged), existing, now, allowedHosts);
  await db.transaction().execute(async (trx) => {
    await updateRepository(trx, row);
    await record(trx, { action: 'update', row, before: existing });
  });
  // what was known of the upstream held for the settings it was learnt with
  if (row.rclass === 'remote') await forgetRemoteState(db, key);
  return row;
}

/**
 * Asks a remote repository's upstream, as the settings given would (URL, credentials — the stored
 * password when none is given —, proxy, client certificate, timeout), and says how it answered.
 * Nothing is saved.
 */
export async function testRemote(
  db: Db,
  input: Record<string, unknown>,
  allowedHosts: readonly string[],
): Promise<RemoteTestAnswer> {
  const key = typeof input.key === 'string' ? input.key : '';
  const existing = key ? await findRepository(db, key) : undefined;
  const merged = {
    ...(existing ? (toAnswer(existing) as RepositoryConfigInput) : {}),
    ...(input as Partial<RepositoryConfigInput>),
    rclass: 'remote' as const,
    key: key || 'remote-test',
  };
  if (existing && existing.rclass !== 'remote') throw badRequest(REPOSITORY_MESSAGES.testNotRemote);
  const row = { ...(await validate(db, parseConfig(merged), existing, Date.now(), allowedHosts)), offline: 0 };
  const url = row.url;
  let response;
  try {
    response = await upstreamFetch(db, row, url, { allowed: allowedHosts, credentials: true, probe: true });
  } catch (error) {
    return { ok: false, status: null, message: `${new URL(url).origin} could not be reached: ${reasonOf(error)}.` };
  }
  await response.body?.cancel().catch(() => undefined);
  const status = response.status;
  const answered = `${status} ${response.statusText}`.trim();
  const challenge = response.headers.get('www-authenticate') ?? '';
  if (status < 400) return { ok: true, status, message: `Connection successful: the upstream answered ${answered}.` };
  if (status === 401 && !row.username && /^bearer/i.test(challenge))
    return {
      ok: true,
      status,
      message: `Connection successful: the registry answered with its token challenge (${answered}), as registries do.`,
    };
  if (status === 401 || status === 403)
    return {
      ok: false,
      status,
      message: row.username
        ? `The upstream refused the credentials of '${row.username}' (${answered}).`
        : `The upstream needs credentials (${answered}): give a user name and password.`,
    };
  if (status === 404)
    return {
      ok: true,
      status,
      message: `Connection successful: the upstream has nothing at its root (${answered}), which is usual for many registries.`,
    };
  return { ok: false, status, message: `The upstream answered ${answered}.` };
}

/** How a remote repository's upstream answered last, and whether it is offline. */
export async function remoteStateOf(db: Db, key: string): Promise<RemoteState> {
  const repo = await getRepository(db, key);
  const row = await db.selectFrom('remote_states').selectAll().where('repo_key', '=', key).executeTakeFirst();
  return {
    offline: Number(repo.offline) === 1,
    reachable: row ? Number(row.reachable) === 1 : null,
    since: row ? iso(Number(row.since)) : null,
    lastError: row?.last_error ?? null,
  };
}

/**
 * Why a repository cannot be deleted now (a virtual repository or a project still lists it), or
 * undefined. Content is not a reason here: deleting with content is the artifacts feature's job.
 */
export async function deletionRefusal(db: Db, row: RepositoryRow): Promise<string | undefined> {
  if (row.key === BUILD_INFO_REPO) return `'${BUILD_INFO_REPO}' holds the build info and cannot be deleted.`;
  const user = (await listRepositories(db)).find((r) => r.rclass === 'virtual' && parseMembers(r).includes(row.key));
  if (user) return fill(REPOSITORY_MESSAGES.usedByVirtual, { key: row.key, virtual: user.key });
  if (row.project_key) return fill(REPOSITORY_MESSAGES.inProject, { key: row.key, project: row.project_key });
  return undefined;
}

/** Deletes an empty repository that no virtual repository or project lists. */
export async function removeRepository(
  db: Db,
  key: string,
  record: OnChange<RepositoryChange>,
  message?: string,
): Promise<void> {
  const row = await getRepository(db, key);
  const refusal = await deletionRefusal(db, row);
  if (refusal) throw conflict(refusal);
  if (await hasItems(db, key)) throw conflict(fill(REPOSITORY_MESSAGES.notEmpty, { key }));
  await db.transaction().execute(async (trx) => {
    await deleteRepository(trx, key);
    await record(trx, { action: 'delete', row, ...(message ? { message } : {}) });
  });
}

/** The local, remote (when there is an upstream) and virtual repositories quick creation makes of a type. */
function quickConfigs(packageType: string, prefix: string, remoteUrl: string): RepositoryConfigInput[] {
  const local = `${prefix}-local`;
  const remote = `${prefix}-remote`;
  return [
    { key: local, rclass: 'local', packageType },
    ...(remoteUrl ? [{ key: remote, rclass: 'remote' as const, packageType, url: remoteUrl }] : []),
    {
      key: prefix,
      rclass: 'virtual',
      packageType,
      repositories: remoteUrl ? [local, remote] : [local],
      defaultDeploymentRepo: local,
    },
  ];
}

async function createAll(
  db: Db,
  configs: RepositoryConfigInput[],
  record: OnChange<RepositoryChange>,
  { allowedHosts = [], projectKey = null }: RepositoryChangeOptions,
): Promise<RepositoryRow[]> {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const rows: RepositoryRow[] = [];
    for (const config of configs) {
      const row = {
        ...(await validate(trx, parseConfig(config), undefined, now, allowedHosts)),
        project_key: projectKey,
      };
      await insertRepository(trx, row);
      await record(trx, { action: 'create', row });
      rows.push(row);
    }
    return rows;
  });
}

/** A local, a remote and a virtual repository of one package type, created together or not at all. */
export async function quickCreate(
  db: Db,
  input: { packageType: string; prefix: string; remoteUrl: string },
  record: OnChange<RepositoryChange>,
  options: RepositoryChangeOptions = {},
): Promise<RepositoryRow[]> {
  const packageType = canonicalPackageType(input.packageType);
  if (!packageType) throw badRequest(fill(REPOSITORY_MESSAGES.unknownType, { type: input.packageType }));
  const remoteUrl = input.remoteUrl.trim() || options.defaultUpstream?.(packageType) || '';
  return createAll(db, quickConfigs(packageType, input.prefix, remoteUrl), record, options);
}

/**
 * Quick setup: for each package type, its local, remote and virtual repositories named after the
 * type (`npm-local`, `npm-remote`, `npm`), all of them in one transaction — one that fails (a key
 * taken, an unknown type) creates none.
 */
export async function quickSetup(
  db: Db,
  packageTypes: readonly string[],
  record: OnChange<RepositoryChange>,
  options: RepositoryChangeOptions = {},
): Promise<RepositoryRow[]> {
  const configs: RepositoryConfigInput[] = [];
  for (const requested of new Set(packageTypes)) {
    const packageType = canonicalPackageType(requested);
    if (!packageType) throw badRequest(fill(REPOSITORY_MESSAGES.unknownType, { type: requested }));
    configs.push(...quickConfigs(packageType, packageType, options.defaultUpstream?.(packageType) ?? ''));
  }
  return createAll(db, configs, record, options);
}

/**
 * A repository the server makes for itself (the build-info repository, with the first build),
 * unless it exists: every process then forgets the repository list it may have cached.
 */
export async function ensureSystemRepository(db: Db, row: RepositoryRow): Promise<void> {
  if (await findRepository(db, row.key)) return;
  if (await insertRepositoryIfAbsent(db, row)) await bumpConfigGeneration(db);
}
