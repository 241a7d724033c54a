import { PYPI_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';

/**
 * The simple index as data: project names (PEP 503 normalisation), versions (PEP 440), file names
 * of wheels and sdists, a project's files, and their HTML (PEP 503) and JSON (PEP 691) pages —
 * rendered for clients and parsed from an upstream's.
 */

/** PEP 503: lowercase, runs of '-', '_' and '.' become one '-'. */
export const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

const NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;
const VERSION =
  /^v?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;

export function checkName(name: string): void {
  if (!NAME.test(name)) throw badRequest(fill(PYPI_MESSAGES.badName, { name }));
}

export function checkVersion(version: string): void {
  if (!VERSION.test(version)) throw badRequest(fill(PYPI_MESSAGES.badVersion, { version }));
}

/** A wheel's or sdist's kind, when its file name belongs to this project and version. */
export function distributionKind(filename: string, name: string, version: string): 'wheel' | 'sdist' | undefined {
  const sameVersion = (v: string) => v.toLowerCase().replace(/_/g, '-') === version.toLowerCase().replace(/_/g, '-');
  const wheel = /^([^-]+)-([^-]+)(?:-[0-9][^-]*)?-[^-]+-[^-]+-[^-]+\.whl$/.exec(filename);
  if (wheel) return normalize(wheel[1]!) === normalize(name) && sameVersion(wheel[2]!) ? 'wheel' : undefined;
  const sdist = /^(.+)-([^-]+)\.(?:tar\.gz|zip)$/.exec(filename);
  if (sdist) return normalize(sdist[1]!) === normalize(name) && sameVersion(sdist[2]!) ? 'sdist' : undefined;
  return undefined;
}

/** One file of a project as the index lists it. */
export interface IndexFile {
  filename: string;
  /** Where the file is: a path in the repository (`packages/{path}` of the API). */
  path: string;
  version?: string;
  sha256?: string;
  size?: number;
  requiresPython?: string;
  uploadTime?: string;
  packagetype?: string;
}

/** A project's page: its name as first uploaded and its files (what `.pypi/{name}.json` holds). */
export interface ProjectIndex {
  name: string;
  files: IndexFile[];
  /** Metadata of each version as uploaded (summary, author, requires_dist …). */
  versions?: Record<string, Record<string, string | string[]>>;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const unescapeHtml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e]!,
  );

/** The versions of a project's files, as PEP 700 lists them. */
function versionsOf(files: IndexFile[]): string[] {
  return [...new Set(files.map((f) => f.version).filter((v): v is string => !!v))];
}

/** A project's page; `href` turns a file's repository path into its address. */
export function renderProject(project: ProjectIndex, json: boolean, href: (path: string) => string): string {
  const name = normalize(project.name);
  if (json) {
    return JSON.stringify({
      meta: { 'api-version': '1.1' },
      name,
      files: project.files.map((f) => ({
        filename: f.filename,
        url: href(f.path),
        hashes: f.sha256 ? { sha256: f.sha256 } : {},
        ...(f.requiresPython ? { 'requires-python': f.requiresPython } : {}),
        ...(f.size !== undefined ? { size: f.size } : {}),
        ...(f.uploadTime ? { 'upload-time': f.uploadTime } : {}),
        yanked: false,
      })),
      versions: versionsOf(project.files),
    });
  }
  const links = project.files.map((f) => {
    const url = `${href(f.path)}${f.sha256 ? `#sha256=${f.sha256}` : ''}`;
    const python = f.requiresPython ? ` data-requires-python="${escapeHtml(f.requiresPython)}"` : '';
    return `    <a href="${escapeHtml(url)}"${python}>${escapeHtml(f.filename)}</a><br/>`;
  });
  return [
    '<!DOCTYPE html>',
    '<html>',
    '  <head>',
    '    <meta name="pypi:repository-version" content="1.1">',
    `    <title>Links for ${escapeHtml(name)}</title>`,
    '  </head>',
    '  <body>',
    `    <h1>Links for ${escapeHtml(name)}</h1>`,
    ...links,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/** The list of projects (`/simple/`). */
export function renderRoot(names: string[], json: boolean): string {
  if (json) return JSON.stringify({ meta: { 'api-version': '1.1' }, projects: names.map((name) => ({ name })) });
  const links = names.map((n) => `    <a href="${escapeHtml(normalize(n))}/">${escapeHtml(n)}</a><br/>`);
  return [
    '<!DOCTYPE html>',
    '<html>',
    '  <head>',
    '    <meta name="pypi:repository-version" content="1.1">',
    '    <title>Simple index</title>',
    '  </head>',
    '  <body>',
    ...links,
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/** A file an upstream's project page lists, with its absolute address. */
export interface UpstreamFile {
  filename: string;
  url: string;
  sha256?: string;
  requiresPython?: string;
}

/** Reads an upstream's project page, HTML (PEP 503) or JSON (PEP 691); addresses resolved against `pageUrl`. */
export function parseProjectPage(text: string, pageUrl: string): UpstreamFile[] {
  const files: UpstreamFile[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    const page = JSON.parse(trimmed) as {
      files?: { filename: string; url: string; hashes?: { sha256?: string }; 'requires-python'?: string }[];
    };
    for (const f of page.files ?? []) {
      files.push({
        filename: f.filename,
        url: new URL(f.url, pageUrl).href,
        ...(f.hashes?.sha256 ? { sha256: f.hashes.sha256 } : {}),
        ...(f['requires-python'] ? { requiresPython: f['requires-python'] } : {}),
      });
    }
    return files;
  }
  for (const match of text.matchAll(/<a\s([^>]*)>([^<]*)<\/a>/gi)) {
    const attributes = match[1]!;
    const href = /href\s*=\s*"([^"]*)"/i.exec(attributes)?.[1] ?? /href\s*=\s*'([^']*)'/i.exec(attributes)?.[1];
    if (!href) continue;
    const url = new URL(unescapeHtml(href), pageUrl);
    const hash = /^#sha256=([0-9a-f]{64})$/i.exec(url.hash)?.[1];
    url.hash = '';
    const python = /data-requires-python\s*=\s*"([^"]*)"/i.exec(attributes)?.[1];
    files.push({
      filename: unescapeHtml(match[2]!.trim()) || decodeURIComponent(url.pathname.split('/').pop() ?? ''),
      url: url.href,
      ...(hash ? { sha256: hash.toLowerCase() } : {}),
      ...(python ? { requiresPython: unescapeHtml(python) } : {}),
    });
  }
  return files;
}

/**
 * Where a remote repository caches a file its upstream lists at `url`: `files/{host}/{path}`, so
 * that files on another host than the index (as PyPI's are) are fetched from there.
 */
export function remoteFilePath(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.split('/').filter(Boolean).map(decodeURIComponent).join('/');
  return `files/${parsed.host}/${path}`;
}

/** A project's files from several repositories (a virtual one's members, in order): the first with a file name wins. */
export function mergeProjects(projects: ProjectIndex[]): ProjectIndex | undefined {
  const [first] = projects;
  if (!first) return undefined;
  const seen = new Set<string>();
  const files: IndexFile[] = [];
  for (const project of projects) {
    for (const file of project.files) {
      if (seen.has(file.filename)) continue;
      seen.add(file.filename);
      files.push(file);
    }
  }
  return { name: first.name, files };
}
