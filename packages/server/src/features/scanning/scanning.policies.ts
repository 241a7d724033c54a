import { z } from 'zod';
import type { SpdxLicense } from './licenses.js';
import { SEVERITIES, type Severity } from './scanning.store.js';

/**
 * Policies, watches and ignore rules in the shape of JFrog Xray's REST API (v2 policies and
 * watches, v1 ignore rules), and what they make of a scanned package version: its violations.
 */

const NAME = z
  .string()
  .min(1)
  .max(128)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'A name has letters, digits, dots, dashes and underscores, and starts with a letter or digit.',
  );

/** `All Severities`, or the lowest severity a rule catches. */
const MIN_SEVERITY = z.string().transform((value, ctx) => {
  const found = ['All Severities', ...SEVERITIES].find((s) => s.toLowerCase() === value.trim().toLowerCase());
  if (!found || found === 'Unknown') {
    ctx.addIssue({
      code: 'custom',
      message: `'${value}' is not a severity: All Severities, Critical, High, Medium or Low.`,
    });
    return z.NEVER;
  }
  return found as 'All Severities' | Severity;
});

const ruleActions = z
  .object({
    block_download: z.object({ active: z.boolean() }).default({ active: false }),
    fail_build: z.boolean().default(false),
  })
  .default({ block_download: { active: false }, fail_build: false });

const policyRule = z.object({
  name: NAME,
  priority: z.number().int().min(1).optional(),
  criteria: z
    .object({
      min_severity: MIN_SEVERITY.optional(),
      allowed_licenses: z.array(z.string().min(1).max(128)).max(500).optional(),
      banned_licenses: z.array(z.string().min(1).max(128)).max(500).optional(),
      allow_unknown: z.boolean().default(true),
    })
    .strict(),
  actions: ruleActions,
});

/** A policy as the answers show it (the request body adds the checks across fields). */
export const policyShape = z.object({
  name: NAME,
  type: z.enum(['security', 'license']),
  description: z.string().max(2000).default(''),
  rules: z.array(policyRule).min(1, 'A policy needs at least one rule.').max(50),
});

export const policyBody = policyShape.superRefine((policy, ctx) => {
  policy.rules.forEach((rule, i) => {
    const { min_severity, allowed_licenses, banned_licenses } = rule.criteria;
    const path = ['rules', i, 'criteria'];
    if (policy.type === 'security' && (min_severity === undefined || allowed_licenses || banned_licenses))
      ctx.addIssue({
        code: 'custom',
        path,
        message: `Rule '${rule.name}': a security rule sets min_severity, and only it.`,
      });
    if (policy.type === 'license' && (min_severity !== undefined || !allowed_licenses === !banned_licenses))
      ctx.addIssue({
        code: 'custom',
        path,
        message: `Rule '${rule.name}': a licence rule sets either allowed_licenses or banned_licenses.`,
      });
  });
  if (new Set(policy.rules.map((r) => r.name)).size !== policy.rules.length)
    ctx.addIssue({ code: 'custom', path: ['rules'], message: 'Two rules of a policy have the same name.' });
});
export type Policy = z.infer<typeof policyBody>;
export type PolicyRule = Policy['rules'][number];

const resource = z.discriminatedUnion('type', [
  z.object({ type: z.literal('repository'), name: z.string().min(1).max(64), bin_mgr_id: z.string().optional() }),
  z.object({ type: z.literal('all-repos') }),
  z.object({ type: z.literal('build'), name: z.string().min(1).max(256), bin_mgr_id: z.string().optional() }),
  z.object({ type: z.literal('all-builds') }),
]);

export const watchBody = z.object({
  general_data: z.object({
    name: NAME,
    description: z.string().max(2000).default(''),
    active: z.boolean().default(true),
  }),
  project_resources: z.object({
    resources: z.array(resource).min(1, 'A watch covers at least one repository or build.').max(1000),
  }),
  assigned_policies: z
    .array(z.object({ name: NAME, type: z.enum(['security', 'license']) }))
    .min(1, 'A watch applies at least one policy.')
    .max(100),
});
export type Watch = z.infer<typeof watchBody>;

export const ignoreRuleBody = z.object({
  notes: z.string().trim().min(1, 'An ignore rule needs a reason (notes).').max(2000),
  expires_at: z.string().datetime({ offset: true, message: 'expires_at is a date and time (ISO 8601).' }).optional(),
  ignore_filters: z
    .object({
      vulnerabilities: z.array(z.string().min(1).max(255)).max(500).optional(),
      licenses: z.array(z.string().min(1).max(128)).max(500).optional(),
      components: z
        .array(z.object({ name: z.string().min(1).max(512), version: z.string().min(1).max(255).optional() }))
        .max(500)
        .optional(),
      watches: z.array(NAME).max(100).optional(),
      policies: z.array(NAME).max(100).optional(),
    })
    .refine((f) => f.vulnerabilities?.length || f.licenses?.length || f.components?.length, {
      message: 'An ignore rule names vulnerabilities, licences or components.',
    }),
});
export type IgnoreFilters = z.infer<typeof ignoreRuleBody>['ignore_filters'];

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
          ? `The licence ${licence.id} is ${allowed ? 'not among those allowed' : 'banned'} by policy '${applied.policy}'.`
          : `The licence is not known, and policy '${applied.policy}' does not allow unknown licences.`,
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
