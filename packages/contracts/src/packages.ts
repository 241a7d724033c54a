/**
 * The package catalogue (the metadata service): packages and their versions as the console's
 * Packages pages read them through `POST /mds/packages|package|versions` (GraphQL).
 */

/** Package types whose Packages page shows an install command (spec part 1 §3). */
export const INSTALL_COMMAND_TYPES = [
  'alpine',
  'cargo',
  'chef',
  'deb',
  'rubygems',
  'npm',
  'nuget',
  'opkg',
  'pypi',
  'rpm',
  'bower',
  'docker',
  'go',
  'puppet',
] as const;

/** Spec §9: packages by name ascending; versions by name descending in semver order. */
export const PACKAGE_SORT_FIELDS = ['name', 'created', 'modified', 'downloads', 'versionsCount'] as const;
export type PackageSortField = (typeof PACKAGE_SORT_FIELDS)[number];

/** Package search: at least this many characters once '*' and '?' are removed. */
export const PACKAGE_SEARCH_MIN_CHARS = 3;

export interface PackageLicense {
  name: string;
  source: string;
}

export interface CataloguePackage {
  /** `{type}://{name}`. */
  id: string;
  name: string;
  packageType: string;
  description: string;
  created: string;
  modified: string;
  versionsCount: number;
  latestVersion: string;
  licenses: PackageLicense[];
  tags: string[];
  stats: { downloads: number };
  /** The latest version's readme, when asked for. */
  readme?: string | null;
}

export interface CatalogueVersionFile {
  name: string;
  size: number;
  mimeType: string;
  lead: boolean;
  sha256: string;
}

export interface CatalogueVersion {
  name: string;
  packageId: string;
  created: string;
  modified: string;
  repos: { name: string; type: string; leadFilePath: string }[];
  licenses: PackageLicense[];
  size: number;
  stats: { downloadCount: number };
  files: CatalogueVersionFile[];
  /** The lead file's SHA-256. */
  digest: string;
  dependencies: { name: string; version: string }[];
  /** The type's own fields (Maven groupId, artifactId, version; image tags …), one value list each. */
  properties: { name: string; values: string[] }[];
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}
