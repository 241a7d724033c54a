import type { Format } from '../format.js';
import { pypiRoutes } from './pypi.routes.js';

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

/** pip, twine and other Python tools at `/artifactory/api/pypi/{repoKey}/`. */
export const pypiFormat: Format = {
  types: ['pypi'],
  label: 'PyPI',
  defaultUpstream: 'https://pypi.org/',
  routes: pypiRoutes,
  remoteMetadata: { isMetadata: (path) => path.startsWith('.pypi/'), upstreamPath },
};
