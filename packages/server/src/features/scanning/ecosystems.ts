import type { FormatRegistry } from '../artifacts/index.js';
import { compareApkVersions, isApkVersion } from './apk-version.js';
import { baseEcosystem, type VersionOrder } from './osv.js';

/** An advisory ecosystem: how its versions order, and a stored version in the form its advisories write it. */
export interface Ecosystem extends VersionOrder {
  name: string;
  asAdvised(version: string): string;
  /** A package's name as the ecosystem's advisories write it. */
  packageName(name: string): string;
  /** Its advisories name a distribution's release. */
  perRelease: boolean;
}

/**
 * The ecosystems the formats order versions for (OSV's names: `npm`, `PyPI`, `Maven`, `Go`,
 * `crates.io`, `RubyGems`, `Debian`, `Ubuntu`, the RPM distributions), each with its format's order,
 * and `Alpine`, whose packages only images hold, in apk's order.
 */
export function ecosystemsOf(registry: FormatRegistry): Map<string, Ecosystem> {
  const known = new Map<string, Ecosystem>();
  // a distribution met only inside images: no format keeps its packages, the scanner orders them
  known.set('Alpine', {
    name: 'Alpine',
    compare: compareApkVersions,
    valid: isApkVersion,
    asAdvised: (version) => version,
    packageName: (name) => name,
    perRelease: true,
  });
  for (const format of registry.all) {
    const versions = format.versions;
    if (!versions) continue;
    for (const name of versions.ecosystems) {
      known.set(name, {
        name,
        compare: versions.compare,
        valid: versions.valid,
        asAdvised: versions.asAdvised ?? ((version) => version),
        packageName: versions.name ?? ((packageName) => packageName),
        perRelease: versions.perRelease ?? false,
      });
    }
  }
  return known;
}

/** The databases of installed packages the formats declare: what an image's layers are read by. */
export const installedDatabases = (registry: FormatRegistry) =>
  registry.all.flatMap((format) => (format.installedDatabase ? [format.installedDatabase] : []));

/**
 * Whether an advisory entry's ecosystem (`Debian:12`, `Red Hat:enterprise_linux:9::baseos`) applies
 * to a system of a release (`Debian:12`, `Red Hat:enterprise_linux:9`): the release itself, one of
 * its streams (what follows it after a `:`), or the distribution with no release named.
 */
export function releaseApplies(named: string, release: string): boolean {
  return named === release || named.startsWith(`${release}:`) || named === baseEcosystem(release);
}

/** The ecosystem of an advisory's package (`Debian:12` is Debian's), or undefined when no format orders its versions. */
export const ecosystemFor = (known: Map<string, Ecosystem>, ecosystem: string) => known.get(baseEcosystem(ecosystem));

/** The ecosystem a repository's package type is matched in (its format's first one), if any. */
export function ecosystemOfType(registry: FormatRegistry, known: Map<string, Ecosystem>, packageType: string) {
  const name = registry.for(packageType)?.versions?.ecosystems[0];
  return name === undefined ? undefined : known.get(name);
}
