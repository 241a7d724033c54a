import semver from 'semver';
import { z } from 'zod';

/*
 * The OSV format (https://ossf.github.io/osv-schema/): one JSON record per vulnerability, naming
 * the packages it affects by ecosystem and name, with the affected versions as ranges of events
 * (introduced, fixed, last_affected, limit) and as a list.
 */

const event = z.union([
  z.object({ introduced: z.string() }),
  z.object({ fixed: z.string() }),
  z.object({ last_affected: z.string() }),
  z.object({ limit: z.string() }),
]);
export type OsvEvent = z.infer<typeof event>;

const range = z.object({
  type: z.enum(['SEMVER', 'ECOSYSTEM', 'GIT']),
  repo: z.string().optional(),
  events: z.array(event).min(1),
});
export type OsvRange = z.infer<typeof range>;

const affected = z.object({
  package: z.object({ ecosystem: z.string().min(1), name: z.string().min(1), purl: z.string().optional() }),
  ranges: z.array(range).optional(),
  versions: z.array(z.string()).optional(),
  severity: z.array(z.object({ type: z.string(), score: z.string() })).optional(),
  ecosystem_specific: z.record(z.string(), z.unknown()).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvAffected = z.infer<typeof affected>;

export const OSV_RECORD = z.object({
  schema_version: z.string().optional(),
  id: z.string().min(1),
  modified: z.string().min(1),
  published: z.string().optional(),
  withdrawn: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  related: z.array(z.string()).optional(),
  summary: z.string().optional(),
  details: z.string().optional(),
  severity: z.array(z.object({ type: z.string(), score: z.string() })).optional(),
  affected: z.array(affected).optional(),
  references: z.array(z.object({ type: z.string(), url: z.string() })).optional(),
  database_specific: z.record(z.string(), z.unknown()).optional(),
});
export type OsvRecord = z.infer<typeof OSV_RECORD>;

/** An ecosystem's order of versions, in the form the advisory writes them. */
export interface VersionOrder {
  compare(a: string, b: string): number;
  valid(version: string): boolean;
}

/** An ecosystem as OSV names it, without the release after a colon (`Debian:12` is `Debian`). */
export const baseEcosystem = (ecosystem: string) => ecosystem.split(':')[0]!;

const boundOf = (e: OsvEvent) =>
  'introduced' in e ? e.introduced : 'fixed' in e ? e.fixed : 'last_affected' in e ? e.last_affected : e.limit;

/** SemVer's order, for SEMVER ranges whatever the ecosystem (a leading `v` tolerated, as OSV asks). */
const SEMVER_ORDER: VersionOrder = {
  compare: (a, b) => semver.compare(a.replace(/^v/, ''), b.replace(/^v/, '')),
  valid: (version) => semver.valid(version.replace(/^v/, '')) !== null,
};

/**
 * Whether `version` lies in a range, as OSV's evaluation has it: the events in version order
 * ("0" first), each introduced one opening the range, each fixed one (reached) or last_affected
 * one (passed) closing it; below a limit, when the range has limits. A GIT range, or a version
 * the range's order cannot place, is not matched here.
 */
export function inRange(version: string, range: OsvRange, order: VersionOrder): boolean {
  if (range.type === 'GIT') return false;
  const by = range.type === 'SEMVER' ? SEMVER_ORDER : order;
  if (!by.valid(version)) return false;
  const placed = range.events.filter((e) => boundOf(e) === '0' || by.valid(boundOf(e)));
  const sorted = placed
    .map((e, index) => ({ e, index }))
    .sort((x, y) => {
      const a = boundOf(x.e);
      const b = boundOf(y.e);
      if (a === '0' || b === '0') return a === b ? x.index - y.index : a === '0' ? -1 : 1;
      return by.compare(a, b) || x.index - y.index;
    })
    .map(({ e }) => e);
  const limits = sorted.filter((e): e is { limit: string } => 'limit' in e).map((e) => e.limit);
  if (limits.length && !limits.some((limit) => limit === '*' || by.compare(version, limit) < 0)) return false;
  let affected = false;
  for (const e of sorted) {
    if ('introduced' in e) {
      if (e.introduced === '0' || by.compare(version, e.introduced) >= 0) affected = true;
    } else if ('fixed' in e) {
      if (by.compare(version, e.fixed) >= 0) affected = false;
    } else if ('last_affected' in e) {
      if (by.compare(version, e.last_affected) > 0) affected = false;
    }
  }
  return affected;
}

/** Whether one `affected` entry of a record covers `version`: listed by name, or within one of its ranges. */
export function affects(entry: OsvAffected, version: string, order: VersionOrder): boolean {
  if (entry.versions?.includes(version)) return true;
  return (entry.ranges ?? []).some((r) => inRange(version, r, order));
}

/**
 * The versions that fix what `entry` covers (its ranges' fixed events), for the "fixed versions"
 * people read first.
 */
export function fixedVersions(entry: OsvAffected): string[] {
  return [...new Set((entry.ranges ?? []).flatMap((r) => r.events.flatMap((e) => ('fixed' in e ? [e.fixed] : []))))];
}
