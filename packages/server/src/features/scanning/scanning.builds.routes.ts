import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BUILD_INFO_REPO } from '@arca/contracts';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { isAllowed } from '../../core/permissions.js';
import { repoContent } from '../artifacts/index.js';
import { artifactSha1s, mayOnBuild, runOf } from '../builds/index.js';
import type { SpdxLicense } from './licenses.js';
import { rulesFor, violationsOf, type Violation } from './scanning.policies.js';
import { listIgnoreRules, listPolicies, listWatches } from './scanning.policies.store.js';
import { findingFacts, scanOfFile, scanWithFindings } from './scanning.store.js';

const scanBuildBody = z.object({
  buildName: z.string().min(1).max(256),
  buildNumber: z.string().min(1).max(256),
  project: z.string().optional(),
});

const SEVERITY_ORDER = ['Critical', 'High', 'Medium', 'Low', 'Unknown'];

/**
 * Xray's build scan (`POST /xray/api/v1/scanBuild`, what `jf build-scan` asks): the files a build
 * produced and used, located in the repositories, their versions' findings under the policies
 * that watches of the build apply; `fail_build` when a violated rule says so.
 */
export async function scanBuildRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/xray/api/v1/scanBuild',
    {
      config: { access: 'user' },
      schema: {
        summary: "A build's violations under the watches of the build, and whether the build fails",
        body: scanBuildBody,
      },
    },
    async (request) => {
      const { buildName, buildNumber } = request.body;
      const run = await runOf(app.db, buildName, buildNumber);
      if (!run || !(await mayOnBuild(request, 'read', buildName)))
        throw notFound(`Build '${buildName}' number '${buildNumber}' does not exist.`);
      const [policies, watches, ignoreRules] = await Promise.all([
        listPolicies(app.db),
        listWatches(app.db),
        listIgnoreRules(app.db),
      ]);
      const rules = rulesFor(watches, new Map(policies.map((p) => [p.name, p])), { build: buildName });
      const content = repoContent(request);
      const located = await content.locate(await artifactSha1s(app.db, run.id, true), { except: BUILD_INFO_REPO });
      const violations: (Violation & { artifact: { path: string; sha1: string; pkgType: string; name: string } })[] =
        [];
      const seen = new Set<string>();
      for (const at of located) {
        if (!(await isAllowed(app.db, request.principal, 'read', at.repo_key, at.path))) continue;
        const repo = await content.repository(at.repo_key);
        const scan = await scanOfFile(
          app.db,
          at.repo_key,
          at.path,
          app.formatRegistry.for(repo.package_type)?.versionFolder ?? false,
        );
        if (!scan || seen.has(`${scan.repo_key}/${scan.lead_path}`)) continue;
        seen.add(`${scan.repo_key}/${scan.lead_path}`);
        const found = await scanWithFindings(app.db, scan.repo_key, scan.lead_path);
        const version = {
          packageType: scan.package_type,
          name: scan.name,
          version: scan.version,
          licenses: JSON.parse(scan.licenses) as SpdxLicense[],
          findings: (found?.findings ?? []).map(findingFacts),
        };
        for (const v of violationsOf(version, rules, ignoreRules, Date.now()))
          violations.push({
            ...v,
            artifact: {
              path: `default/${at.repo_key}/${at.path}`,
              sha1: at.sha1,
              pkgType: scan.package_type,
              name: `${scan.name}:${scan.version}`,
            },
          });
      }
      const failBuild = violations.some((v) => v.failBuild);
      const byWatch = new Map<string, typeof violations>();
      for (const v of violations) {
        const list = byWatch.get(v.watch);
        if (list) list.push(v);
        else byWatch.set(v.watch, [v]);
      }
      return {
        summary: {
          total_alerts: byWatch.size,
          fail_build: failBuild,
          message: `Build ${buildName} number ${buildNumber} was scanned: ${violations.length} violation(s) of ${rules.length ? 'the policies its watches apply' : 'no policy (no watch covers the build)'}${failBuild ? '; the build fails' : ''}.`,
          more_details_url: '',
        },
        alerts: [...byWatch].map(([watch, list]) => ({
          watch_name: watch,
          created: new Date(Number(run.started_at)).toISOString(),
          top_severity: SEVERITY_ORDER.find((s) => list.some((v) => v.severity === s)) ?? 'Unknown',
          issues: list.map((v) => ({
            severity: v.severity,
            type: v.type,
            provider: 'OSV',
            summary: v.summary,
            description: v.summary,
            policy: v.policy,
            rule: v.rule,
            fail_build: v.failBuild,
            issue_id: v.issue,
            cve: v.cves[0] ?? '',
            fixed_versions: v.fixedVersions,
            impacted_artifacts: [
              {
                name: v.artifact.name,
                display_name: v.artifact.name,
                path: v.artifact.path,
                pkg_type: v.artifact.pkgType,
                sha1: v.artifact.sha1,
                depth: 0,
              },
            ],
          })),
        })),
        licenses: [],
      };
    },
  );
}
