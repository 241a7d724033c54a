import { randomUUID } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import type { SpdxLicense } from './licenses.js';

/**
 * Software bills of materials of a package version, an image, a build or a release bundle:
 * CycloneDX 1.5 JSON and SPDX 2.3 JSON, each naming the subject (its package URL, SHA-256 and
 * licences), what it depends on, installs or is made of, and — in CycloneDX — the
 * vulnerabilities found in it.
 */

/** A package version (or a plain file) a build or a release bundle is made of or uses. */
export interface BomMember {
  /** Empty for a file no format reads as a package. */
  packageType: string;
  name: string;
  version: string;
  sha256: string;
  licenses: SpdxLicense[];
  /** Where it is stored: `{repo}/{path}`. */
  path: string;
  /** A build's artifact (produced) or dependency (used); a bundle's file (contained). */
  scope: 'produced' | 'used' | 'contained';
}

/** How the documents refer to a member: its package URL, or its path. */
export const memberRef = (m: BomMember) =>
  (m.packageType && purlOf(m.packageType, m.name, m.version)) || `file:${m.path}`;

/** What a bill of materials is made from. */
export interface BomSubject {
  /** `build` or `release-bundle` for a collection of members. */
  packageType: string;
  name: string;
  version: string;
  sha256: string;
  licenses: SpdxLicense[];
  /** Declared dependencies: name → the range required. */
  dependencies: Record<string, string>;
  /** What a build or a release bundle is made of and uses. */
  members?: BomMember[];
  /** What an image installs (its distribution as OSV names it, `Debian:12`), and its application's packages. */
  installed?: {
    ecosystem: string;
    packages: { name: string; binary: string; version: string }[];
    /** How its packages' URLs name the distribution (absent from images read before it was kept). */
    purl?: { type: string; namespace: string; distro: string };
    languages?: { ecosystem: string; packages: { name: string; version: string; path: string }[] }[];
  };
  vulnerabilities: {
    id: string;
    cves: string[];
    severity: string;
    summary: string;
    fixedVersions: string[];
    /** The installed package it is in (images), or the member's ref (builds, bundles). */
    component: string;
  }[];
}

const PURL_TYPES: Record<string, string> = {
  npm: 'npm',
  pypi: 'pypi',
  maven: 'maven',
  gradle: 'maven',
  go: 'golang',
  cargo: 'cargo',
  gems: 'gem',
  debian: 'deb',
  rpm: 'rpm',
  helm: 'helm',
  docker: 'oci',
  oci: 'oci',
  nuget: 'nuget',
};

/** The package URL of a package of a type (undefined for a type purl has none for). */
export function purlOf(packageType: string, name: string, version?: string, qualifiers?: Record<string, string>) {
  const type = PURL_TYPES[packageType];
  if (!type) return undefined;
  let namespace: string | undefined;
  let short = name;
  if (type === 'npm' && name.startsWith('@') && name.includes('/'))
    [namespace, short] = name.split('/') as [string, string];
  else if (type === 'maven' && name.includes(':')) [namespace, short] = name.split(':') as [string, string];
  else if ((type === 'golang' || type === 'oci') && name.includes('/')) {
    namespace = type === 'golang' ? name.slice(0, name.lastIndexOf('/')) : undefined;
    short = type === 'golang' ? name.slice(name.lastIndexOf('/') + 1) : name.slice(name.lastIndexOf('/') + 1);
  } else if (type === 'pypi') short = name.toLowerCase().replace(/[-_.]+/g, '-');
  return new PackageURL(type, namespace, short, version, qualifiers, undefined).toString();
}

/** The package URL of a package an image installs: as its image says, else from its ecosystem (`Debian:12`). */
const installedPurl = (installed: NonNullable<BomSubject['installed']>, pkg: { binary: string; version: string }) => {
  const [name = '', release] = installed.ecosystem.split(':');
  const namespace = name.toLowerCase();
  const { type, distro } = installed.purl ?? {
    type: namespace === 'alpine' ? 'apk' : 'deb',
    distro: release ? `${namespace}-${release.replace(/^v/, '')}` : undefined,
  };
  // an RPM's epoch is a qualifier of its package URL, not part of the version
  const epoch = type === 'rpm' ? /^(\d+):(.*)$/.exec(pkg.version) : null;
  const qualifiers = { ...(epoch ? { epoch: epoch[1]! } : {}), ...(distro ? { distro } : {}) };
  return new PackageURL(
    type,
    installed.purl?.namespace ?? namespace,
    pkg.binary,
    epoch ? epoch[2]! : pkg.version,
    Object.keys(qualifiers).length ? qualifiers : undefined,
    undefined,
  ).toString();
};

/** An image's application packages (npm, PyPI), each with its package URL and the name its findings give it. */
function languagePackages(subject: BomSubject) {
  return (subject.installed?.languages ?? []).flatMap((group) => {
    const type = group.ecosystem === 'PyPI' ? 'pypi' : group.ecosystem;
    return group.packages.flatMap((p) => {
      const purl = purlOf(type, p.name, p.version);
      return purl ? [{ ...p, purl, component: `${group.ecosystem.toLowerCase()}://${p.name} ${p.version}` }] : [];
    });
  });
}

const licenceChoices = (licenses: SpdxLicense[]) =>
  licenses.map((l) => (l.id ? { license: { id: l.id } } : { license: { name: l.name } }));

/** CycloneDX 1.5, JSON. */
export function cycloneDx(subject: BomSubject, now = new Date()): Record<string, unknown> {
  const image = subject.installed !== undefined;
  const mainRef = purlOf(subject.packageType, subject.name, subject.version) ?? `${subject.name}@${subject.version}`;
  const components = subject.members
    ? subject.members.map((m) => {
        const purl = m.packageType ? purlOf(m.packageType, m.name, m.version) : undefined;
        return {
          type: m.packageType ? 'library' : 'file',
          'bom-ref': memberRef(m),
          name: m.packageType ? m.name : m.path.slice(m.path.lastIndexOf('/') + 1),
          ...(m.version ? { version: m.version } : {}),
          ...(purl ? { purl } : {}),
          ...(m.sha256 ? { hashes: [{ alg: 'SHA-256', content: m.sha256 }] } : {}),
          ...(m.licenses.length ? { licenses: licenceChoices(m.licenses) } : {}),
          properties: [
            { name: 'arca:path', value: m.path },
            { name: 'arca:scope', value: m.scope },
          ],
        };
      })
    : image
      ? [
          ...subject.installed!.packages.map((p) => {
            const purl = installedPurl(subject.installed!, p);
            return { type: 'library', 'bom-ref': purl, name: p.binary, version: p.version, purl };
          }),
          ...languagePackages(subject).map((p) => ({
            type: 'library',
            'bom-ref': p.purl,
            name: p.name,
            version: p.version,
            purl: p.purl,
            properties: [{ name: 'arca:path', value: p.path }],
          })),
        ]
      : Object.entries(subject.dependencies).map(([name, range]) => {
          const purl = purlOf(subject.packageType, name);
          const ref = `${purl ?? name}#${range}`;
          return {
            type: 'library',
            'bom-ref': ref,
            name,
            ...(purl ? { purl } : {}),
            properties: [{ name: 'arca:required-range', value: range }],
          };
        });
  const refOfInstalled = new Map([
    ...(subject.installed?.packages ?? []).map(
      (p) => [`${p.binary} ${p.version}`, installedPurl(subject.installed!, p)] as const,
    ),
    ...languagePackages(subject).map((p) => [p.component, p.purl] as const),
  ]);
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.5.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: now.toISOString(),
      tools: { components: [{ type: 'application', name: 'Arca' }] },
      component: {
        type: image ? 'container' : subject.members ? 'application' : 'library',
        'bom-ref': mainRef,
        name: subject.name,
        version: subject.version,
        ...(purlOf(subject.packageType, subject.name, subject.version) ? { purl: mainRef } : {}),
        ...(subject.sha256 ? { hashes: [{ alg: 'SHA-256', content: subject.sha256 }] } : {}),
        ...(subject.licenses.length ? { licenses: licenceChoices(subject.licenses) } : {}),
      },
    },
    components,
    dependencies: [{ ref: mainRef, dependsOn: [...new Set(components.map((c) => c['bom-ref']))] }],
    vulnerabilities: subject.vulnerabilities.map((v) => ({
      id: v.id,
      source: { name: 'OSV', url: `https://osv.dev/vulnerability/${encodeURIComponent(v.id)}` },
      ...(v.cves.length
        ? {
            references: v.cves.map((id) => ({
              id,
              source: { name: 'NVD', url: `https://nvd.nist.gov/vuln/detail/${id}` },
            })),
          }
        : {}),
      ratings: [{ severity: v.severity.toLowerCase() === 'unknown' ? 'unknown' : v.severity.toLowerCase() }],
      description: v.summary,
      ...(v.fixedVersions.length ? { recommendation: `Upgrade to ${v.fixedVersions.join(' or ')}.` } : {}),
      affects: [
        {
          ref: subject.members ? v.component || mainRef : (v.component && refOfInstalled.get(v.component)) || mainRef,
        },
      ],
    })),
  };
}

const spdxId = (text: string) => `SPDXRef-${text.replace(/[^A-Za-z0-9.-]+/g, '-')}`;

/** An SPDX licence expression of declared licences (those without an id as LicenseRef-s). */
const declaredOf = (licenses: SpdxLicense[]) =>
  licenses.map((l) => (l.id ? l.id : `LicenseRef-${l.name.replace(/[^A-Za-z0-9.-]+/g, '-')}`)).join(' AND ');

/** SPDX 2.3, JSON. */
export function spdx(subject: BomSubject, now = new Date()): Record<string, unknown> {
  const mainId = spdxId(`Package-${subject.name}-${subject.version}`);
  const mainPurl = purlOf(subject.packageType, subject.name, subject.version);
  const declared = subject.licenses.length ? declaredOf(subject.licenses) : 'NOASSERTION';
  const others = subject.members
    ? subject.members.map((m) => ({
        SPDXID: spdxId(`Package-${m.path}`),
        name: m.packageType ? m.name : m.path.slice(m.path.lastIndexOf('/') + 1),
        versionInfo: m.version || 'NOASSERTION',
        ...(m.packageType && purlOf(m.packageType, m.name, m.version)
          ? { purl: purlOf(m.packageType, m.name, m.version) }
          : {}),
        member: m,
      }))
    : subject.installed
      ? [
          ...subject.installed.packages.map((p) => ({
            SPDXID: spdxId(`Package-${p.binary}-${p.version}`),
            name: p.binary,
            versionInfo: p.version,
            purl: installedPurl(subject.installed!, p),
          })),
          ...languagePackages(subject).map((p) => ({
            SPDXID: spdxId(`Package-${p.purl}`),
            name: p.name,
            versionInfo: p.version,
            purl: p.purl,
          })),
        ]
      : Object.entries(subject.dependencies).map(([name, range]) => ({
          SPDXID: spdxId(`Package-${name}-${range}`),
          name,
          versionInfo: range,
          purl: purlOf(subject.packageType, name),
        }));
  const pkg = (p: {
    SPDXID: string;
    name: string;
    versionInfo: string;
    purl?: string | undefined;
    member?: BomMember;
  }) => ({
    SPDXID: p.SPDXID,
    name: p.name,
    versionInfo: p.versionInfo,
    downloadLocation: 'NOASSERTION',
    filesAnalyzed: false,
    licenseConcluded: 'NOASSERTION',
    licenseDeclared: p.member?.licenses.length ? declaredOf(p.member.licenses) : 'NOASSERTION',
    copyrightText: 'NOASSERTION',
    ...(p.member?.sha256 ? { checksums: [{ algorithm: 'SHA256', checksumValue: p.member.sha256 }] } : {}),
    ...(p.purl
      ? { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: p.purl }] }
      : {}),
  });
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: `${subject.name}@${subject.version}`,
    documentNamespace: `https://arca.invalid/spdx/${encodeURIComponent(subject.name)}-${encodeURIComponent(subject.version)}-${randomUUID()}`,
    creationInfo: { created: now.toISOString().replace(/\.\d{3}Z$/, 'Z'), creators: ['Tool: Arca'] },
    packages: [
      {
        ...pkg({
          SPDXID: mainId,
          name: subject.name,
          versionInfo: subject.version,
          ...(mainPurl ? { purl: mainPurl } : {}),
        }),
        licenseDeclared: declared,
        ...(subject.sha256 ? { checksums: [{ algorithm: 'SHA256', checksumValue: subject.sha256 }] } : {}),
      },
      ...others.map(pkg),
    ],
    ...([...subject.licenses, ...(subject.members ?? []).flatMap((m) => m.licenses)].some((l) => !l.id)
      ? {
          hasExtractedLicensingInfos: [
            ...new Map(
              [...subject.licenses, ...(subject.members ?? []).flatMap((m) => m.licenses)]
                .filter((l) => !l.id)
                .map((l) => [l.name, l]),
            ).values(),
          ].map((l) => ({
            licenseId: `LicenseRef-${l.name.replace(/[^A-Za-z0-9.-]+/g, '-')}`,
            extractedText: l.name,
            name: l.name,
          })),
        }
      : {}),
    relationships: [
      { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: mainId },
      ...others.map((o) => ({
        spdxElementId: mainId,
        relationshipType: subject.installed || ('member' in o && o.member.scope !== 'used') ? 'CONTAINS' : 'DEPENDS_ON',
        relatedSpdxElement: o.SPDXID,
      })),
    ],
  };
}
