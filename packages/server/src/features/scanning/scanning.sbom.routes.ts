import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { z } from 'zod';
import { badRequest, notFound } from '../../core/errors.js';
import { repoContent } from '../artifacts/index.js';
import { spdxLicenses } from './licenses.js';
import { cycloneDx, spdx, type BomSubject } from './sbom.js';
import { findingFacts, scanWithFindings } from './scanning.store.js';

const exportBody = z.object({
  path: z.string().min(1).describe("a file of the package version or image tag: '[default/]{repo}/{path}'"),
  package_type: z.string().optional(),
  component_name: z.string().optional(),
  cyclonedx: z.boolean().default(false),
  cyclonedx_format: z.literal('json').default('json'),
  spdx: z.boolean().default(false),
  spdx_format: z.literal('json').default('json'),
});

function zipOf(files: [name: string, body: string][]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, body] of files) zip.addBuffer(Buffer.from(body), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * The SBOM export in the shape of Xray's `component/exportDetails`: a zip with the CycloneDX and
 * or SPDX document of the package version (or image tag) a file belongs to, as its format reads
 * it, with the vulnerabilities its latest scan found.
 */
export async function sbomRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/xray/api/v1/component/exportDetails',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Exports the SBOM of a package version or image: CycloneDX and/or SPDX JSON, in a zip',
        body: exportBody,
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (!body.cyclonedx && !body.spdx) throw badRequest('Choose an SBOM format: cyclonedx, spdx or both.');
      const [repoKey, ...rest] = body.path.replace(/^default\//, '').split('/');
      const path = rest.join('/');
      const content = repoContent(request);
      const item = repoKey && path ? await content.stored(repoKey, path) : undefined;
      if (!item || item.folder === 1) throw notFound(`'${body.path}' does not exist.`);
      const repo = await content.repository(item.repo_key);
      const format = app.formatRegistry.for(repo.package_type);
      // the version as the format reads it now (the catalogue may not have caught up with a new file):
      // the file itself, or where a version keeps its files in one folder, the sibling that is its lead
      const candidates = [item];
      if (format?.versionFolder && item.path.includes('/')) {
        const folder = item.path.slice(0, item.path.lastIndexOf('/'));
        candidates.push(
          ...(await content.below(item.repo_key, folder)).filter((i) => i.folder !== 1 && i.path !== item.path),
        );
      }
      let lead: (typeof candidates)[number] | undefined;
      let record: Awaited<ReturnType<NonNullable<NonNullable<typeof format>['index']>>>;
      for (const candidate of candidates) {
        record = await format?.index?.(candidate, content).catch(() => undefined);
        if (record) {
          lead = candidate;
          break;
        }
      }
      if (!record || !lead) throw notFound(`'${body.path}' is not a file of a package version.`);
      const installed = format?.installed ? await format.installed(lead, content) : undefined;
      const scanned = await scanWithFindings(app.db, lead.repo_key, lead.path);
      const version = { name: record.name, version: record.version };
      const subject: BomSubject = {
        packageType: repo.package_type,
        name: record.name,
        version: record.version,
        sha256: lead.sha256 ?? '',
        licenses: spdxLicenses(record.licenses ?? []),
        dependencies: record.dependencies ?? {},
        ...(installed && !installed.unsupported ? { installed } : {}),
        vulnerabilities: (scanned?.findings ?? []).map(findingFacts).map((f) => ({
          id: f.advisoryId,
          cves: [f.advisoryId, ...f.aliases].filter((id) => id.startsWith('CVE-')),
          severity: f.severity,
          summary: f.summary,
          fixedVersions: f.fixedVersions,
          component: f.component,
        })),
      };
      const base = `${version.name}-${version.version}`.replace(/[^A-Za-z0-9._-]+/g, '_');
      const files: [string, string][] = [];
      if (body.cyclonedx) files.push([`${base}.cdx.json`, JSON.stringify(cycloneDx(subject), null, 2)]);
      if (body.spdx) files.push([`${base}.spdx.json`, JSON.stringify(spdx(subject), null, 2)]);
      return reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="${base}-sbom.zip"`)
        .send(await zipOf(files));
    },
  );
}
