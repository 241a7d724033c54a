/** Archive policies, their runs and what they moved to the cold store. */

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
