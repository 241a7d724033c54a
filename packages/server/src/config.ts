import os from 'node:os';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { SERVICE_NAMES, type ServiceName } from '@arca/contracts';
import { DEFAULT_PASSWORD_HASH_COST } from './core/passwords.js';

/** Everything the server reads from its environment. See the README's configuration table. */
export interface Config {
  /** Root of everything Arca writes: database, binaries, keys, logs. */
  dataDir: string;
  host: string;
  port: number;
  /** Server processes sharing the port (`node:cluster`); 1 runs a single process. */
  workers: number;
  /** PostgreSQL connection string; embedded SQLite under `dataDir` when absent. */
  databaseUrl: string | undefined;
  /** Password of the `admin` user created on first start; generated and logged once when absent. */
  adminPassword: string | undefined;
  logLevel: string;
  /** Write logs under `<dataDir>/logs` as well as to stdout. */
  logToFiles: boolean;
  logToStdout: boolean;
  /** Where the other nodes reach this one; by default `http://<host>:<port>` once it listens. */
  nodeAddress: string | undefined;
  /**
   * How long a password package clients send (HTTP basic) stays verified, in milliseconds: a
   * directory user removed or disabled in the directory is refused once it has passed.
   */
  credentialsCacheMs: number;
  /** scrypt's cost (N, a power of two) for the password hashes made from now on. */
  passwordHashCost: number;
  /** Whether the Prometheus metrics are kept and answered at `/metrics`. */
  metricsEnabled: boolean;
  /** `/metrics` is open to anyone (a scrape inside a trusted network); else administrators or the scrape token. */
  metricsPublic: boolean;
  /** A bearer token Prometheus may scrape `/metrics` with. */
  metricsToken: string | undefined;
  /**
   * Where binaries are kept: `file` (under `dataDir`, the default) or `s3` (an S3-compatible
   * object store several nodes share; credentials from the AWS SDK's default chain).
   */
  store: StoreConfig;
  /**
   * The cold store archived artifacts go to: a folder (`ARCA_COLD_DIR`, by default `coldstore`
   * under the data directory) or an S3 bucket/prefix (`ARCA_COLD_STORE=s3`; with the hot store on
   * S3 and nothing else said, the same bucket under the prefix `cold/`).
   */
  coldStore: ColdStoreConfig;
  /**
   * Contents written or touched this recently are not removed at once when an archive run or a
   * restore releases them (a deploy of the same bytes may be recording them); the garbage
   * collection takes them later.
   */
  archiveReleaseGraceMs: number;
  /** Where the console's backups are written (a folder each). */
  backupDir: string;
  /** Whether `backupDir` was chosen (`ARCA_BACKUP_DIR`) rather than the data directory's default. */
  backupDirChosen: boolean;
  /** When backups are made by themselves (cron); none: only when asked. */
  backupSchedule: string | undefined;
  /** How many backups the backup folder keeps. */
  backupKeep: number;
  /** Support bundles older than this many days are removed. */
  supportBundleRetentionDays: number;
  /** Rotated log files older than this many days are removed. */
  logRetentionDays: number;
  serverName: string | undefined;
  /**
   * The first administrator visit opens the onboarding wizard (ARCA_ONBOARDING, default on); off
   * for deployments that automation provisions.
   */
  onboarding: boolean;
  /** The console's template and demo playground are reachable (ARCA_TESTED_FEATURES, default off). */
  testedFeatures: boolean;
  /** Services this process runs. */
  services: ServiceName[];
  /** Extra licence issuer public keys (PEM or base64 SPKI DER, separated by ;), trusted besides this deployment's own key. */
  licenseIssuerKeys: string[];
  session: {
    idleTimeoutMs: number;
    absoluteTimeoutMs: number;
    rememberMeMs: number;
    canRememberMe: boolean;
    secureCookie: boolean;
  };
  loginLockout: { maxFailures: number; windowMs: number; lockMs: number };
  heartbeatMs: number;
  /** This node's id in a cluster, when given (else made from the host name and the port). */
  nodeId?: string;
  /** How often this node looks for due work of the durable-work kernel (queued tasks, tasks whose holder died). */
  workPollMs: number;
  /**
   * How long a stopping node lets the requests in flight finish (downloads, uploads) before it
   * cuts what is left and exits; it takes no new ones meanwhile.
   */
  stopGraceMs: number;
  /** Days an item stays in the trash can before the cleanup job removes it; 0 keeps it until emptied. */
  trashRetentionDays: number;
  /** Delivered outbox events (and their receipts) are removed after this many days. */
  outboxRetentionDays: number;
  /** The longest wait between two attempts of a webhook delivery (the backoff doubles up to it). */
  webhookRetryMaxMs: number;
  /** Whether this node polls the outbox and runs the schedules (a node may serve requests only). */
  backgroundWork: boolean;
  /** Directory holding the built console; it is served under /ui/ when it exists. */
  webDir: string;
  /** The address users reach this server at (`https://arca.example.com`), for links in mails; none when unset. */
  baseUrl: string | undefined;
  /** `host[:port]` that outbound requests may reach although they are loopback or link-local. */
  outboundAllowedHosts: string[];
  /**
   * Addresses or CIDR ranges of the reverse proxies whose `X-Forwarded-For` (and `-Proto`, `-Host`)
   * is believed (`ARCA_TRUSTED_PROXIES`); none by default: the client is the connection's peer.
   */
  trustedProxies: string[];
}

export type StoreConfig =
  | { type: 'file' }
  | {
      type: 's3';
      bucket: string;
      prefix: string | undefined;
      region: string | undefined;
      endpoint: string | undefined;
      pathStyle: boolean;
      /** A local cache of large contents read often, and its size. */
      cacheDir: string | undefined;
      cacheBytes: number;
      /** Downloads of large files answered with a redirect to a short-lived presigned address. */
      redirectDownloads: boolean;
    };

export type ColdStoreConfig =
  { type: 'file'; dir: string } | (Extract<StoreConfig, { type: 's3' }> & { storageClass: string | undefined });

function coldStore(env: NodeJS.ProcessEnv, cwd: string, hot: StoreConfig): ColdStoreConfig {
  const type = env.ARCA_COLD_STORE || hot.type;
  if (type === 'file')
    return { type, dir: path.resolve(cwd, env.ARCA_COLD_DIR || path.join(env.ARCA_DATA_DIR || 'data', 'coldstore')) };
  if (type !== 's3') throw new Error(`ARCA_COLD_STORE must be file or s3, got '${type}'`);
  const bucket = env.ARCA_COLD_S3_BUCKET || (hot.type === 's3' ? hot.bucket : undefined);
  if (!bucket) throw new Error('ARCA_COLD_STORE=s3 needs ARCA_COLD_S3_BUCKET, the bucket that holds archived binaries');
  const sameBucket = hot.type === 's3' && bucket === hot.bucket;
  const hotPrefix = hot.type === 's3' && hot.prefix ? `${hot.prefix.replace(/\/+$/, '')}/` : '';
  const prefix = env.ARCA_COLD_S3_PREFIX || (sameBucket ? `${hotPrefix}cold` : undefined);
  if (sameBucket && (prefix ?? '').replace(/\/+$/, '') === hotPrefix.replace(/\/+$/, ''))
    throw new Error('ARCA_COLD_S3_PREFIX must differ from ARCA_S3_PREFIX when both stores share a bucket');
  const endpoint = env.ARCA_COLD_S3_ENDPOINT || env.ARCA_S3_ENDPOINT || undefined;
  return {
    type,
    bucket,
    prefix,
    region: env.ARCA_COLD_S3_REGION || env.ARCA_S3_REGION || env.AWS_REGION || undefined,
    endpoint,
    pathStyle: flag(env, 'ARCA_S3_PATH_STYLE', Boolean(endpoint)),
    cacheDir: undefined,
    cacheBytes: 0,
    redirectDownloads: false,
    storageClass: env.ARCA_COLD_S3_STORAGE_CLASS || undefined,
  };
}

function store(env: NodeJS.ProcessEnv, cwd: string): StoreConfig {
  const type = env.ARCA_STORE || 'file';
  if (type === 'file') return { type };
  if (type !== 's3') throw new Error(`ARCA_STORE must be file or s3, got '${type}'`);
  if (!env.ARCA_S3_BUCKET) throw new Error('ARCA_STORE=s3 needs ARCA_S3_BUCKET, the bucket that holds the binaries');
  if (env.ARCA_S3_ENDPOINT) {
    try {
      new URL(env.ARCA_S3_ENDPOINT);
    } catch {
      throw new Error(`ARCA_S3_ENDPOINT must be an http(s) address, got '${env.ARCA_S3_ENDPOINT}'`);
    }
  }
  return {
    type,
    bucket: env.ARCA_S3_BUCKET,
    prefix: env.ARCA_S3_PREFIX || undefined,
    region: env.ARCA_S3_REGION || env.AWS_REGION || undefined,
    endpoint: env.ARCA_S3_ENDPOINT || undefined,
    pathStyle: flag(env, 'ARCA_S3_PATH_STYLE', Boolean(env.ARCA_S3_ENDPOINT)),
    cacheDir: env.ARCA_STORE_CACHE_DIR ? path.resolve(cwd, env.ARCA_STORE_CACHE_DIR) : undefined,
    cacheBytes: integer(env, 'ARCA_STORE_CACHE_MB', 10_240, 1) * 1024 * 1024,
    redirectDownloads: flag(env, 'ARCA_STORE_REDIRECT_DOWNLOADS', false),
  };
}

/** What this build really provides; other services are listed once they land. */
const DEFAULT_SERVICES: ServiceName[] = ['artifactory', 'access'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got '${raw}'`);
  }
  return value;
}

function powerOfTwo(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const value = integer(env, name, fallback, min);
  if (!Number.isInteger(Math.log2(value))) throw new Error(`${name} must be a power of two, got '${env[name]}'`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got '${raw}'`);
}

function baseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`ARCA_BASE_URL must be an http(s) address, got '${raw}'`);
  }
  if (!['http:', 'https:'].includes(url.protocol))
    throw new Error(`ARCA_BASE_URL must be an http(s) address, got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

function services(raw: string | undefined): ServiceName[] {
  if (!raw) return DEFAULT_SERVICES;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      throw new Error(`ARCA_SERVICES names an unknown service '${name}'; known: ${SERVICE_NAMES.join(', ')}`);
    }
  }
  if (!names.includes('artifactory')) names.unshift('artifactory');
  if (!names.includes('access')) names.push('access');
  return names as ServiceName[];
}

/** Reads the configuration from the environment; throws with a clear message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const minutes = 60_000;
  const hotStore = store(env, cwd);
  return {
    dataDir: path.resolve(cwd, env.ARCA_DATA_DIR || 'data'),
    host: env.ARCA_HOST || '0.0.0.0',
    port: integer(env, 'ARCA_PORT', 8082),
    workers: integer(env, 'ARCA_WORKERS', Math.min(os.availableParallelism(), 8), 1),
    databaseUrl: env.ARCA_DATABASE_URL || undefined,
    adminPassword: env.ARCA_ADMIN_PASSWORD || undefined,
    logLevel: env.ARCA_LOG_LEVEL || 'info',
    logToFiles: flag(env, 'ARCA_LOG_FILES', true),
    logToStdout: flag(env, 'ARCA_LOG_STDOUT', true),
    logRetentionDays: integer(env, 'ARCA_LOG_RETENTION_DAYS', 30, 1),
    supportBundleRetentionDays: integer(env, 'ARCA_SUPPORT_BUNDLE_RETENTION_DAYS', 30, 1),
    store: hotStore,
    coldStore: coldStore(env, cwd, hotStore),
    archiveReleaseGraceMs: integer(env, 'ARCA_ARCHIVE_RELEASE_GRACE_SECONDS', 60) * 1000,
    backupDir: path.resolve(cwd, env.ARCA_BACKUP_DIR || path.join(env.ARCA_DATA_DIR || 'data', 'backups')),
    backupDirChosen: Boolean(env.ARCA_BACKUP_DIR),
    backupSchedule: env.ARCA_BACKUP_SCHEDULE || undefined,
    backupKeep: integer(env, 'ARCA_BACKUP_KEEP', 7, 1),
    nodeAddress: env.ARCA_NODE_ADDRESS || undefined,
    credentialsCacheMs: integer(env, 'ARCA_CREDENTIALS_CACHE_SECONDS', 60, 0) * 1000,
    passwordHashCost: powerOfTwo(env, 'ARCA_PASSWORD_HASH_COST', DEFAULT_PASSWORD_HASH_COST, 1024),
    metricsEnabled: flag(env, 'ARCA_METRICS', true),
    metricsPublic: flag(env, 'ARCA_METRICS_PUBLIC', false),
    metricsToken: env.ARCA_METRICS_TOKEN || undefined,
    serverName: env.ARCA_SERVER_NAME || undefined,
    onboarding: flag(env, 'ARCA_ONBOARDING', true),
    testedFeatures: flag(env, 'ARCA_TESTED_FEATURES', false),
    services: services(env.ARCA_SERVICES),
    licenseIssuerKeys: (env.ARCA_LICENSE_ISSUER_KEYS || '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean),
    session: {
      idleTimeoutMs: integer(env, 'ARCA_SESSION_IDLE_MINUTES', 60, 1) * minutes,
      absoluteTimeoutMs: integer(env, 'ARCA_SESSION_MAX_HOURS', 12, 1) * 60 * minutes,
      rememberMeMs: integer(env, 'ARCA_REMEMBER_ME_DAYS', 14, 1) * 24 * 60 * minutes,
      canRememberMe: flag(env, 'ARCA_REMEMBER_ME', true),
      secureCookie: flag(env, 'ARCA_SECURE_COOKIE', false),
    },
    loginLockout: {
      maxFailures: integer(env, 'ARCA_LOGIN_MAX_FAILURES', 5, 1),
      windowMs: integer(env, 'ARCA_LOGIN_FAILURE_WINDOW_MINUTES', 5, 1) * minutes,
      lockMs: integer(env, 'ARCA_LOGIN_LOCK_MINUTES', 5, 1) * minutes,
    },
    heartbeatMs: integer(env, 'ARCA_HEARTBEAT_SECONDS', 10, 1) * 1000,
    workPollMs: integer(env, 'ARCA_WORK_POLL_MS', 1000, 50),
    ...(env.ARCA_NODE_ID ? { nodeId: env.ARCA_NODE_ID } : {}),
    stopGraceMs: integer(env, 'ARCA_STOP_GRACE_SECONDS', 60, 0) * 1000,
    trashRetentionDays: integer(env, 'ARCA_TRASH_RETENTION_DAYS', 14),
    outboxRetentionDays: integer(env, 'ARCA_OUTBOX_RETENTION_DAYS', 7, 1),
    webhookRetryMaxMs: integer(env, 'ARCA_WEBHOOK_RETRY_MAX_SECONDS', 600, 1) * 1000,
    backgroundWork: flag(env, 'ARCA_BACKGROUND_WORK', true),
    baseUrl: baseUrl(env.ARCA_BASE_URL),
    trustedProxies: trustedProxies(env.ARCA_TRUSTED_PROXIES),
    outboundAllowedHosts: (env.ARCA_OUTBOUND_ALLOWED_HOSTS || '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    webDir: path.resolve(env.ARCA_WEB_DIR || path.join(import.meta.dirname, '..', '..', 'web', 'dist')),
  };
}

/** `ARCA_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges; anything else is refused at start. */
function trustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) throw new Error(`ARCA_TRUSTED_PROXIES: '${entry}' is no IP address or CIDR range.`);
  }
  return entries;
}
