import type { Format } from '../format.js';
import { dpkgDatabase } from './debian.installed.js';
import { field, inspectDeb } from './debian.package.js';
import { admitDebianPackage, debianPlainPaths } from './debian.service.js';
import { compareDebianVersions } from './debian.version.js';

/** Packages larger than this are listed in the catalogue from their path alone. */
const INDEX_MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

/** `a (>= 1.0), b | c` → the first alternative of each, with its version constraint. */
function dependenciesOf(depends: string | undefined): Record<string, string> {
  const dependencies: Record<string, string> = {};
  for (const part of (depends ?? '').split(',')) {
    const match = /^\s*([a-z0-9][a-z0-9+.-]*)(?::[a-z0-9-]+)?\s*(?:\(([^)]*)\))?/.exec(part.split('|')[0] ?? '');
    if (match) dependencies[match[1]!] = match[2]?.trim() ?? '*';
  }
  return dependencies;
}

/**
 * Debian repositories at the repository's own address, for apt (`deb <url> <distribution>
 * <component>`): packages deployed with their distribution, component and architecture as
 * properties, `dists/` calculated and signed by the server. A remote repository proxies a Debian
 * mirror (its `dists/` refreshed as metadata, its pool never).
 */
export const debianFormat: Format = {
  types: ['debian'],
  defaultUpstream: 'https://deb.debian.org/debian/',
  plainPaths: debianPlainPaths,
  admit: admitDebianPackage,
  remoteMetadata: { isMetadata: (path) => path.startsWith('dists/') },
  // dpkg's order, which Ubuntu's packages follow too
  versions: {
    ecosystems: ['Debian', 'Ubuntu'],
    compare: compareDebianVersions,
    perRelease: true,
    valid: (version) => /^(\d+:)?[0-9][A-Za-z0-9.+~:-]*$/.test(version),
  },
  installedDatabase: dpkgDatabase,
  /** A `.deb`: its control file's name, version, description and dependencies. */
  async index(file, content) {
    if (!/\.u?deb$/.test(file.path) || Number(file.size) > INDEX_MAX_PACKAGE_BYTES) return undefined;
    const facts = await inspectDeb(await content.read(file), file.path).catch(() => undefined);
    if (!facts) return undefined;
    const description = field(facts.control, 'Description') ?? '';
    const [summary, ...long] = description.split('\n');
    const readme = long
      .map((l) => l.replace(/^ \.?$/, '').replace(/^ /, ''))
      .join('\n')
      .trim();
    return {
      name: facts.name,
      version: facts.version,
      ...(summary ? { description: summary } : {}),
      dependencies: dependenciesOf(field(facts.control, 'Depends')),
      ...(readme ? { readme } : {}),
      fields: {
        'deb.architecture': facts.architecture,
        ...(field(facts.control, 'Section') ? { 'deb.section': field(facts.control, 'Section')! } : {}),
      },
    };
  },
};
