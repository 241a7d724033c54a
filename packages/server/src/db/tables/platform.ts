import type { Generated } from 'kysely';

/** What every node shares: nodes, settings, licences, the outbox, the work kernel, keys and certificates. */

export interface NodesTable {
  node_id: string;
  host: string;
  version: string;
  services: string;
  started_at: number;
  last_heartbeat: number;
  /** Where the other nodes reach this one (`http://host:port`); null until it listens. */
  address: string | null;
}

/** A rate limit's hits in its current window, shared by every node. */
export interface RateLimitsTable {
  key: string;
  hits: number;
  window_start: number;
}

/** A repository being deleted with its content (or deleted lately), whichever node runs it. */
/** A task of the durable-work kernel (`core/work.ts`): shared by every node, held under a lease. */
export interface WorkTasksTable {
  id: string;
  kind: string;
  /** Unique per kind: a task submitted again under its key while unfinished is the same task. */
  task_key: string;
  /** Tasks with one serial key run one at a time, in the order they were submitted. */
  serial_key: string | null;
  payload: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'stopped';
  attempts: number;
  max_attempts: number;
  progress: string | null;
  result: string | null;
  message: string | null;
  /** The node process running it; another takes it over once `lease_until` has passed. */
  holder: string;
  lease_until: number;
  run_after: number;
  stop_requested: number;
  /** 1 when a submission came while it ran: it is queued again once the run returns. */
  rerun: number;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  updated_at: number;
}

/** What happened to a task: claimed, taken over, an attempt failed, ended. */
export interface WorkHistoryTable {
  id: string;
  task_id: string;
  at: number;
  node: string;
  event: string;
  message: string | null;
}

export interface StorageSamplesTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  repo_key: string;
  files: number;
  size: number;
}

export interface SupportBundlesTable {
  id: string;
  name: string;
  description: string;
  service: string;
  status: string;
  /** JSON: the creation parameters (configuration, system, logs period, thread dump). */
  parameters: string;
  node_id: string;
  /** The zip, relative to the data directory; null until made. */
  file: string | null;
  size: number | null;
  error: string | null;
  created_at: number;
  created_by: string;
  finished_at: number | null;
}

export interface LicensesTable {
  id: string;
  key_text: string;
  edition: string;
  licensee: string;
  issued_at: number;
  expires_at: number | null;
  issuer: string;
  installed_at: number;
  installed_by: string;
  active: number;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface AdoptionMetricsTable {
  feature_name: string;
  action: string;
  total: number;
  updated_at: number;
}

/** The outbox: one row per state change others react to. `seq` orders them. */
export interface EventsTable {
  id: string;
  seq: number;
  type: string;
  repo_key: string | null;
  path: string | null;
  payload: string;
  actor: string;
  created_at: number;
}

export interface AuditEventsTable {
  id: string;
  at: number;
  actor: string;
  source_ip: string;
  category: string;
  action: string;
  target: string;
  outcome: string;
  /** JSON: `{ before?, after?, message? }`. */
  details: string;
}

/** What came of an outbox event for a consumer: delivered, failed (tried again later) or dead. */
export interface EventReceiptsTable {
  consumer: string;
  event_id: string;
  delivered_at: number | null;
  /** Failed attempts so far. */
  attempts: Generated<number>;
  /** When a failed event is tried again (backoff); null: at once. */
  next_attempt_at: number | null;
  /** When the consumer gave up on it (visible to administrators); null while it is still tried. */
  dead_at: number | null;
  last_error: string | null;
}

/** A consumer of the outbox and its position: every event with a lower `seq` is settled for it. */
export interface OutboxConsumersTable {
  name: string;
  position: number;
  created_at: number;
}

/** An OpenPGP signing key: the deployment's (scope '') or a repository's own; the private key sealed. */
export interface SigningKeysTable {
  scope: string;
  fingerprint: string;
  algorithm: string;
  user_id: string;
  public_key: string;
  private_key: string;
  source: 'generated' | 'imported';
  created_at: number;
  created_by: string;
}

/** A named GPG or RSA key pair; the private key (armored or PEM) sealed. */
export interface KeyPairsTable {
  name: string;
  type: 'GPG' | 'RSA';
  alias: string;
  fingerprint: string;
  algorithm: string;
  public_key: string;
  private_key: string;
  source: 'generated' | 'imported';
  created_at: number;
  created_by: string;
}

/** An OpenPGP public key trusted to sign artifacts (Keys Management's public keys). */
export interface TrustedKeysTable {
  /** The key id: the last 16 hex digits of the fingerprint, lower case. */
  kid: string;
  alias: string;
  fingerprint: string;
  algorithm: string;
  /** JSON array of the key's user ids. */
  user_ids: string;
  public_key: string;
  issued_on: number;
  valid_until: number | null;
  created_at: number;
  created_by: string;
}

/** A TLS certificate: a client one (with its sealed private key) or an authority trusted for outbound requests. */
export interface CertificatesTable {
  alias: string;
  kind: 'client' | 'trusted';
  /** PEM: the certificate and, for a client one, its chain. */
  certificate: string;
  /** Sealed PEM private key of a client certificate; empty for a trusted one. */
  private_key: string;
  subject: string;
  issuer: string;
  fingerprint: string;
  valid_from: number;
  valid_until: number;
  created_at: number;
  created_by: string;
}

/** An HTTP proxy for outbound requests; the password sealed with the deployment's key. */
export interface ProxiesTable {
  key: string;
  host: string;
  port: number;
  username: string;
  password: string;
  nt_host: string;
  domain: string;
  default_proxy: number;
  /** JSON array of host names. */
  redirect_to_hosts: string;
  created_at: number;
  updated_at: number;
}

/** Counters each process compares to know whether its caches are stale. */
export interface GenerationsTable {
  name: string;
  value: number;
}
