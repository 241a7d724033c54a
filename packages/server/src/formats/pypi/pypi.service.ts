import { PYPI_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, conflict } from '../../core/errors.js';
import type { RepoContent, Resolved } from '../../features/artifacts/index.js';
import { changeMetadataFile } from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';
import {
  checkName,
  checkVersion,
  distributionKind,
  mergeProjects,
  normalize,
  parseProjectPage,
  remoteFilePath,
  renderProject,
  type IndexFile,
  type ProjectIndex,
} from './pypi.index.js';

/** Where a project's page is kept: our own index in a local repository, the upstream's page in a remote one's cache. */
export const projectPath = (normalized: string) => `.pypi/${normalized}/index.json`;

/** Project pages as answered, per process, under the stored pages' SHA-256s (never stale). */
/** Where the packages' address goes in a kept page. */
const PACKAGES_MARK = 'arca-packages-address:';
const PAGES_KEPT = 2000;
const pages = new Map<string, string>();

/** What twine sends with a file (the legacy upload API's form fields). */
export type UploadFields = Record<string, string | string[]>;

const field = (fields: UploadFields, name: string): string | undefined => {
  const value = fields[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Metadata kept per version: what the package catalogue and the console show. */
const METADATA_FIELDS = [
  'summary',
  'description',
  'description_content_type',
  'author',
  'author_email',
  'maintainer',
  'maintainer_email',
  'license',
  'keywords',
  'home_page',
  'requires_python',
  'requires_dist',
  'classifiers',
  'project_urls',
  'metadata_version',
];

/** A file name as PyPI compares them: letter case and runs of '-', '_' and '.' do not tell two files apart. */
const canonicalFilename = (filename: string) => filename.toLowerCase().replace(/[-_.]+/g, '-');

/** A project's files and pages in one repository, read and written through the door. */
export class PypiProjects {
  constructor(private readonly content: RepoContent) {}

  private async page(found: Resolved, normalized: string): Promise<ProjectIndex | undefined> {
    const text = (await this.content.read(found.item)).toString('utf8');
    try {
      if (found.repo.rclass !== 'remote') return JSON.parse(text) as ProjectIndex;
      const pageUrl = `${found.repo.url.replace(/\/+$/, '')}/simple/${normalized}/`;
      const files: IndexFile[] = parseProjectPage(text, pageUrl).map((f) => ({
        filename: f.filename,
        path: remoteFilePath(f.url),
        ...(f.sha256 ? { sha256: f.sha256 } : {}),
        ...(f.requiresPython ? { requiresPython: f.requiresPython } : {}),
      }));
      return { name: normalized, files };
    } catch {
      return undefined;
    }
  }

  private async sources(repo: RepositoryRow, normalized: string): Promise<Resolved[]> {
    const path = projectPath(normalized);
    if (repo.rclass === 'virtual') return this.content.resolveEach(repo.key, path);
    const found = await this.content.resolve(repo, path);
    return found ? [found] : [];
  }

  /** A project as a repository lists it (a virtual one's readable members merged); undefined when none has it. */
  async project(repo: RepositoryRow, normalized: string): Promise<ProjectIndex | undefined> {
    const projects: ProjectIndex[] = [];
    for (const found of await this.sources(repo, normalized)) {
      const project = await this.page(found, normalized);
      if (project) projects.push(project);
    }
    return mergeProjects(projects);
  }

  /** The project's page for clients, its file addresses under `packagesUrl`. */
  async answer(
    repo: RepositoryRow,
    normalized: string,
    json: boolean,
    packagesUrl: string,
  ): Promise<string | undefined> {
    const sources = await this.sources(repo, normalized);
    if (!sources.length) return undefined;
    // what is kept holds no address: the packages' one stands as a mark until the page is answered
    const key = `${sources.map((s) => s.item.sha256).join(',')}|${json ? 'j' : 'h'}`;
    const inPage = json
      ? JSON.stringify(packagesUrl).slice(1, -1)
      : packagesUrl.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const address = (body: string) => body.split(PACKAGES_MARK).join(inPage);
    const known = pages.get(key);
    if (known !== undefined) return address(known);
    const project = await this.project(repo, normalized);
    if (!project) return undefined;
    // ':' and '@' may stand in a path segment as they are (a cached file's host and port)
    const segment = (part: string) => encodeURIComponent(part).replace(/%3A/gi, ':').replace(/%40/g, '@');
    const href = (path: string) => `${PACKAGES_MARK}/${path.split('/').map(segment).join('/')}`;
    const body = renderProject(project, json, href);
    if (pages.size >= PAGES_KEPT) pages.delete(pages.keys().next().value!);
    pages.set(key, body);
    return address(body);
  }

  /** The projects of a repository (a virtual one's readable members' merged). */
  async names(repo: RepositoryRow): Promise<string[]> {
    const children = await this.content.children(repo, '.pypi').catch(() => []);
    return children
      .filter((c) => c.folder === 1)
      .map((c) => c.name)
      .sort();
  }

  /**
   * An upload as twine sends it: the fields are checked (action, name, version, the file name
   * belongs to them, the file is not there yet) before the file is stored with its digests
   * verified; then the project's page lists it. A released file is never replaced.
   */
  async upload(
    repo: string | RepositoryRow,
    fields: UploadFields,
    file: { filename: string; upload: string },
  ): Promise<IndexFile> {
    // one resolution: the write target and the project's page serve every step below
    const target = await this.content.writeTarget(repo);
    const name = field(fields, 'name') ?? '';
    const version = field(fields, 'version') ?? '';
    const { filename } = file;
    let path: string;
    let normalized: string;
    let kind: ReturnType<typeof distributionKind>;
    let page: { found: Resolved | undefined; current: ProjectIndex | undefined };
    try {
      checkName(name);
      checkVersion(version);
      kind = distributionKind(filename, name, version);
      if (!kind || filename.includes('/') || filename.startsWith('.')) {
        throw badRequest(fill(PYPI_MESSAGES.badFilename, { filename, name, version }));
      }
      normalized = normalize(name);
      path = `${normalized}/${version}/${filename}`;
      // a released file is never replaced, also by one whose name differs only as PEP 503 names do
      // the write target is a local repository: its own page is the project's
      const found = await this.content.resolve(target, projectPath(normalized));
      page = { found, current: found ? await this.page(found, normalized) : undefined };
      const listed = page.current?.files ?? [];
      const clash = listed.some((f) => canonicalFilename(f.filename) === canonicalFilename(filename));
      if (clash || (await this.content.resolve(target, path))) {
        throw conflict(fill(PYPI_MESSAGES.fileExists, { filename }));
      }
    } catch (error) {
      await this.content.uploads.remove(target.key, file.upload).catch(() => undefined);
      throw error;
    }
    let deployed;
    try {
      deployed = await this.content.deploy({
        repoKey: target.key,
        target,
        path,
        properties: { 'pypi.name': [name], 'pypi.version': [version], 'pypi.normalized.name': [normalized] },
        body: undefined,
        upload: file.upload,
        contentLength: undefined,
        checksums: {
          ...(field(fields, 'sha256_digest') ? { sha256: field(fields, 'sha256_digest')!.toLowerCase() } : {}),
          ...(field(fields, 'md5_digest') ? { md5: field(fields, 'md5_digest')!.toLowerCase() } : {}),
        },
        checksumDeploy: false,
        ifCurrent: null,
      });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 409 && !error.message.startsWith('Checksum')) {
        throw conflict(fill(PYPI_MESSAGES.fileExists, { filename }));
      }
      throw error;
    }
    const entry: IndexFile = {
      filename,
      path,
      version,
      sha256: deployed.checksums.sha256,
      size: Number(deployed.item.size),
      ...(field(fields, 'requires_python') ? { requiresPython: field(fields, 'requires_python')! } : {}),
      uploadTime: new Date(deployed.item.created_at).toISOString(),
      packagetype: field(fields, 'filetype') ?? (kind === 'wheel' ? 'bdist_wheel' : 'sdist'),
    };
    const metadata: Record<string, string | string[]> = {};
    for (const key of METADATA_FIELDS)
      if (fields[key] !== undefined && fields[key] !== '') metadata[key] = fields[key]!;
    await this.changeIndex(
      target,
      normalized,
      (current) => ({
        name: current?.name ?? name,
        files: [...(current?.files ?? []).filter((f) => f.filename !== filename), entry],
        versions: { ...current?.versions, [version]: { ...current?.versions?.[version], ...metadata } },
      }),
      page,
    );
    return entry;
  }

  private async changeIndex(
    target: RepositoryRow,
    normalized: string,
    update: (current: ProjectIndex | undefined) => ProjectIndex,
    read?: { found: Resolved | undefined; current: ProjectIndex | undefined },
  ): Promise<void> {
    await changeMetadataFile(
      this.content,
      target,
      projectPath(normalized),
      (found) => this.page(found, normalized),
      update,
      read ? { read } : {},
    );
  }
}
