import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../core/audit.js';
import { repoContent, type RepoContent } from '../artifacts/index.js';
import type { SpdxLicense } from './licenses.js';
import { importAdvisories, recordsOf } from './scanning.import.js';
import { cvssOf } from './cvss.js';
import type { OsvRecord } from './osv.js';
import { advisorySourceRoutes } from './scanning.sources.routes.js';
import { scanPolicyRoutes } from './scanning.policies.routes.js';
import { sbomRoutes } from './scanning.sbom.routes.js';
import { scanBuildRoutes } from './scanning.builds.routes.js';
import { findingsMatching, scanOfFile, scanStats, scanWithFindings } from './scanning.store.js';
import { canSee, readableRepositories } from '../search/index.js';
import { SEVERITIES } from '@arca/contracts';
import type { InstalledPackages } from '../../formats/format.js';
import { badRequest, notFound } from '../../core/errors.js';
import { catalogueVersionOf } from '../packages/index.js';
import type { Scanner } from './scanning.scanner.js';

/** The CVSS score and vector of an advisory (its stored record) in Xray's fields: `cvss_v3_score`, `cvss_v3_vector`. */
function cvssFields(record: string): Record<string, string> {
  const osv = JSON.parse(record) as OsvRecord;
  const cvss = cvssOf([...(osv.severity ?? []), ...(osv.affected ?? []).flatMap((a) => a.severity ?? [])]);
  return cvss
    ? { [`cvss_v${cvss.version}_score`]: cvss.score.toFixed(1), [`cvss_v${cvss.version}_vector`]: cvss.vector }
    : {};
}

/** Versions a vulnerability search lists at most. */
const SEARCH_LIMIT = 1000;

/** Uploads of advisories up to this size (an ecosystem's whole OSV export). */
const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const importAnswer = z.object({
  added: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  records: z.number(),
});

const summaryBody = z.object({
  paths: z.array(z.string().min(1)).min(1).max(1000).describe("artifacts' paths: '[default/]{repo}/{path}'"),
});

const issue = z.object({
  issue_id: z.string(),
  summary: z.string(),
  description: z.string(),
  issue_type: z.literal('security'),
  severity: z.string(),
  provider: z.string(),
  cves: z.array(
    z.object({
      cve: z.string(),
      cvss_v2_score: z.string().optional(),
      cvss_v2_vector: z.string().optional(),
      cvss_v3_score: z.string().optional(),
      cvss_v3_vector: z.string().optional(),
      cvss_v4_score: z.string().optional(),
      cvss_v4_vector: z.string().optional(),
    }),
  ),
  created: z.string(),
  impact_path: z.array(z.string()),
  components: z.array(z.object({ component_id: z.string(), fixed_versions: z.array(z.string()) })),
});

const summaryAnswer = z.object({
  artifacts: z.array(
    z.object({
      general: z.object({
        name: z.string(),
        path: z.string(),
        pkg_type: z.string(),
        sha256: z.string(),
        component_id: z.string(),
      }),
      scan_status: z.string(),
      issues: z.array(issue),
      licenses: z.array(z.object({ name: z.string(), full_name: z.string(), components: z.array(z.string()) })),
    }),
  ),
  errors: z.array(z.object({ identifier: z.string(), error: z.string() })),
});

/**
 * Security scanning's calls in the shape of JFrog Xray's: advisories imported in the OSV format
 * (administrators; the matching runs again at once), and the summary of artifacts — their scan
 * status, the advisories each is affected by with the versions that fix them, their licenses.
 */
export async function scanningRoutes(untyped: FastifyInstance, options: { scanner: Scanner }): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const { scanner } = options;
  // a version of a format whose versions are folders (Maven's) is scanned as its lead file, whichever of its files is asked for
  const inFolder = async (content: RepoContent, repoKey: string) =>
    Boolean(app.formatRegistry.for((await content.repository(repoKey))?.package_type ?? '')?.versionFolder);
  const leadOf = async (content: RepoContent, item: { repo_key: string; path: string }) =>
    (await scanOfFile(app.db, item.repo_key, item.path, await inFolder(content, item.repo_key)))?.lead_path ??
    item.path;
  await app.register(scanPolicyRoutes);
  await app.register(sbomRoutes);
  await app.register(scanBuildRoutes);
  await app.register(advisorySourceRoutes);
  app.addContentTypeParser(
    ['application/zip', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/xray/api/v1/advisories/import',
    {
      config: { access: 'admin' },
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        summary: 'Imports advisories in the OSV format: a zip of records (an osv.dev export), a record or an array',
        querystring: z.object({
          name: z.string().max(200).optional().describe('what the upload is called in the records'),
        }),
        response: { 200: importAnswer },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body)
        ? request.body
        : request.body === undefined || request.body === ''
          ? Buffer.alloc(0)
          : Buffer.from(JSON.stringify(request.body));
      const name = request.query.name ?? 'the upload';
      const counts = await importAdvisories(app, await recordsOf(body, name), name);
      await audit(request, { category: 'security', action: 'import advisories', target: name, after: counts });
      return counts;
    },
  );

  app.get(
    '/xray/ui/unified/stats/indexStatus',
    {
      config: { access: 'public' },
      schema: {
        summary:
          'What the scans of the repositories the caller may read found: versions by scan status, open issues by severity',
        response: {
          200: z.object({
            statuses: z.record(z.string(), z.number()),
            severities: z.array(z.object({ severity: z.string(), count: z.number() })),
            affectedVersions: z.number(),
          }),
        },
      },
    },
    async (request) => {
      const readable = await readableRepositories(app.db, request.principal, { trash: false });
      const { statuses, severities, affected } = await scanStats(
        app.db,
        readable.whole,
        [...readable.partial.keys()].map((repoKey) => ({
          repoKey,
          visible: (leadPath: string) => canSee(readable, repoKey, leadPath),
        })),
      );
      return {
        statuses,
        // every severity, most severe first, so that a chart keeps its order and colours
        severities: SEVERITIES.map((severity) => ({ severity, count: severities[severity] ?? 0 })),
        affectedVersions: affected,
      };
    },
  );

  app.get(
    '/xray/ui/search/vulnerabilities',
    {
      config: { access: 'public' },
      schema: {
        summary:
          'The scanned package versions the caller may read that an advisory (its id or a CVE id) or a package (its name) concerns',
        querystring: z.object({
          query: z.string().trim().min(1, 'Type an advisory id, a CVE id or a package name.').max(256),
        }),
        response: {
          200: z.object({
            results: z.array(
              z.object({
                repoKey: z.string(),
                path: z.string(),
                packageType: z.string(),
                name: z.string(),
                version: z.string(),
                advisory: z.string(),
                cves: z.array(z.string()),
                summary: z.string(),
                severity: z.string(),
                fixedVersions: z.array(z.string()),
                component: z.string(),
                scannedAt: z.string(),
              }),
            ),
            /** More matched than are listed. */
            truncated: z.boolean(),
          }),
        },
      },
    },
    async (request) => {
      const readable = await readableRepositories(app.db, request.principal, { trash: false });
      const rows = (await findingsMatching(app.db, request.query.query, SEARCH_LIMIT + 1)).filter((r) =>
        canSee(readable, r.repo_key, r.lead_path),
      );
      const rank = (severity: string) => SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number]);
      return {
        results: rows
          .slice(0, SEARCH_LIMIT)
          .map((r) => ({
            repoKey: r.repo_key,
            path: r.lead_path,
            packageType: r.package_type,
            name: r.name,
            version: r.version,
            advisory: r.advisory_id,
            cves: [r.advisory_id, ...(JSON.parse(r.aliases) as string[])].filter((id) => id.startsWith('CVE-')),
            summary: r.summary,
            severity: r.severity,
            fixedVersions: JSON.parse(r.fixed_versions) as string[],
            component: r.component,
            scannedAt: new Date(Number(r.scanned_at)).toISOString(),
          }))
          .sort((a, b) => rank(a.severity) - rank(b.severity)),
        truncated: rows.length > SEARCH_LIMIT,
      };
    },
  );

  app.post(
    '/xray/api/v1/summary/artifact',
    {
      config: { access: 'user' },
      schema: {
        summary: "The security issues and licenses of artifacts, by path (Xray's artifact summary)",
        body: summaryBody,
        response: { 200: summaryAnswer },
      },
    },
    async (request) => {
      const content = repoContent(request);
      const answer: z.infer<typeof summaryAnswer> = { artifacts: [], errors: [] };
      for (const identifier of request.body.paths) {
        const [repoKey, ...rest] = identifier.replace(/^default\//, '').split('/');
        const path = rest.join('/');
        const item = repoKey && path ? await content.stored(repoKey, path).catch(() => undefined) : undefined;
        if (!item || item.folder === 1) {
          answer.errors.push({ identifier, error: 'Artifact does not exist' });
          continue;
        }
        const found = await scanWithFindings(app.db, item.repo_key, await leadOf(content, item));
        const componentId = found ? `${found.scan.package_type}://${found.scan.name}:${found.scan.version}` : '';
        // what an image's distribution packages are (`deb`, `rpm`, `apk`)
        const installed = found?.scan.installed ? (JSON.parse(found.scan.installed) as InstalledPackages) : undefined;
        const osType = installed?.purl?.type ?? (installed?.ecosystem.startsWith('Alpine') ? 'apk' : 'deb');
        const shown = `default/${item.repo_key}/${item.path}`;
        answer.artifacts.push({
          general: {
            name: item.name,
            path: shown,
            pkg_type: found?.scan.package_type ?? '',
            sha256: item.sha256 ?? '',
            component_id: componentId,
          },
          scan_status: found?.scan.status ?? 'not scanned',
          issues: (found?.findings ?? []).map((f) => {
            const aliases = JSON.parse(f.advisory.aliases) as string[];
            return {
              issue_id: f.advisory_id,
              summary: f.advisory.summary,
              description: f.advisory.details,
              issue_type: 'security' as const,
              severity: f.severity,
              provider: 'OSV',
              cves: [f.advisory_id, ...aliases]
                .filter((id) => id.startsWith('CVE-'))
                .map((cve) => ({ cve, ...cvssFields(f.advisory.record) })),
              created: new Date(Number(f.advisory.published ?? f.advisory.modified)).toISOString(),
              // in an image: the Debian package it was found in
              impact_path: f.component ? [shown, f.component] : [shown],
              components: [
                {
                  // in an image: a distribution's package (`libssl3 3.0.11-1`), or an application's (`npm://left-parse 1.0.0`)
                  component_id: f.component
                    ? `${f.component.includes('://') ? '' : `${osType}://`}${f.component.replace(' ', ':')}`
                    : componentId,
                  fixed_versions: JSON.parse(f.fixed_versions) as string[],
                },
              ],
            };
          }),
          licenses: (JSON.parse(found?.scan.licenses ?? '[]') as SpdxLicense[]).map((l) => ({
            name: l.id || l.name,
            full_name: l.name,
            components: [componentId],
          })),
        });
      }
      return answer;
    },
  );

  app.post(
    '/xray/ui/component/scanNow',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Matches the package version a file belongs to against the advisories now, and answers its scan',
        body: z.object({ path: z.string().trim().min(1).max(2048) }),
        response: { 200: z.object({ scan_status: z.string(), issues: z.number().int() }) },
      },
    },
    async (request) => {
      const [repoKey = '', ...rest] = request.body.path.replace(/^default\//, '').split('/');
      const path = rest.join('/');
      // the caller reads the file, or it is not there for him
      const content = repoContent(request);
      const item = path ? await content.stored(repoKey, path).catch(() => undefined) : undefined;
      if (!item || item.folder === 1) throw notFound(`'${request.body.path}' does not exist.`);
      const version = await catalogueVersionOf(app.db, item.repo_key, item.path, await inFolder(content, repoKey));
      if (!version)
        throw badRequest(`'${request.body.path}' is no package version: only package versions are scanned.`, 'path');
      await scanner.scan([version]);
      const found = await scanWithFindings(app.db, item.repo_key, version.lead_path);
      return { scan_status: found?.scan.status ?? 'not scanned', issues: found?.findings.length ?? 0 };
    },
  );
}
