import type { Format } from '../format.js';
import { distributionKind, normalize, parseProjectPage, remoteFilePath, type ProjectIndex } from './pypi.index.js';
import { pypiRoutes } from './pypi.routes.js';
import { projectPath } from './pypi.service.js';
import * as pep440 from '@renovatebot/pep440';

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * A remote repository's cached paths on its upstream: a project's page `.pypi/{name}/index.json`
 * is `simple/{name}/` there; a file `files/{host}/{path}` is at that host (PyPI lists its files on
 * files.pythonhosted.org), over the repository's own scheme when it is the repository's host.
 */
function upstreamPath(path: string, repositoryUrl: string): string {
  const project = /^\.pypi\/([^/]+)\/index\.json$/.exec(path);
  if (project) return `simple/${encodeURIComponent(project[1]!)}/`;
  const file = /^files\/([^/]+)\/(.+)$/.exec(path);
  if (file) {
    const upstream = new URL(repositoryUrl);
    const scheme = upstream.host === file[1] ? upstream.protocol : 'https:';
    return `${scheme}//${file[1]}/${file[2]!.split('/').map(encodeURIComponent).join('/')}`;
  }
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Where the upstream's cached page of the project a file belongs to lists the file that
 * `files/{host}/{path}` stands for (its scheme too). The project is read off the file name: a wheel's
 * name ends at its first '-', an sdist's at the '-' before its version, so every such split is tried.
 */
async function listedElsewhere(
  path: string,
  cached: (path: string) => Promise<Buffer | undefined>,
): Promise<string | undefined> {
  const file = /^files\/[^/]+\/(?:.+\/)?([^/]+)$/.exec(path);
  if (!file) return undefined;
  const parts = file[1]!.split('-');
  const candidates = new Set<string>();
  for (let end = 1; end < parts.length; end++) candidates.add(normalize(parts.slice(0, end).join('-')));
  for (const project of candidates) {
    const page = await cached(projectPath(project)).catch(() => undefined);
    if (!page) continue;
    // the page's links are absolute or relative to the upstream's page: either resolves to the same address
    const listed = parseProjectPage(page.toString('utf8'), 'http://upstream.invalid/');
    const found = listed.find((f) => remoteFilePath(f.url) === path);
    if (found) return found.url;
  }
  return undefined;
}

/** pip, twine and other Python tools at `/artifactory/api/pypi/{repoKey}/`. */
export const pypiFormat: Format = {
  types: ['pypi'],
  defaultUpstream: 'https://pypi.org/',
  routes: pypiRoutes,
  remoteMetadata: { isMetadata: (path) => path.startsWith('.pypi/'), upstreamPath, listedElsewhere },
  // PEP 440's order: epochs, pre-, post- and development releases, local versions
  versions: {
    ecosystems: ['PyPI'],
    compare: pep440.compare,
    valid: (version) => pep440.valid(version) !== null,
    name: normalize,
  },
  versionFolder: true,
  /** A wheel or sdist at `{project}/{version}/{file}`, with the metadata twine sent for its version. */
  async index(file, content) {
    const [project, version, filename, ...rest] = file.path.split('/');
    if (!project || !version || !filename || rest.length || project.startsWith('.')) return undefined;
    if (!distributionKind(filename, project, version)) return undefined;
    const page = await content.resolve(file.repo_key, projectPath(project)).catch(() => undefined);
    let index: ProjectIndex | undefined;
    try {
      index = page ? (JSON.parse((await content.read(page.item)).toString('utf8')) as ProjectIndex) : undefined;
    } catch {
      index = undefined;
    }
    const metadata = index?.versions?.[version] ?? {};
    const one = (key: string) => list(metadata[key])[0];
    const dependencies: Record<string, string> = {};
    for (const requirement of list(metadata.requires_dist)) {
      const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^;)]*)\)?/.exec(requirement);
      if (match) dependencies[match[1]!] = match[2]!.trim() || '*';
    }
    return {
      name: index?.name ?? project,
      version,
      ...(one('summary') ? { description: one('summary')! } : {}),
      licenses: one('license') ? [one('license')!] : [],
      tags: (one('keywords') ?? '').split(/[,\s]+/).filter(Boolean),
      dependencies,
      ...(one('description') ? { readme: one('description')! } : {}),
      fields: {},
    };
  },
};
