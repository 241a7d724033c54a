import type { SpdxLicense } from './licenses.js';
import type { IgnoreFilters, Policy, PolicyRule, Watch } from '@arca/contracts';

/** What the policies, watches and ignore rules (`@arca/contracts`) make of a scanned package version: its violations. */

export interface IgnoreRule {
  id: string;
  notes: string;
  expiresAt: number | null;
  filters: IgnoreFilters;
}

/** A rule of a policy that an active watch applies, with the watch and the policy. */
export interface AppliedRule {
  watch: string;
  policy: string;
  type: 'security' | 'license';
  rule: PolicyRule;
}

/** What a scanned package version is matched against the rules as. */
export interface ScannedVersion {
  packageType: string;
  name: string;
  version: string;
  licenses: SpdxLicense[];
  findings: {
    advisoryId: string;
    aliases: string[];
    severity: string;
    summary: string;
    fixedVersions: string[];
    /** The package of an image it is in (empty for the version itself). */
    component?: string;
  }[];
}

export interface Violation {
  watch: string;
  policy: string;
  rule: string;
  type: 'security' | 'license';
  /** The advisory's id, or the licence's. */
  issue: string;
  severity: string;
  summary: string;
  fixedVersions: string[];
  cves: string[];
  /** The package of an image it is in, if any. */
  component: string;
  blockDownload: boolean;
  failBuild: boolean;
}

const RANK: Record<string, number> = { Critical: 4, High: 3, Medium: 2, Low: 1, Unknown: 0 };

/** The watches' rules that apply to a repository (or build), from active watches only. */
export function rulesFor(
  watches: Watch[],
  policies: Map<string, Policy>,
  target: { repoKey: string } | { build: string },
): AppliedRule[] {
  const applied: AppliedRule[] = [];
  for (const watch of watches) {
    if (!watch.general_data.active) continue;
    const covers = watch.project_resources.resources.some((r) =>
      'repoKey' in target
        ? r.type === 'all-repos' || (r.type === 'repository' && r.name === target.repoKey)
        : r.type === 'all-builds' || (r.type === 'build' && r.name === target.build),
    );
    if (!covers) continue;
    for (const assigned of watch.assigned_policies) {
      const policy = policies.get(assigned.name);
      for (const rule of policy?.rules ?? [])
        applied.push({ watch: watch.general_data.name, policy: policy!.name, type: policy!.type, rule });
    }
  }
  return applied;
}

const lower = (values: string[] | undefined) => (values ?? []).map((v) => v.toLowerCase());

/** Whether an ignore rule sets this issue of this version aside under this watch and policy, at `now`. */
function ignores(
  rule: IgnoreRule,
  version: ScannedVersion,
  issue: { ids: string[]; licence?: boolean },
  applied: AppliedRule,
  now: number,
): boolean {
  if (rule.expiresAt !== null && rule.expiresAt <= now) return false;
  const f = rule.filters;
  if (f.watches?.length && !f.watches.includes(applied.watch)) return false;
  if (f.policies?.length && !f.policies.includes(applied.policy)) return false;
  const ids = issue.ids.map((id) => id.toLowerCase());
  const named = issue.licence ? lower(f.licenses) : lower(f.vulnerabilities);
  const otherKindOnly = issue.licence
    ? !f.licenses?.length && f.vulnerabilities?.length
    : !f.vulnerabilities?.length && f.licenses?.length;
  if (otherKindOnly) return false;
  if (named.length && !named.some((n) => n === 'any' || ids.includes(n))) return false;
  if (f.components?.length) {
    const hit = f.components.some((c) => {
      const [type, name] = c.name.includes('://') ? c.name.split('://', 2) : [undefined, c.name];
      return (
        (type === undefined || type.toLowerCase() === version.packageType.toLowerCase()) &&
        name!.toLowerCase() === version.name.toLowerCase() &&
        (c.version === undefined || c.version === version.version)
      );
    });
    if (!hit) return false;
  }
  return true;
}

/** The violations of a scanned version under the rules that apply to it, less what ignore rules set aside. */
export function violationsOf(
  version: ScannedVersion,
  rules: AppliedRule[],
  ignoreRules: IgnoreRule[],
  now: number,
): Violation[] {
  const found: Violation[] = [];
  for (const applied of rules) {
    const { rule } = applied;
    const actions = { blockDownload: rule.actions.block_download.active, failBuild: rule.actions.fail_build };
    const base = { watch: applied.watch, policy: applied.policy, rule: rule.name, type: applied.type, ...actions };
    if (applied.type === 'security') {
      const min = rule.criteria.min_severity ?? 'All Severities';
      for (const finding of version.findings) {
        if (min !== 'All Severities' && (RANK[finding.severity] ?? 0) < RANK[min]!) continue;
        const ids = [finding.advisoryId, ...finding.aliases];
        if (ignoreRules.some((r) => ignores(r, version, { ids }, applied, now))) continue;
        found.push({
          ...base,
          issue: finding.advisoryId,
          severity: finding.severity,
          summary: finding.summary,
          fixedVersions: finding.fixedVersions,
          cves: ids.filter((id) => id.startsWith('CVE-')),
          component: finding.component ?? '',
        });
      }
      continue;
    }
    const allowed = rule.criteria.allowed_licenses && lower(rule.criteria.allowed_licenses);
    const banned = lower(rule.criteria.banned_licenses);
    const licences = version.licenses.length ? version.licenses : [{ id: '', name: 'Unknown' }];
    for (const licence of licences) {
      const ids = [licence.id, licence.name].filter(Boolean);
      const known = licence.id !== '';
      const breaks = !known
        ? !rule.criteria.allow_unknown
        : allowed
          ? !ids.some((id) => allowed.includes(id.toLowerCase()))
          : ids.some((id) => banned.includes(id.toLowerCase()));
      if (!breaks) continue;
      if (
        ignoreRules.some((r) =>
          ignores(r, version, { ids: ids.length ? ids : ['Unknown'], licence: true }, applied, now),
        )
      )
        continue;
      found.push({
        ...base,
        issue: licence.id || licence.name,
        severity: 'High',
        summary: known
          ? `The license ${licence.id} is ${allowed ? 'not among those allowed' : 'banned'} by policy '${applied.policy}'.`
          : `The license is not known, and policy '${applied.policy}' does not allow unknown licenses.`,
        fixedVersions: [],
        cves: [],
        component: '',
      });
    }
  }
  return found;
}

/** What a blocked download answers: the version and the first violation that blocks it, in words. */
export function blockMessage(version: { name: string; version: string }, violation: Violation): string {
  const what = `${version.name}@${version.version}`;
  const why =
    violation.type === 'security'
      ? `${violation.issue}${violation.cves.length ? ` (${violation.cves.join(', ')})` : ''}${violation.component ? ` in ${violation.component}` : ''}, severity ${violation.severity}: ${violation.summary}`
      : violation.summary;
  const fix = violation.fixedVersions.length ? ` Fixed in ${violation.fixedVersions.join(', ')}.` : '';
  return `Download of ${what} blocked by policy '${violation.policy}' of watch '${violation.watch}': ${why}.${fix}`.replace(
    /\.\.(?= |$)/g,
    '.',
  );
}
