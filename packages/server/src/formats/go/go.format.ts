import type { Format } from '../format.js';
import { compareVersions, parseGoMod, readModuleZip } from './go.module.js';
import { goRoutes } from './go.routes.js';
import { goPlainPaths, moduleFileOf } from './go.service.js';
import semver from 'semver';

/** Module zips larger than this are listed in the catalogue without their readme and requirements. */
const INDEX_MAX_ZIP_BYTES = 64 * 1024 * 1024;

/**
 * Go modules: the module proxy protocol at `/artifactory/api/go/{repoKey}/` (GOPROXY), files
 * stored as the protocol names them (`{module}/@v/{version}.zip|mod|info`), a remote repository
 * proxying another GOPROXY (its lists and `@latest` expire as metadata; a version's files never do).
 */
export const goFormat: Format = {
  types: ['go'],
  defaultUpstream: 'https://proxy.golang.org/',
  routes: goRoutes,
  plainPaths: goPlainPaths,
  remoteMetadata: { isMetadata: (path) => path.endsWith('/@v/list') || path.endsWith('/@latest') },
  /** A version's zip: its module path, version, requirements and readme. */
  async index(file, content) {
    const parsed = moduleFileOf(file.path);
    if (!parsed || parsed.ext !== 'zip') return undefined;
    const { module, version } = parsed;
    let requirements: Record<string, string> = {};
    let readme: string | undefined;
    if (Number(file.size) <= INDEX_MAX_ZIP_BYTES) {
      const inside = await readModuleZip(await content.read(file), module, version).catch(() => undefined);
      if (inside?.goMod) requirements = parseGoMod(inside.goMod.toString('utf8')).require;
      readme = inside?.readme?.toString('utf8');
    }
    return {
      name: module,
      version,
      dependencies: requirements,
      ...(readme ? { readme } : {}),
      fields: { 'go.module': module },
    };
  },
  // advisory databases write Go's versions without the `v` (and without `+incompatible`)
  versions: {
    ecosystems: ['Go'],
    compare: (a, b) => semver.compare(a, b),
    valid: (version) => semver.valid(version) !== null,
    asAdvised: (version) => version.replace(/^v/, '').replace(/\+incompatible$/, ''),
  },
  layout: {
    parse(path) {
      const parsed = moduleFileOf(path);
      return parsed && { module: parsed.module, version: parsed.version, fileVersion: parsed.version };
    },
    compareVersions,
    isIntegration: (version) => /-0\.\d{14}-[0-9a-f]{12}$|-\d{14}-[0-9a-f]{12}$/.test(version),
  },
};
