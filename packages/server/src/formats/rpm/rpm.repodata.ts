import type { RpmDependency, RpmFacts } from './rpm.header.js';

/**
 * The repodata createrepo writes and dnf reads: `primary.xml` (what each package is, provides and
 * needs), `filelists.xml` (its files), `other.xml` (its changelog, left empty here) and `repomd.xml`
 * naming them with their checksums.
 */

/** A package in a repository's list: its facts, where it is and its digest. */
export interface RepoPackage extends RpmFacts {
  path: string;
  sha256: string;
  size: number;
  /** When the file was stored (epoch seconds). */
  fileTime: number;
}

/** Text for XML: markup escaped, and the control characters XML 1.0 cannot carry left out. */
const escape = (text: string | number) =>
  [...String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)]
    .filter((c) => c >= ' ' || c === '\t' || c === '\n' || c === '\r')
    .join('');

const NS_COMMON = 'http://linux.duke.edu/metadata/common';
const NS_RPM = 'http://linux.duke.edu/metadata/rpm';

const versionOf = (p: RepoPackage) =>
  `<version epoch="${p.epoch}" ver="${escape(p.version)}" rel="${escape(p.release)}"/>`;

function entries(tag: string, deps: RpmDependency[]): string {
  if (!deps.length) return '';
  const items = deps.map((d) => {
    const attrs = [`name="${escape(d.name)}"`];
    if (d.flags) attrs.push(`flags="${d.flags}"`, `epoch="${escape(d.epoch ?? '0')}"`, `ver="${escape(d.ver ?? '')}"`);
    if (d.rel) attrs.push(`rel="${escape(d.rel)}"`);
    if (d.pre) attrs.push('pre="1"');
    return `      <rpm:entry ${attrs.join(' ')}/>`;
  });
  return `    <rpm:${tag}>\n${items.join('\n')}\n    </rpm:${tag}>\n`;
}

/** The files primary.xml lists (as createrepo does): those under /etc, in bin directories, and /usr/lib/sendmail. */
const PRIMARY_FILE = /^(\/etc\/|\/usr\/lib\/sendmail$)|bin\//;

function primaryPackage(p: RepoPackage): string {
  const files = p.files
    .filter((f) => PRIMARY_FILE.test(f.path))
    .map((f) => `    <file${f.dir ? ' type="dir"' : ''}>${escape(f.path)}</file>\n`)
    .join('');
  return `<package type="rpm">
  <name>${escape(p.name)}</name>
  <arch>${escape(p.arch)}</arch>
  ${versionOf(p)}
  <checksum type="sha256" pkgid="YES">${p.sha256}</checksum>
  <summary>${escape(p.summary)}</summary>
  <description>${escape(p.description)}</description>
  <packager>${escape(p.packager)}</packager>
  <url>${escape(p.url)}</url>
  <time file="${p.fileTime}" build="${p.buildTime}"/>
  <size package="${p.size}" installed="${p.installedSize}" archive="${p.archiveSize}"/>
  <location href="${escape(p.path)}"/>
  <format>
    <rpm:license>${escape(p.license)}</rpm:license>
    <rpm:vendor>${escape(p.vendor)}</rpm:vendor>
    <rpm:group>${escape(p.group)}</rpm:group>
    <rpm:buildhost>${escape(p.buildHost)}</rpm:buildhost>
    <rpm:sourcerpm>${escape(p.sourceRpm)}</rpm:sourcerpm>
    <rpm:header-range start="${p.headerStart}" end="${p.headerEnd}"/>
${entries('provides', p.provides)}${entries('requires', p.requires)}${entries('conflicts', p.conflicts)}${entries('obsoletes', p.obsoletes)}${files}  </format>
</package>`;
}

export function primaryXml(packages: RepoPackage[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<metadata xmlns="${NS_COMMON}" xmlns:rpm="${NS_RPM}" packages="${packages.length}">
${packages.map(primaryPackage).join('\n')}
</metadata>
`;
}

export function filelistsXml(packages: RepoPackage[]): string {
  const one = (p: RepoPackage) =>
    `<package pkgid="${p.sha256}" name="${escape(p.name)}" arch="${escape(p.arch)}">
  ${versionOf(p)}
${p.files.map((f) => `  <file${f.dir ? ' type="dir"' : ''}>${escape(f.path)}</file>`).join('\n')}
</package>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<filelists xmlns="http://linux.duke.edu/metadata/filelists" packages="${packages.length}">
${packages.map(one).join('\n')}
</filelists>
`;
}

export function otherXml(packages: RepoPackage[]): string {
  const one = (p: RepoPackage) =>
    `<package pkgid="${p.sha256}" name="${escape(p.name)}" arch="${escape(p.arch)}">
  ${versionOf(p)}
</package>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<otherdata xmlns="http://linux.duke.edu/metadata/other" packages="${packages.length}">
${packages.map(one).join('\n')}
</otherdata>
`;
}

/** One file repomd.xml names. */
export interface RepomdData {
  type: 'primary' | 'filelists' | 'other';
  href: string;
  checksum: string;
  openChecksum: string;
  size: number;
  openSize: number;
  timestamp: number;
}

export function repomdXml(revision: number, data: RepomdData[]): string {
  const one = (d: RepomdData) => `  <data type="${d.type}">
    <checksum type="sha256">${d.checksum}</checksum>
    <open-checksum type="sha256">${d.openChecksum}</open-checksum>
    <location href="${escape(d.href)}"/>
    <timestamp>${d.timestamp}</timestamp>
    <size>${d.size}</size>
    <open-size>${d.openSize}</open-size>
  </data>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<repomd xmlns="http://linux.duke.edu/metadata/repo" xmlns:rpm="${NS_RPM}">
  <revision>${revision}</revision>
${data.map(one).join('\n')}
</repomd>
`;
}

/** The `<package>` elements of a repodata file and the document around them, for merging. */
export function packageBlocks(xml: string): string[] {
  return xml.match(/<package\b[\s\S]*?<\/package>/g) ?? [];
}

/** What identifies a package in a primary.xml block: name, arch and version; and its pkgid. */
export function blockIdentity(block: string): { key: string; pkgid: string } {
  const pick = (re: RegExp) => re.exec(block)?.[1] ?? '';
  const version = /<version\b([^>]*)\/>/.exec(block)?.[1] ?? '';
  return {
    key: `${pick(/<name>([^<]*)<\/name>/)}|${pick(/<arch>([^<]*)<\/arch>/)}|${version.trim()}`,
    pkgid: pick(/<checksum\b[^>]*>([^<]*)<\/checksum>/) || pick(/pkgid="([^"]*)"/),
  };
}

/** The data files repomd.xml names: type → location. */
export function repomdLocations(xml: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const block of xml.match(/<data\b[\s\S]*?<\/data>/g) ?? []) {
    const type = /type="([^"]+)"/.exec(block)?.[1];
    const href = /<location\b[^>]*href="([^"]+)"/.exec(block)?.[1];
    if (type && href) found.set(type, href);
  }
  return found;
}
