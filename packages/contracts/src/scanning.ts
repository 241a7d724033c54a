import { z } from 'zod';

/**
 * Security scanning's policies, watches and ignore rules, in the shape of JFrog Xray's REST API
 * (v2 policies and watches, v1 ignore rules): the bodies the server parses and the console sends.
 */

/** Severities, most severe first (Critical above High, as the advisories have it). */
export const SEVERITIES = ['Critical', 'High', 'Medium', 'Low', 'Unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

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
    /** Webhooks (of the Security violation event) told of each new violation. */
    webhooks: z.array(z.string().min(1).max(64)).max(20).default([]),
  })
  .default({ block_download: { active: false }, fail_build: false, webhooks: [] });

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
        message: `Rule '${rule.name}': a license rule sets either allowed_licenses or banned_licenses.`,
      });
  });
  if (new Set(policy.rules.map((r) => r.name)).size !== policy.rules.length)
    ctx.addIssue({ code: 'custom', path: ['rules'], message: 'Two rules of a policy have the same name.' });
});
export type Policy = z.infer<typeof policyBody>;
export type PolicyInput = z.input<typeof policyBody>;
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
export type WatchInput = z.input<typeof watchBody>;

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
      message: 'An ignore rule names vulnerabilities, licenses or components.',
    }),
});
export type IgnoreFilters = z.infer<typeof ignoreRuleBody>['ignore_filters'];
export type IgnoreRuleInput = z.input<typeof ignoreRuleBody>;

/** A URL advisories are fetched from: an OSV export (zip) or a JSON record list, every so many hours. */
export const advisorySourceBody = z.object({
  name: NAME.max(64),
  url: z
    .string()
    .trim()
    .url('The URL of an OSV export (a zip of records) or of a JSON list of records.')
    .refine((u) => /^https?:\/\//i.test(u), 'An advisory source is fetched over HTTP or HTTPS.'),
  interval_hours: z
    .number()
    .int()
    .min(1, 'Fetch at most once an hour.')
    .max(24 * 30)
    .default(24),
  enabled: z.boolean().default(true),
});
export type AdvisorySourceInput = z.input<typeof advisorySourceBody>;
