import type { Format } from '../format.js';
import { inspectRpm } from './rpm.header.js';
import { rpmDatabase } from './rpm.installed.js';
import { admitRpmPackage, rpmPlainPaths } from './rpm.service.js';
import { compareRpmVersions } from './rpm.version.js';

/** Packages larger than this are listed in the catalogue from their path alone. */
const INDEX_MAX_PACKAGE_BYTES = 256 * 1024 * 1024;

/**
 * RPM repositories (yum, dnf) at the repository's own address: `repodata/` calculated from the
 * packages' headers, `repomd.xml.asc` signed. A remote repository proxies a yum repository (its
 * repodata refreshed as metadata, its packages never).
 */
export const rpmFormat: Format = {
  types: ['rpm'],
  plainPaths: rpmPlainPaths,
  admit: admitRpmPackage,
  remoteMetadata: { isMetadata: (path) => path.startsWith('repodata/') },
  // rpm's order, which every distribution built of RPMs follows
  versions: {
    ecosystems: ['Red Hat', 'Rocky Linux', 'AlmaLinux', 'openSUSE', 'SUSE', 'Mageia', 'openEuler'],
    compare: compareRpmVersions,
    perRelease: true,
    valid: (version) => /^(\d+:)?[A-Za-z0-9._+~^-]+$/.test(version),
  },
  installedDatabase: rpmDatabase,
  /** An RPM: its header's name, version, summary, description, licence and requirements. */
  async index(file, content) {
    if (!file.path.endsWith('.rpm') || Number(file.size) > INDEX_MAX_PACKAGE_BYTES) return undefined;
    let facts;
    try {
      facts = inspectRpm(await content.read(file), file.path);
    } catch {
      return undefined;
    }
    const dependencies: Record<string, string> = {};
    for (const dep of facts.requires) {
      if (dep.name.startsWith('/')) continue;
      dependencies[dep.name] = dep.flags ? `${dep.flags} ${dep.ver ?? ''}${dep.rel ? `-${dep.rel}` : ''}` : '*';
    }
    return {
      name: facts.name,
      version: `${facts.version}-${facts.release}`,
      ...(facts.summary ? { description: facts.summary } : {}),
      licenses: facts.license ? [facts.license] : [],
      dependencies,
      ...(facts.description ? { readme: facts.description } : {}),
      fields: { 'rpm.arch': facts.arch },
    };
  },
};
