import type { InstalledDatabase, InstalledPackages } from '../format.js';

/** Stanzas of a dpkg status file: each installed package's fields (continuation lines dropped). */
function dpkgPackages(text: string): InstalledPackages['packages'] {
  const installed: InstalledPackages['packages'] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0 && !/^[ \t]/.test(line)) fields[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const { package: binary, version, status, source } = fields;
    if (!binary || !version || (status && !/\binstalled$/.test(status))) continue;
    // `Source: name (version)` when the source's version differs; advisories name the source package
    const sourceName = source?.split(' ')[0] || binary;
    installed.push({ name: sourceName, binary, version });
  }
  return installed;
}

/**
 * dpkg's database of installed packages: its status file, or the files of `status.d/` that
 * distroless images keep instead. Debian's advisories name their release (`Debian:12`), Ubuntu's
 * theirs and whether it is a long-term one (`Ubuntu:22.04:LTS`, `Ubuntu:24.10`).
 */
export const dpkgDatabase: InstalledDatabase = {
  name: 'dpkg',
  paths: ['var/lib/dpkg/status', 'var/lib/dpkg/status.d/'],
  purlType: 'deb',
  ecosystem(release) {
    const distribution = release.ID === 'ubuntu' ? 'Ubuntu' : 'Debian';
    if (!release.VERSION_ID) return distribution;
    const lts = distribution === 'Ubuntu' && /\bLTS\b/.test(release.VERSION ?? '');
    return `${distribution}:${release.VERSION_ID}${lts ? ':LTS' : ''}`;
  },
  read: (files) => files.flatMap((data) => dpkgPackages(data.toString('utf8'))),
};
