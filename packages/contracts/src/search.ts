import { z } from 'zod';
import { PACKAGE_SEARCH_MIN_CHARS } from './packages.js';

/** Artifact search: the types the console offers, package fields, limits and messages (spec part 1 §3, §5; part 2 §7.9, §9). */

export const SEARCH_TYPES = [
  'quick',
  'package',
  'archive',
  'property',
  'checksum',
  'remote',
  'trash',
  'class',
  'gavc',
] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Most results one console search answers; past it the message says only the first are shown. */
export const SEARCH_RESULT_LIMIT = 500;
/** Recent searches kept per user (de-duplicated by query and type, newest first). */
export const RECENT_SEARCHES_MAX = 10;
/** Checksum lengths: SHA-1, MD5, SHA-256. */
export const CHECKSUM_LENGTHS = { 40: 'sha1', 32: 'md5', 64: 'sha256' } as const;

export const SEARCH_MESSAGES = {
  invalidChecksum: 'Invalid Checksum Length',
  invalidParams: 'Some params are invalid',
  emptyQuery: 'Type something to search for.',
  noProperty: 'Add at least one property to search for.',
  noClass: 'Type a class name to search for.',
  packageTooShort: `Type at least ${PACKAGE_SEARCH_MIN_CHARS} characters to search for packages.`,
  noCoordinates: 'Fill in at least one of group ID, artifact ID, version and classifier.',
  deleted: (n: number) => `${n} item(s) moved to the trash can`,
  firstMatches: (n: number) => `Showing first ${n} matches found`,
  items: (n: number) => `${n} item(s)`,
} as const;

/** A field a package search can compare (spec "Package field definition"). */
export interface PackageSearchField {
  id: string;
  displayName: string;
  /** The URL query name the console's results page uses for it. */
  uiSearchKey: string;
  allowedComparators: string[];
  default?: boolean;
  /** What it compares: a catalogue column, or one of the version's own fields. */
  source: 'name' | 'version' | 'description' | 'tags' | `fields.${string}`;
}

const field = (
  id: string,
  displayName: string,
  source: PackageSearchField['source'],
  isDefault = false,
): PackageSearchField => ({
  id,
  displayName,
  uiSearchKey: id,
  allowedComparators: ['equals', 'matches'],
  source,
  ...(isDefault ? { default: true } : {}),
});

/** The package types a package search covers, with their fields; 'all' searches every type by name and version. */
export const PACKAGE_SEARCH_TYPES: {
  id: string;
  displayName: string;
  types: string[];
  fields: PackageSearchField[];
}[] = [
  {
    id: 'all',
    displayName: 'All',
    types: [],
    fields: [field('packageName', 'Name', 'name', true), field('packageVersion', 'Version', 'version')],
  },
  {
    id: 'npm',
    displayName: 'npm',
    types: ['npm'],
    fields: [
      field('npmName', 'Name', 'name', true),
      field('npmVersion', 'Version', 'version'),
      field('npmKeywords', 'Keywords', 'tags'),
      field('npmDescription', 'Description', 'description'),
    ],
  },
  {
    id: 'pypi',
    displayName: 'PyPI',
    types: ['pypi'],
    fields: [
      field('pypiName', 'Name', 'name', true),
      field('pypiVersion', 'Version', 'version'),
      field('pypiSummary', 'Summary', 'description'),
    ],
  },
  {
    id: 'maven',
    displayName: 'Maven',
    types: ['maven', 'gradle'],
    fields: [
      field('groupID', 'Group ID', 'fields.groupId', true),
      field('artifactID', 'Artifact ID', 'fields.artifactId'),
      field('version', 'Version', 'version'),
      field('packaging', 'Packaging', 'fields.packaging'),
    ],
  },
  {
    id: 'docker',
    displayName: 'Docker',
    types: ['docker', 'oci'],
    fields: [
      field('dockerV2Image', 'Image', 'name', true),
      field('dockerV2Tag', 'Tag', 'version'),
      field('dockerV2Digest', 'Image digest', 'fields.digest'),
    ],
  },
];

/** A search the console remembers (spec "Recent search entry"). */
export interface RecentSearch {
  id: string;
  type: SearchType;
  /** The results page's query string (`?type=quick&name=…`): what the entry opens. */
  query: string;
  /** What the entry shows. */
  label: string;
}

/**
 * The query of Artifactory's REST searches (`/api/search/{artifact|gavc|prop|…}` and the layout
 * searches): named parameters, each once (lists are comma-separated, as Artifactory reads them).
 */
export const restSearchQuerySchema = z.record(z.string(), z.string().max(8192));
export type RestSearchQuery = z.infer<typeof restSearchQuerySchema>;
