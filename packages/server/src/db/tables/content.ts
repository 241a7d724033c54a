import type { Generated } from 'kysely';

/** Repositories and their content: items, properties, binaries, derived files, packages and builds. */

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

/** Files, folders and bytes of a repository, kept up to date by every change of its items. */
export interface RepositoryUsageTable {
  repo_key: string;
  files: number;
  folders: number;
  size: number;
}

/** A package version held by a repository, as its format's indexer read it off the lead file. */
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
