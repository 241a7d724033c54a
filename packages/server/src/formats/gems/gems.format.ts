import type { Format } from '../format.js';
import { compareGemVersions, inspectGem, isGemVersion } from './gems.gem.js';
import { gemsRoutes } from './gems.routes.js';
import { gemsPlainPaths } from './gems.service.js';

/**
 * RubyGems: `/artifactory/api/gems/{repoKey}/`; gems stored at `gems/{name}-{version}.gem`. A
 * remote repository proxies a gem source (`https://rubygems.org/`: its specs files and compact
 * index expire as metadata, gems and quick specs never); a virtual one merges its members' indexes.
 */
export const gemsFormat: Format = {
  types: ['gems'],
  defaultUpstream: 'https://rubygems.org/',
  routes: gemsRoutes,
  plainPaths: gemsPlainPaths,
  remoteMetadata: {
    isMetadata: (path) =>
      path === 'versions' ||
      path === 'names' ||
      path.startsWith('info/') ||
      /^(latest_|prerelease_)?specs\.4\.8(\.gz)?$/.test(path),
  },
  /** A gem: its specification's summary, licences, runtime dependencies and description. */
  async index(file, content) {
    if (!/^gems\/[^/]+\.gem$/.test(file.path) || Number(file.size) > 128 * 1024 * 1024) return undefined;
    const entry = await inspectGem(await content.read(file)).catch(() => undefined);
    if (!entry) return undefined;
    const dependencies: Record<string, string> = {};
    for (const d of entry.dependencies)
      if (d.type === 'runtime')
        dependencies[d.name] = d.requirement.map(([op, v]) => `${op} ${v}`).join(', ') || '>= 0';
    return {
      name: entry.name,
      version: entry.version,
      ...(entry.summary ? { description: entry.summary } : {}),
      licenses: entry.licenses,
      dependencies,
      ...(entry.description ? { readme: entry.description } : {}),
      fields: { 'gem.platform': entry.platform },
    };
  },
  versions: { ecosystems: ['RubyGems'], compare: compareGemVersions, valid: isGemVersion },
  layout: {
    parse(path) {
      const match = /^gems\/(.+)-(\d[^-]*)(?:-[^-]+)?\.gem$/.exec(path);
      return match ? { module: match[1]!, version: match[2]!, fileVersion: match[2]! } : undefined;
    },
    compareVersions: compareGemVersions,
    isIntegration: (version) => /[a-zA-Z]/.test(version),
  },
};
