/** Other deployments: pairing, federation, replication, licence buckets and VCS integrations. */

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
