import type { FastifyInstance } from 'fastify';
import type { ArcaEvent, Policy, Watch } from '@arca/contracts';
import { cachedConfig } from '../../core/config-cache.js';
import type { Db } from '../../db/database.js';
import type { SpdxLicense } from './licenses.js';
import { rulesFor, violationsOf, type IgnoreRule } from './scanning.policies.js';
import { listIgnoreRules, listPolicies, listWatches } from './scanning.policies.store.js';
import { advisoryFacts, type FindingRow, type PackageScanRow } from './scanning.store.js';

/** The rules that tell webhooks of their violations, with the watches and ignore rules they are read with. */
interface Notifying {
  policies: Map<string, Policy>;
  watches: Watch[];
  ignoreRules: IgnoreRule[];
}

/**
 * The rules of active watches' policies that name webhooks, read once per configuration
 * generation; undefined when there are none (a scan then reads nothing more).
 */
function notifying(app: FastifyInstance): Promise<Notifying | undefined> {
  return cachedConfig(app.db, 'scanning.notifying', async () => {
    const [policies, watches, ignoreRules] = await Promise.all([
      listPolicies(app.db),
      listWatches(app.db),
      listIgnoreRules(app.db),
    ]);
    const telling = new Map(
      policies
        .map((p) => ({ ...p, rules: p.rules.filter((r) => r.actions.webhooks.length) }))
        .filter((p) => p.rules.length)
        .map((p) => [p.name, p]),
    );
    const active = watches.filter((w) => w.general_data.active && w.assigned_policies.some((p) => telling.has(p.name)));
    return active.length ? { policies: telling, watches: active, ignoreRules } : undefined;
  });
}

/**
 * What tells webhooks of the violations a scan newly finds (`recordScans`' `newlyFound`): one
 * `security.violation` event per new violation of a rule that names webhooks — an advisory the
 * version did not have, or a license rule broken by licences it did not declare before.
 */
export async function violationNotifier(app: FastifyInstance) {
  const basis = await notifying(app);
  if (!basis) return undefined;
  return async (
    trx: Db,
    { scan, findings }: { scan: PackageScanRow; findings: Omit<FindingRow, 'repo_key' | 'lead_path'>[] },
    added: Set<string>,
    licencesNew: boolean,
  ): Promise<ArcaEvent[]> => {
    const rules = rulesFor(basis.watches, basis.policies, { repoKey: scan.repo_key });
    if (!rules.length) return [];
    const fresh = findings.filter((f) => added.has(f.advisory_id));
    const facts = await advisoryFacts(trx, [...new Set(fresh.map((f) => f.advisory_id))]);
    const version = {
      packageType: scan.package_type,
      name: scan.name,
      version: scan.version,
      licenses: JSON.parse(scan.licenses) as SpdxLicense[],
      findings: fresh.map((f) => ({
        advisoryId: f.advisory_id,
        aliases: facts.get(f.advisory_id)?.aliases ?? [],
        severity: f.severity,
        summary: facts.get(f.advisory_id)?.summary ?? '',
        fixedVersions: JSON.parse(f.fixed_versions) as string[],
        component: f.component,
      })),
    };
    const webhooks = new Map(rules.map((r) => [`${r.watch}\n${r.policy}\n${r.rule.name}`, r.rule.actions.webhooks]));
    return violationsOf(version, rules, basis.ignoreRules, Date.now())
      .filter((v) => v.type === 'security' || licencesNew)
      .map((v) => ({
        type: 'security.violation' as const,
        repoKey: scan.repo_key,
        path: scan.lead_path,
        payload: {
          watch: v.watch,
          policy: v.policy,
          rule: v.rule,
          kind: v.type,
          issue: v.issue,
          severity: v.severity,
          summary: v.summary,
          cves: v.cves,
          fixedVersions: v.fixedVersions,
          packageType: scan.package_type,
          name: scan.name,
          version: scan.version,
          component: v.component,
          webhooks: webhooks.get(`${v.watch}\n${v.policy}\n${v.rule}`) ?? [],
        },
      }));
  };
}
