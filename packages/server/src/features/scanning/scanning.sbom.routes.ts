import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import yazl from 'yazl';
import { z } from 'zod';
import { badRequest, notFound } from '../../core/errors.js';
import { repoContent } from '../artifacts/index.js';
import { spdxLicenses } from './licenses.js';
import { cycloneDx, memberRef, spdx, type BomMember, type BomSubject } from './sbom.js';
import { installedDatabases } from './ecosystems.js';
import { findingFacts, scanOfFile, scanWithFindings } from './scanning.store.js';
import type { SpdxLicense } from './licenses.js';
import { BUILD_INFO_REPO } from '@arca/contracts';
import { isAllowed } from '../../core/permissions.js';
import { artifactSha1s, mayOnBuild, runOf } from '../builds/index.js';
import { bundleFiles } from '../release-bundles/index.js';

const exportBody = z.object({
  path: z
    .string()
    .default('')
    .describe("a file of the package version or image tag: '[default/]{repo}/{path}' (not for a build or bundle)"),
  package_type: z
    .string()
    .optional()
    .describe("'build' or 'releaseBundle' for those, with component_name '{name}:{number or version}'"),
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
 * it — or of a build run or a release bundle version, as the package versions of its files — with
 * the vulnerabilities the latest scans found.
 */
export async function sbomRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/xray/api/v1/component/exportDetails',
    {
      config: { access: 'user' },
      schema: {
        summary:
          'Exports the SBOM of a package version, an image, a build or a release bundle: CycloneDX and/or SPDX JSON, in a zip',
        body: exportBody,
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (!body.cyclonedx && !body.spdx) throw badRequest('Choose an SBOM format: cyclonedx, spdx or both.');
      const collection = COLLECTIONS[body.package_type?.toLowerCase() ?? ''];
      const subject = collection
        ? await collectionSubject(request, collection, body.component_name ?? '')
        : await versionSubject(request, body.path);
      const base = `${subject.name}-${subject.version}`.replace(/[^A-Za-z0-9._-]+/g, '_');
      const files: [string, string][] = [];
      if (body.cyclonedx) files.push([`${base}.cdx.json`, JSON.stringify(cycloneDx(subject), null, 2)]);
      if (body.spdx) files.push([`${base}.spdx.json`, JSON.stringify(spdx(subject), null, 2)]);
      return reply
        .type('application/zip')
        .header('Content-Disposition', `attachment; filename="${base}-sbom.zip"`)
        .send(await zipOf(files));
    },
  );

  /** The subject of a package version or image, from any of its files. */
  async function versionSubject(request: FastifyRequest, at: string): Promise<BomSubject> {
    if (!at)
      throw badRequest(
        'Name a file of the package version (path), or a build or release bundle (package_type and component_name).',
      );
    const [repoKey, ...rest] = at.replace(/^default\//, '').split('/');
    const path = rest.join('/');
    const content = repoContent(request);
    const item = repoKey && path ? await content.stored(repoKey, path) : undefined;
    if (!item || item.folder === 1) throw notFound(`'${at}' does not exist.`);
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
    if (!record || !lead) throw notFound(`'${at}' is not a file of a package version.`);
    const installed = format?.installed
      ? await format.installed(lead, content, installedDatabases(app.formatRegistry))
      : undefined;
    const scanned = await scanWithFindings(app.db, lead.repo_key, lead.path);
    return {
      packageType: repo.package_type,
      name: record.name,
      version: record.version,
      sha256: lead.sha256 ?? '',
      licenses: spdxLicenses(record.licenses ?? []),
      dependencies: record.dependencies ?? {},
      // an image's packages: its distribution's where they are read, its application's in any case
      ...(installed && (!installed.unsupported || installed.languages?.length) ? { installed } : {}),
      vulnerabilities: (scanned?.findings ?? []).map(findingFacts).map((f) => ({
        id: f.advisoryId,
        cves: [f.advisoryId, ...f.aliases].filter((id) => id.startsWith('CVE-')),
        severity: f.severity,
        summary: f.summary,
        fixedVersions: f.fixedVersions,
        component: f.component,
      })),
    };
  }

  /**
   * The subject of a build run (what it produced and used) or a release bundle version (its
   * files): each file the caller may read as the package version it belongs to, once, with the
   * vulnerabilities its scan found.
   */
  async function collectionSubject(request: FastifyRequest, kind: Collection, component: string): Promise<BomSubject> {
    const split = component.lastIndexOf(':');
    const [name, number] = split > 0 ? [component.slice(0, split), component.slice(split + 1)] : ['', ''];
    if (!name || !number)
      throw badRequest(
        `component_name is '{name}:{${kind === 'build' ? 'number' : 'version'}}' for a ${kind === 'build' ? 'build' : 'release bundle'}.`,
      );
    const content = repoContent(request);
    const files: { repo_key: string; path: string; sha256?: string; scope: BomMember['scope'] }[] = [];
    if (kind === 'build') {
      const run = await runOf(app.db, name, number);
      if (!run || !(await mayOnBuild(request, 'read', name)))
        throw notFound(`Build '${name}' number '${number}' does not exist.`);
      const produced = new Set(await artifactSha1s(app.db, run.id));
      const located = await content.locate(await artifactSha1s(app.db, run.id, true), { except: BUILD_INFO_REPO });
      for (const at of located) files.push({ ...at, scope: produced.has(at.sha1) ? 'produced' : 'used' });
    } else {
      for (const file of await bundleFiles(request, name, number)) files.push({ ...file, scope: 'contained' });
    }
    const members: BomMember[] = [];
    const vulnerabilities: BomSubject['vulnerabilities'] = [];
    const seen = new Set<string>();
    for (const file of files) {
      if (!(await isAllowed(app.db, request.principal, 'read', file.repo_key, file.path))) continue;
      const repo = await content.repository(file.repo_key).catch(() => undefined);
      if (!repo) continue;
      const scan = await scanOfFile(
        app.db,
        file.repo_key,
        file.path,
        app.formatRegistry.for(repo.package_type)?.versionFolder ?? false,
      );
      const key = scan ? `${scan.repo_key}/${scan.lead_path}` : `${file.repo_key}/${file.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const sha256 =
        file.sha256 ?? (await content.stored(file.repo_key, file.path).catch(() => undefined))?.sha256 ?? '';
      const member: BomMember = scan
        ? {
            packageType: scan.package_type,
            name: scan.name,
            version: scan.version,
            sha256,
            licenses: JSON.parse(scan.licenses) as SpdxLicense[],
            path: `${file.repo_key}/${file.path}`,
            scope: file.scope,
          }
        : {
            packageType: '',
            name: '',
            version: '',
            sha256,
            licenses: [],
            path: `${file.repo_key}/${file.path}`,
            scope: file.scope,
          };
      members.push(member);
      if (!scan) continue;
      const found = await scanWithFindings(app.db, scan.repo_key, scan.lead_path);
      for (const f of (found?.findings ?? []).map(findingFacts))
        vulnerabilities.push({
          id: f.advisoryId,
          cves: [f.advisoryId, ...f.aliases].filter((id) => id.startsWith('CVE-')),
          severity: f.severity,
          summary: f.summary,
          fixedVersions: f.fixedVersions,
          component: memberRef(member),
        });
    }
    return {
      packageType: kind === 'build' ? 'build' : 'release-bundle',
      name,
      version: number,
      sha256: '',
      licenses: [],
      dependencies: {},
      members,
      vulnerabilities,
    };
  }
}

/** The collections an SBOM is exported of, by Xray's package types. */
type Collection = 'build' | 'bundle';
const COLLECTIONS: Record<string, Collection> = {
  build: 'build',
  releasebundle: 'bundle',
  releasebundlev2: 'bundle',
  release_bundle: 'bundle',
};
