import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * Table types. Timestamps are epoch milliseconds and flags are 0/1 integers, so that one
 * migration serves SQLite and PostgreSQL alike.
 */
export interface UsersTable {
  id: string;
  name: string;
  email: string | null;
  password_hash: string | null;
  admin: number;
  disable_ui_access: number;
  must_change_password: number;
  realm: string;
  created_at: number;
  last_login_at: number | null;
  mfa_secret: string | null;
  mfa_enrolled_at: number | null;
  password_changed_at: number | null;
  mfa_last_step: number | null;
  /** For a user of an external realm: the LDAP setting (or provider) it signs in through; '' otherwise. */
  external_source: ColumnType<string, string | undefined, string>;
  /** For a user of an OpenID provider: `<issuer> <sub>`, the identity it is tied to (never a changeable claim). */
  external_subject: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a leaked database does not leak live sessions. */
  id: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  idle_timeout_ms: number;
  remember_me: number;
}

export interface LoginFailuresTable {
  user_name: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
  /** What the last failure was: a wrong 'password' or a wrong second-factor code ('otp'). */
  cause: Generated<string>;
}

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

export interface RepositoriesTable {
  key: string;
  rclass: string;
  package_type: string;
  description: string;
  notes: string;
  includes_pattern: string;
  excludes_pattern: string;
  repo_layout_ref: string;
  url: string;
  username: string;
  password: string | null;
  /** JSON array of member keys (virtual repositories). */
  members: string;
  default_deployment_repo: string;
  created_at: number;
  updated_at: number;
  /** The project the repository belongs to; null for none. */
  project_key: string | null;
  /** Remote repositories: seconds their cached metadata stays fresh before the upstream is asked again. */
  metadata_max_age_secs: number;
  /** Maven: `client-checksums` (a checksum file that disagrees is refused) or `server-generated-checksums`. */
  checksum_policy: string;
  /** Maven: 1 when a POM need not match its path. */
  suppress_pom_checks: number;
  /** Maven: 0 when a release file already stored may not be deployed again. */
  redeploy_releases: number;
  /** Remote repositories: the proxy they go through; empty for the default proxy, if any. */
  proxy_key: string;
  /** Remote repositories: the alias of the client certificate presented to the upstream; empty for none. */
  client_tls_certificate: string;
  /** Remote repositories: 1 when only what is cached is served and the upstream is never asked. */
  offline: number;
  /** Remote repositories: how long the upstream gets to connect and to send each part of an answer. */
  socket_timeout_ms: number;
  /** Local repositories: the most bytes their files may take; 0 for no limit. */
  quota_bytes: number;
}

/** How a remote repository's upstream answered last: written when that changes, read by the console. */
/** A file a format made from stored files, shared by the workers and nodes (see the made-files migration). */
export interface MadeFilesTable {
  made_key: string;
  name: string;
  sha256: string;
  content_type: string;
  made_at: number;
}

export interface RemoteStatesTable {
  repo_key: string;
  reachable: number;
  /** Since when the upstream has answered (or not). */
  since: number;
  last_error: string | null;
}

/** One stored content, shared by every item with the same SHA-256. */
export interface BinariesTable {
  sha256: string;
  sha1: string;
  md5: string;
  size: number;
  ref_count: number;
  created_at: number;
  updated_at: number;
}

/** A file or folder of a repository; `path` has no leading slash, `parent` is '' at the root. */
export interface ItemsTable {
  id: string;
  repo_key: string;
  path: string;
  parent: string;
  name: string;
  folder: number;
  sha256: string | null;
  size: number;
  mime_type: string | null;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
  download_count: Generated<number>;
  last_downloaded: number | null;
  last_downloaded_by: string | null;
}

export interface ItemPropertiesTable {
  item_id: string;
  key: string;
  value: string;
}

/** A Java class inside a deployed archive (jar, war, ear …), for the class search. */
export interface ArchiveClassesTable {
  item_id: string;
  /** The class's name without package, e.g. `Outer$Inner`. */
  name: string;
  /** Its entry in the archive, e.g. `org/acme/Outer$Inner.class`. */
  path: string;
  inner_class: number;
}

/** One published build run; its document is `path` in the build-info repository. */
export interface BuildsTable {
  id: string;
  name: string;
  number: string;
  /** As the document says it (`2026-11-23T10:00:00.000+0000`). */
  started: string;
  started_at: number;
  path: string;
  project: string | null;
  created_at: number;
  created_by: string;
}

/** An artifact a build's module produced, or a dependency it used. */
export interface BuildFilesTable {
  build_id: string;
  kind: 'artifact' | 'dependency';
  module: string;
  name: string;
  type: string;
  sha1: string | null;
  sha256: string | null;
  md5: string | null;
}

export interface BuildPromotionsTable {
  id: string;
  build_id: string;
  status: string;
  comment: string;
  repository: string;
  ci_user: string;
  user: string;
  timestamp: string;
  created_at: number;
}

/** SQLite only: the trigram index of file names (kept by triggers on `items`). */
export interface ItemsNameSearchTable {
  name: string;
  item_id: string;
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

export interface GroupsTable {
  name: string;
  description: string;
  auto_join: number;
  admin_privileges: number;
  realm: string;
  created_at: number;
  updated_at: number;
}

export interface GroupMembersTable {
  group_name: string;
  user_id: string;
}

/** `resources` is JSON: `{ repo?, build?, releaseBundle? }`, each `{ repositories, includes, excludes }`. */
export interface PermissionTargetsTable {
  name: string;
  resources: string;
  created_at: number;
  updated_at: number;
}

/** Who may do what on one resource kind of a target; `actions` is a comma-separated list. */
export interface PermissionGrantsTable {
  target_name: string;
  resource: string;
  principal_type: string;
  principal_name: string;
  actions: string;
}

/** API keys (`kind` 'api_key', one per user) and access tokens; only the SHA-256 is stored. */
export interface AccessTokensTable {
  id: string;
  user_id: string;
  kind: string;
  token_hash: string;
  description: string;
  scope: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  /** SHA-256 of the refresh token of a refreshable access token. */
  refresh_hash: string | null;
  /** An API key sealed with the deployment's key, so that its owner can read it back; null for tokens. */
  sealed: string | null;
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

/**
 * A command-line client's browser sign-in (npm's web login): the client polls with the done id
 * while a signed-in user approves the login id in the console. Only SHA-256 of both ids is kept.
 */
export interface WebLoginsTable {
  id_hash: string;
  done_hash: string;
  client: string;
  hostname: string;
  source_ip: string;
  created_at: number;
  expires_at: number;
  approved_by: string | null;
  approved_at: number | null;
  done_at: number | null;
}

export interface OneTimeTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  data: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ProjectsTable {
  key: string;
  display_name: string;
  description: string;
  created_at: number;
  updated_at: number;
}

export interface ProjectMembersTable {
  project_key: string;
  principal_type: string;
  principal_name: string;
  role: string;
}

/** A consumer's claim on an outbox event: leased while being delivered, then delivered. */
export interface EventReceiptsTable {
  consumer: string;
  event_id: string;
  holder: string;
  lease_until: number;
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

/** Files, folders and bytes of a repository, kept up to date by every change of its items. */
export interface RepositoryUsageTable {
  repo_key: string;
  files: number;
  folders: number;
  size: number;
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

/** An SSH public key a user registered: it signs the user in to the SSH server. */
export interface SshKeysTable {
  id: string;
  user_id: string;
  title: string;
  algorithm: string;
  /** `SHA256:` and the unpadded base64 of the key's SHA-256, as OpenSSH prints it. */
  fingerprint: string;
  /** The OpenSSH line (`<type> <base64>`), without its comment. */
  public_key: string;
  created_at: number;
  last_used_at: number | null;
}

/** A sign-in request sent to an identity provider, until its answer comes back (once). */
export interface SsoRequestsTable {
  state_hash: string;
  provider: string;
  /** JSON: nonce, PKCE verifier, where the console goes after. */
  data: string;
  expires_at: number;
}

/** A SAML assertion taken once: kept until its validity ends, so a replay of it is refused. */
export interface SamlAssertionsTable {
  id: string;
  expires_at: number;
}

/** A single-use token that lets a management deployment pair with this one. */
export interface PairingTokensTable {
  token_hash: string;
  /** The administrator who made it: the service token handed out is theirs. */
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A platform deployment this one manages. */
export interface DeploymentsTable {
  id: string;
  name: string;
  url: string;
  /** JSON arrays / objects. */
  tags: string;
  location: string;
  /** The service token, sealed. */
  token: string;
  status: string;
  status_details: string;
  service_type: string;
  services: string;
  version: string;
  checked_at: number | null;
  created_at: number;
  created_by: string;
  /** What it reported last: nodes online, projects, the ids of its licences in force (JSON). */
  nodes: number;
  projects: number;
  license_ids: string;
}

/** A source-control account (GitHub, GitLab, Bitbucket) Arca is connected to; its token sealed. */
export interface VcsIntegrationsTable {
  key: string;
  vendor: string;
  name: string;
  url: string;
  username: string;
  token: string;
  /** JSON array of the products using it. */
  products: string;
  created_at: number;
  updated_at: number;
  created_by: string;
}

/** An application registered as an OAuth 2.0 client; only its secret's SHA-256 is kept. */
export interface OauthClientsTable {
  id: string;
  client_id: string;
  secret_hash: string;
  name: string;
  type: string;
  description: string;
  callback_url: string;
  platform_base_url: string;
  created_at: number;
  created_by: string;
}

/** A user's consent to an application acting on their behalf. */
export interface OauthGrantsTable {
  client_id: string;
  user_id: string;
  scope: string;
  granted_at: number;
}

/** An authorisation code, by its SHA-256: single use, short-lived, bound to the PKCE challenge. */
export interface OauthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  expires_at: number;
  used_at: number | null;
}

/** Which access tokens an application holds for which user (revoked with the grant). */
export interface OauthClientTokensTable {
  token_id: string;
  client_id: string;
  user_id: string;
}

/** A licence bucket held by this (management) deployment. */
export interface LicenseBucketsTable {
  id: string;
  name: string;
  edition: string;
  licensee: string;
  issued_at: number;
  expires_at: number;
  issuer: string;
  /** The bucket it was split from. */
  parent_id: string | null;
  /** The signed bucket text, as added or as made by a split. */
  bucket_key: string;
  source: string;
  added_at: number;
  added_by: string;
}

/** A licence of a bucket, and who holds it: a deployment (by id) or a label (unknown usage). */
export interface LicenseBucketLicensesTable {
  id: string;
  bucket_id: string;
  position: number;
  key_text: string;
  assignee_kind: 'deployment' | 'label' | null;
  assignee: string | null;
  assigned_at: number | null;
}

/** A bucket's used count after each change. */
export interface LicenseBucketUsageTable {
  bucket_id: string;
  at: number;
  used: number;
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

/** A value the console keeps for a user (the onboarding's flags), as JSON text. */
export interface UserCustomDataTable {
  user_name: string;
  data_key: string;
  value: string;
  updated_at: number;
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

/** A retention policy: what it archives (its AQL, and the form it was made from), when and how. */
export interface ArchivePoliciesTable {
  key: string;
  description: string;
  cron_exp: string;
  enabled: number;
  /** Months an archived artifact stays in the archive before it is deleted; 0: for ever. */
  expiration_months: number;
  /** Minutes a run may take; 0: no limit. */
  duration_minutes: number;
  skip_trashcan: number;
  aql_query: string;
  /** The form's criteria (JSON); null for a policy written in AQL. */
  search_criteria: string | null;
  next_execution_time: number | null;
  created_at: number;
  created_by: string;
  updated_at: number;
}

export type ArchiveExecutionState =
  | 'PENDING'
  | 'TRIGGERED'
  | 'IN_PROGRESS'
  | 'IN_PROGRESS_WITH_ERRORS'
  | 'STOPPING'
  | 'STOPPED_BY_USER'
  | 'COMPLETE'
  | 'COMPLETE_WITH_ERRORS'
  | 'FAILED';

/** A run of a policy, or a restore: its items are fixed when it starts, each moved once. */
export interface ArchiveExecutionsTable {
  id: string;
  kind: 'archive' | 'restore';
  policy_key: string | null;
  state: ArchiveExecutionState;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  bytes: number;
  message: string | null;
  /** A restore's destination choices (JSON). */
  options: string | null;
  stop_requested: number;
  /** When the run stops at its policy's duration limit; null: none. */
  deadline: number | null;
  actor: string;
  source_ip: string;
  started_at: number;
  ended_at: number | null;
  updated_at: number;
}

/** One item of a run: a repository file to archive, or an archived one to restore. */
export interface ArchiveExecutionItemsTable {
  execution_id: string;
  seq: number;
  item_id: string;
  repo_key: string;
  path: string;
  sha256: string;
  size: number;
  state: 'pending' | 'done' | 'failed' | 'skipped';
  error: string | null;
}

/** An artifact in the archive: where it was, its checksums and properties, its bytes in the cold store. */
export interface ArchivedItemsTable {
  id: string;
  repo_key: string;
  path: string;
  parent: string;
  name: string;
  sha256: string;
  sha1: string;
  md5: string;
  size: number;
  mime_type: string | null;
  /** Its properties when it was archived (JSON: key → values). */
  properties: string;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
  download_count: number;
  last_downloaded: number | null;
  archived_at: number;
  archived_by: string;
  policy_key: string | null;
  execution_id: string | null;
  /** When the archive deletes it (its policy's expiration); null: never. */
  expires_at: number | null;
}

/** A content of the cold store and how many archived items refer to it. */
export interface ColdBinariesTable {
  sha256: string;
  size: number;
  ref_count: number;
  created_at: number;
  updated_at: number;
}

/** The archive's figures on a day, for the cold-storage monitoring's history. */
export interface ArchiveSamplesTable {
  day: string;
  binaries_count: number;
  binaries_size: number;
  artifacts_count: number;
  artifacts_size: number;
  items_count: number;
}

export interface Database {
  archive_policies: ArchivePoliciesTable;
  archive_executions: ArchiveExecutionsTable;
  archive_execution_items: ArchiveExecutionItemsTable;
  archived_items: ArchivedItemsTable;
  cold_binaries: ColdBinariesTable;
  archive_samples: ArchiveSamplesTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  nodes: NodesTable;
  support_bundles: SupportBundlesTable;
  storage_samples: StorageSamplesTable;
  rate_limits: RateLimitsTable;
  work_tasks: WorkTasksTable;
  work_history: WorkHistoryTable;
  signing_keys: SigningKeysTable;
  user_custom_data: UserCustomDataTable;
  key_pairs: KeyPairsTable;
  ssh_keys: SshKeysTable;
  trusted_keys: TrustedKeysTable;
  sso_requests: SsoRequestsTable;
  saml_assertions: SamlAssertionsTable;
  pairing_tokens: PairingTokensTable;
  deployments: DeploymentsTable;
  federation_clocks: FederationClocksTable;
  federation_conflicts: FederationConflictsTable;
  federations: FederationsTable;
  replications: ReplicationsTable;
  replication_runs: ReplicationRunsTable;
  certificates: CertificatesTable;
  proxies: ProxiesTable;
  licenses: LicensesTable;
  license_buckets: LicenseBucketsTable;
  vcs_integrations: VcsIntegrationsTable;
  oauth_clients: OauthClientsTable;
  oauth_grants: OauthGrantsTable;
  oauth_codes: OauthCodesTable;
  oauth_client_tokens: OauthClientTokensTable;
  license_bucket_licenses: LicenseBucketLicensesTable;
  license_bucket_usage: LicenseBucketUsageTable;
  settings: SettingsTable;
  adoption_metrics: AdoptionMetricsTable;
  repositories: RepositoriesTable;
  remote_states: RemoteStatesTable;
  made_files: MadeFilesTable;
  binaries: BinariesTable;
  items: ItemsTable;
  item_properties: ItemPropertiesTable;
  archive_classes: ArchiveClassesTable;
  builds: BuildsTable;
  build_files: BuildFilesTable;
  build_promotions: BuildPromotionsTable;
  items_name_search: ItemsNameSearchTable;
  events: EventsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  permission_targets: PermissionTargetsTable;
  permission_grants: PermissionGrantsTable;
  access_tokens: AccessTokensTable;
  audit_events: AuditEventsTable;
  one_time_tokens: OneTimeTokensTable;
  web_logins: WebLoginsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  event_receipts: EventReceiptsTable;
  outbox_consumers: OutboxConsumersTable;
  repository_usage: RepositoryUsageTable;
  generations: GenerationsTable;
  package_versions: PackageVersionsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** A package version held by a repository, as its format's indexer read it off the lead file. */
/** The logical clock of a federated entity: the newest version this deployment holds (or its tombstone). */
export interface FederationClocksTable {
  entity_type: string;
  name: string;
  clock: number;
  /** The member whose change it is (ties of clock go to the greater origin). */
  origin: string;
  deleted: number;
  /** The version this one replaced where it was made: a peer holding another had a concurrent change (a conflict). */
  base_clock: number;
  base_origin: string;
}

/** A change from a peer that lost to (or won over) another member's concurrent change. */
export interface FederationConflictsTable {
  id: string;
  at: number;
  entity_type: string;
  name: string;
  kept: string;
  local_clock: string;
  remote_clock: string;
  peer: string;
}

/** A federation configured here (management): one row per sending member; `targets` is JSON. */
export interface FederationsTable {
  source_id: string;
  group_id: string;
  topology: string;
  targets: string;
  entity_types: string;
  permissions_filter: string;
  created_at: number;
  updated_at: number;
}

/** A replication of a local repository to (push) or from (pull) a registered deployment; lists are JSON. */
export interface ReplicationsTable {
  key: string;
  repo_key: string;
  deployment_id: string;
  remote_repo_key: string;
  strategy: string;
  cron: string;
  event_based: number;
  enabled: number;
  include_patterns: string;
  exclude_patterns: string;
  sync_deletes: number;
  sync_properties: number;
  created_at: number;
  updated_at: number;
}

/** A run of a replication (event replications: one row per replication and hour); `output` is its log. */
export interface ReplicationRunsTable {
  id: string;
  replication_key: string;
  trigger: string;
  status: string;
  /** The node that runs it (a run left running by a node that stopped is ended when it starts again). */
  node_id: string;
  started_at: number;
  finished_at: number | null;
  files_total: number;
  files_done: number;
  files_transferred: number;
  files_deduplicated: number;
  files_properties: number;
  files_deleted: number;
  files_failed: number;
  bytes_transferred: number;
  output: string;
}

export interface PackageVersionsTable {
  id: string;
  package_type: string;
  name: string;
  lowercase_name: string;
  version: string;
  repo_key: string;
  lead_path: string;
  description: string;
  /** JSON array of licence names. */
  licenses: string;
  /** JSON array of tags (npm keywords, PyPI keywords). */
  tags: string;
  /** JSON object: dependency name → version range. */
  dependencies: string;
  readme: string;
  size: number;
  sha256: string;
  created_at: number;
  modified_at: number;
  /** JSON object of the type's own fields (Maven groupId/artifactId, image tags …). */
  fields: string;
}
export type PackageVersionRow = Selectable<PackageVersionsTable>;

/** Counters each process compares to know whether its caches are stale. */
export interface GenerationsTable {
  name: string;
  value: number;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NodeRow = Selectable<NodesTable>;
export type SupportBundleRow = Selectable<SupportBundlesTable>;
export type LicenseRow = Selectable<LicensesTable>;
export type NewLicense = Insertable<LicensesTable>;
export type RepositoryRow = Selectable<RepositoriesTable>;
export type ItemRow = Selectable<ItemsTable>;
export type { Generated };
export type GroupRow = Selectable<GroupsTable>;
export type PermissionTargetRow = Selectable<PermissionTargetsTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type ProjectRow = Selectable<ProjectsTable>;

/** A webhook subscription: what it listens to (one domain) and where it sends (its handlers). */
export interface WebhooksTable {
  key: string;
  description: string;
  enabled: number;
  domain: string;
  /** JSON array of the domain's event types. */
  event_types: string;
  /** JSON object: the domain's criteria (repositories and paths, or builds). */
  criteria: string;
  /** JSON array of handlers; each secret sealed for the webhook's key. */
  handlers: string;
  created_at: number;
  created_by: string;
  updated_at: number;
}

/** One event to send to one handler of a webhook, in the order of the events per handler. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_key: string;
  handler: number;
  url: string;
  event_id: string;
  event_seq: number;
  domain: string;
  event_type: string;
  /** The body as sent, the same on every attempt. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  lease_until: number;
  holder: string | null;
  created_at: number;
  settled_at: number | null;
  last_status: number | null;
  last_error: string | null;
}

/** One attempt of a delivery, as sent and as answered (bodies cut at 16 KiB). */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: number;
  duration_ms: number;
  status: number | null;
  error: string | null;
  /** JSON: url, headers, body. */
  request: string;
  /** JSON: headers, body; null when nothing was answered. */
  response: string | null;
}
