import type { ColumnType } from 'kysely';

/** Security scanning: advisories and what they match (see the 2026-12-27 migration). */

/** An advisory as imported (an OSV record, kept whole), with what the console lists it by. */
export interface AdvisoriesTable {
  /** The record's id (`GHSA-…`, `PYSEC-…`, `CVE-…`). */
  id: string;
  modified: number;
  published: number | null;
  withdrawn: number | null;
  summary: string;
  details: string;
  /** Critical, High, Medium, Low or Unknown. */
  severity: string;
  /** JSON array of the record's aliases (CVE ids among them). */
  aliases: string;
  /** The OSV record (JSON). */
  record: string;
  /** Where it came from: an upload's file name or the URL it was fetched from. */
  source: string;
  imported_at: number;
}

/** One `affected` entry of an advisory: the package it names (its name as the ecosystem writes it) and the entry (JSON). */
export interface AdvisoryPackagesTable {
  advisory_id: string;
  position: number;
  /** The ecosystem without a release (`Debian`, not `Debian:12`). */
  ecosystem: string;
  name: string;
  affected: string;
}

/**
 * A package version's scan, by its lead file: what was scanned (type, name, version, content),
 * its status as the spec names them, when and against which advisories, and the sweep that last saw
 * it in the catalogue.
 */
export interface PackageScansTable {
  repo_key: string;
  lead_path: string;
  package_type: string;
  name: string;
  version: string;
  sha256: string;
  /** JSON array of the licences it declares, as SPDX has them: `{ id, name }` (`id` empty for one SPDX does not know). */
  licenses: string;
  /** scanned, not supported, scan failed. */
  status: string;
  message: string;
  scanned_at: number;
  /** The advisories it was matched against: when they had last changed then. */
  advisories_at: number;
  swept_at: number;
  /** What an image installs as its layers were read (JSON of `InstalledPackages`); empty for a package. */
  installed: string;
}

/** An advisory a scanned package version is affected by. */
export interface PackageFindingsTable {
  repo_key: string;
  lead_path: string;
  advisory_id: string;
  severity: string;
  /** JSON array of the versions that fix it. */
  fixed_versions: string;
  /** The package of an image it was found in (`openssl 3.0.11-1`); empty for a package version itself. */
  component: string;
}

/** A policy (see the 2026-12-28 migration): its rules, each with criteria and actions (JSON, `PolicyRule[]`). */
export interface ScanPoliciesTable {
  name: string;
  /** security or license. */
  type: string;
  description: string;
  rules: string;
  created_at: number;
  created_by: string;
  modified_at: number;
}

/** A watch: the repositories and builds it covers (JSON) and the policies it applies (JSON array of names). */
export interface ScanWatchesTable {
  name: string;
  description: string;
  active: number;
  resources: string;
  policies: string;
  created_at: number;
  created_by: string;
  modified_at: number;
}

/** A rule that sets findings aside: which (JSON filters), why, until when (null: no expiry). */
export interface ScanIgnoreRulesTable {
  id: string;
  notes: string;
  expires_at: number | null;
  filters: string;
  created_at: number;
  created_by: string;
}

/** A URL advisories are fetched from every so many hours (`migrations/2026-12-30-advisory-sources.ts`). */
export interface AdvisorySourcesTable {
  name: string;
  url: string;
  interval_hours: number;
  enabled: number;
  created_at: number;
  created_by: string;
  last_run_at: number | null;
  /** 'imported', 'unchanged' or 'failed'. */
  last_outcome: string | null;
  last_message: ColumnType<string, string | undefined, string>;
  etag: ColumnType<string, string | undefined, string>;
  last_modified: ColumnType<string, string | undefined, string>;
}
