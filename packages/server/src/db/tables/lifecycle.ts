/** Release bundles and the environments they are promoted through (see the 2026-12-26 migration). */

/** Something (a release bundle version) keeps an item from being deleted or overwritten. */
export interface ItemHoldsTable {
  repo_key: string;
  path: string;
  /** Who holds it: `release-bundle:<version id>`. */
  holder: string;
}

/** An environment (DEV, QA, PROD or an administrator's own); `position` orders them. */
export interface EnvironmentsTable {
  name: string;
  description: string;
  position: number;
  created_at: number;
  created_by: string;
}

/** A repository assigned to an environment: promoting a bundle there copies its artifacts into it. */
export interface EnvironmentRepositoriesTable {
  environment: string;
  repo_key: string;
}

/**
 * A release bundle version: its sources as asked (JSON), the signature over its manifest (made
 * with the named key pair, whose public key and fingerprint are kept beside it), and whether it
 * was made here (`local`) or received from another deployment (`received`).
 */
export interface ReleaseBundleVersionsTable {
  id: string;
  name: string;
  version: string;
  project_key: string;
  description: string;
  source_type: string;
  sources: string;
  signing_key: string;
  key_fingerprint: string;
  public_key: string;
  signature: string;
  manifest_sha256: string;
  artifact_count: number;
  total_size: number;
  origin: string;
  origin_deployment: string | null;
  created_at: number;
  created_by: string;
}

/** One artifact of a bundle version, as resolved once; `source` names the build or bundle it came from. */
export interface ReleaseBundleArtifactsTable {
  version_id: string;
  repo_key: string;
  path: string;
  sha256: string;
  size: number;
  package_type: string;
  source: string;
}

/** A promotion of a bundle version to an environment: who, when, into which repositories, how it ended. */
export interface ReleaseBundlePromotionsTable {
  id: string;
  version_id: string;
  environment: string;
  operation: string;
  status: string;
  /** JSON array of the repository keys promoted into. */
  repositories: string;
  artifact_count: number;
  message: string;
  created_at: number;
  created_by: string;
}

/** A distribution (or a deletion) of a bundle version on one paired deployment, with its progress. */
export interface ReleaseBundleDistributionsTable {
  id: string;
  version_id: string;
  deployment_id: string;
  target_name: string;
  action: string;
  status: string;
  files_total: number;
  files_done: number;
  files_sent: number;
  bytes_sent: number;
  message: string;
  created_at: number;
  created_by: string;
  finished_at: number | null;
}
