import semver from 'semver';
import type { Format } from '../format.js';
import { inspectChart, parseIndex, remoteChartPath } from './helm.chart.js';
import { helmRoutes } from './helm.routes.js';
import { INDEX_FILE, admitHelmChart, helmPlainPaths } from './helm.service.js';

/** A remote repository's path on its upstream: `external/{host}/{path}` is that host's (a chart an index links elsewhere). */
function upstreamPath(path: string, repositoryUrl: string): string {
  const external = /^external\/([^/]+)\/(.+)$/.exec(path);
  if (external) {
    const upstream = new URL(repositoryUrl);
    const scheme = upstream.host === external[1] ? upstream.protocol : 'https:';
    return `${scheme}//${external[1]}/${external[2]!.split('/').map(encodeURIComponent).join('/')}`;
  }
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Classic Helm chart repositories: `index.yaml` computed from the chart archives a repository
 * holds, at `/artifactory/api/helm/{repoKey}` and the repository's own address. A remote
 * repository proxies a chart repository (its index refreshed as metadata, its links rewritten to
 * the repository), a virtual one merges its members' indexes.
 */
export const helmFormat: Format = {
  types: ['helm'],
  defaultUpstream: 'https://charts.helm.sh/stable/',
  routes: helmRoutes,
  plainPaths: helmPlainPaths,
  admit: admitHelmChart,
  remoteMetadata: {
    isMetadata: (path) => path === INDEX_FILE,
    upstreamPath,
    /** A chart on another host only where the cached upstream index links it. */
    async listedElsewhere(path, cached) {
      if (!path.startsWith('external/')) return undefined;
      const index = parseIndex((await cached(INDEX_FILE))?.toString('utf8') ?? '');
      for (const versions of Object.values(index?.entries ?? {})) {
        for (const version of versions) {
          for (const url of version.urls) {
            if (!/^https?:\/\//.test(url)) continue;
            if (remoteChartPath(url, 'http://upstream.invalid/') === path) return url;
          }
        }
      }
      return undefined;
    },
  },
  /** A chart archive: its Chart.yaml's description, keywords and dependencies, and its readme. */
  async index(file, content) {
    if (!file.path.endsWith('.tgz') || Number(file.size) > 64 * 1024 * 1024) return undefined;
    const facts = await inspectChart(await content.read(file), file.path).catch(() => undefined);
    if (!facts) return undefined;
    const { metadata } = facts;
    const dependencies: Record<string, string> = {};
    if (Array.isArray(metadata.dependencies)) {
      for (const dep of metadata.dependencies as { name?: unknown; version?: unknown }[]) {
        if (typeof dep?.name === 'string') dependencies[dep.name] = typeof dep.version === 'string' ? dep.version : '*';
      }
    }
    return {
      name: metadata.name,
      version: metadata.version,
      ...(typeof metadata.description === 'string' ? { description: metadata.description } : {}),
      tags: Array.isArray(metadata.keywords) ? metadata.keywords.map(String) : [],
      dependencies,
      ...(facts.readme ? { readme: facts.readme } : {}),
      fields: (typeof metadata.appVersion === 'string' ? { 'helm.appVersion': metadata.appVersion } : {}) as Record<
        string,
        string
      >,
    };
  },
  layout: {
    parse(path) {
      const match = /(?:^|\/)([^/]+)-(\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(path);
      return match && semver.valid(match[2]!)
        ? { module: match[1]!, version: match[2]!, fileVersion: match[2]! }
        : undefined;
    },
    compareVersions: (a, b) => semver.compare(a, b),
    isIntegration: (version) => semver.prerelease(version) !== null,
  },
};
