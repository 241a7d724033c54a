import Database from 'better-sqlite3';
import type { InstalledDatabase, InstalledPackages } from '../format.js';
import { installedHeader } from './rpm.header.js';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** The advisory ecosystems of the distributions whose advisories OSV holds, by os-release's `ID`. */
const ECOSYSTEM_OF: Record<string, string> = {
  rocky: 'Rocky Linux',
  almalinux: 'AlmaLinux',
  // Red Hat's name the product, then each stream of a release (`Red Hat:enterprise_linux:9::baseos`)
  rhel: 'Red Hat:enterprise_linux',
  mageia: 'Mageia',
  openEuler: 'openEuler',
};

/** `openssl-3.0.7-24.el9.src.rpm` → `openssl`: the source package, which advisories name. */
const sourceName = (sourceRpm: string) => /^(.+)-[^-]+-[^-]+\.(?:no)?src\.rpm$/.exec(sourceRpm)?.[1];

/** The packages of an `rpmdb.sqlite`: each header of its `Packages` table. */
function rpmdbPackages(data: Buffer): InstalledPackages['packages'] {
  if (!data.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))
    throw new Error(
      "rpm's Berkeley DB database (RHEL 8 and older) is not read, only its SQLite one (RHEL 9, Fedora 33 and later)",
    );
  // rpm writes ahead to a log: read as a database that does not, in memory (the log is folded in when rpm closes it)
  const copy = Buffer.from(data);
  copy[18] = 1;
  copy[19] = 1;
  const db = new Database(copy, { readonly: true });
  try {
    return db
      .prepare<[], { blob: Buffer }>('SELECT blob FROM Packages')
      .all()
      .flatMap(({ blob }) => {
        const header = installedHeader(blob);
        // the public key "packages" rpm keeps among the installed ones are no packages
        if (!header.name || header.name === 'gpg-pubkey' || !header.version) return [];
        const evr = `${header.epoch ? `${header.epoch}:` : ''}${header.version}-${header.release}`;
        return [{ name: sourceName(header.sourceRpm) ?? header.name, binary: header.name, version: evr }];
      });
  } finally {
    db.close();
  }
}

/**
 * rpm's database of installed packages, kept in SQLite since rpm 4.16 (under `usr/lib/sysimage/rpm`
 * on Fedora and openSUSE). Rocky Linux's and AlmaLinux's advisories name the major release
 * (`Rocky Linux:9`), Red Hat's each stream of it; a distribution OSV has no advisories of keeps its
 * own name.
 */
export const rpmDatabase: InstalledDatabase = {
  name: 'rpm',
  paths: ['var/lib/rpm/rpmdb.sqlite', 'usr/lib/sysimage/rpm/rpmdb.sqlite', 'var/lib/rpm/Packages'],
  purlType: 'rpm',
  ecosystem(release) {
    const major = (release.VERSION_ID ?? '').split('.')[0];
    const name = ECOSYSTEM_OF[release.ID ?? ''] ?? release.NAME ?? 'RPM';
    return major ? `${name}:${major}` : name;
  },
  read(files) {
    return files.flatMap(rpmdbPackages);
  },
};
