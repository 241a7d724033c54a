import { createHash } from 'node:crypto';
import semver from 'semver';
import { NPM_MESSAGES, formatMessage as fill, type NpmDist } from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';

/**
 * Packuments — the documents npm reads for a package — as plain data: what a publish, an update
 * or an unpublish does to one, how a virtual repository merges its members' and how one is
 * answered (full or abbreviated, with tarball addresses of the repository asked).
 */

/** One version's metadata: its package.json as published, plus `dist`. */
export interface VersionManifest {
  name: string;
  version: string;
  dist: NpmDist;
  deprecated?: string;
  readme?: string;
  [field: string]: unknown;
}

export interface Packument {
  _id: string;
  _rev?: string;
  name: string;
  description?: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, VersionManifest>;
  time?: Record<string, string>;
  readme?: string;
  [field: string]: unknown;
}

/** Where a package's packument and tarballs are stored in a repository (as Artifactory keeps them). */
export const packumentPath = (name: string) => `.npm/${name}/package.json`;
export const tarballPath = (name: string, file: string) => `${name}/-/${file}`;
/** The tarball file of a version: the unscoped name, the version, `.tgz`. */
export const tarballFile = (name: string, version: string) => `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;

/** The file name at the end of a tarball address (`…/-/left-pad-1.3.0.tgz`). */
export function tarballFileOf(url: string): string {
  const path = url.split(/[?#]/)[0]!;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

function revision(doc: Packument): string {
  const count = Number.parseInt(doc._rev ?? '0', 10) || 0;
  const digest = createHash('md5')
    .update(JSON.stringify(doc.versions))
    .update(JSON.stringify(doc['dist-tags']))
    .digest('hex');
  return `${count + 1}-${digest}`;
}

/** The highest version that is not a prerelease (or the highest of all when every one is). */
function highest(versions: string[]): string | undefined {
  const sorted = versions.filter((v) => semver.valid(v)).sort(semver.rcompare);
  return sorted.find((v) => !semver.prerelease(v)) ?? sorted[0];
}

/** Fields of the newest version shown at the top of a packument (what `npm view` prints first). */
const TOP_LEVEL_FIELDS = [
  'description',
  'keywords',
  'license',
  'homepage',
  'repository',
  'bugs',
  'author',
  'maintainers',
];

function refreshTopLevel(doc: Packument): void {
  const latest = doc.versions[doc['dist-tags'].latest ?? ''];
  if (!latest) return;
  for (const field of TOP_LEVEL_FIELDS) {
    if (latest[field] !== undefined) doc[field] = latest[field];
    else delete doc[field];
  }
  if (typeof latest.readme === 'string') doc.readme = latest.readme;
}

export interface Publication {
  name: string;
  version: string;
  manifest: VersionManifest;
  tags: Record<string, string>;
}

/** A new packument with one more version (409 when the version exists), its tags set. */
export function withVersion(existing: Packument | undefined, publication: Publication, now = new Date()): Packument {
  const { name, version, manifest } = publication;
  const doc: Packument = existing
    ? structuredClone(existing)
    : { _id: name, name, 'dist-tags': {}, versions: {}, time: { created: now.toISOString() } };
  if (doc.versions[version]) throw conflict(fill(NPM_MESSAGES.versionExists, { version }));
  doc.versions[version] = manifest;
  const tags = Object.keys(publication.tags).length ? publication.tags : { latest: version };
  Object.assign(doc['dist-tags'], tags);
  if (!doc['dist-tags'].latest) doc['dist-tags'].latest = version;
  doc.time = { ...doc.time, [version]: now.toISOString(), modified: now.toISOString() };
  refreshTopLevel(doc);
  doc._rev = revision(doc);
  return doc;
}

/**
 * What a metadata update (`npm deprecate`, the first step of `npm unpublish`) changes: the
 * versions left out of the sent document are removed, and each kept version's deprecation
 * message is taken from it. Nothing else of a published version changes.
 */
export function applyUpdate(
  existing: Packument,
  sent: Packument,
  now = new Date(),
): { doc: Packument; removed: string[]; deprecationsChanged: boolean } {
  const doc = structuredClone(existing);
  const removed = Object.keys(doc.versions).filter((v) => !sent.versions?.[v]);
  let deprecationsChanged = false;
  for (const [version, manifest] of Object.entries(doc.versions)) {
    const wanted = sent.versions?.[version];
    if (!wanted) {
      delete doc.versions[version];
      delete doc.time?.[version];
      continue;
    }
    const message = typeof wanted.deprecated === 'string' && wanted.deprecated !== '' ? wanted.deprecated : undefined;
    if (message !== manifest.deprecated) {
      deprecationsChanged = true;
      if (message === undefined) delete manifest.deprecated;
      else manifest.deprecated = message;
    }
  }
  const left = Object.keys(doc.versions);
  for (const [tag, version] of Object.entries(doc['dist-tags']))
    if (!doc.versions[version]) delete doc['dist-tags'][tag];
  if (!doc['dist-tags'].latest && left.length) doc['dist-tags'].latest = highest(left)!;
  doc.time = { ...doc.time, modified: now.toISOString() };
  refreshTopLevel(doc);
  doc._rev = revision(doc);
  return { doc, removed, deprecationsChanged };
}

/** Points a dist-tag at a version (400 for an unknown version or a tag that looks like a version). */
export function withTag(existing: Packument, tag: string, version: string): Packument {
  if (!tag || semver.validRange(tag) !== null) throw badRequest(fill(NPM_MESSAGES.badTag, { tag }));
  if (!existing.versions[version]) throw badRequest(fill(NPM_MESSAGES.noSuchVersion, { name: existing.name, version }));
  const doc = structuredClone(existing);
  doc['dist-tags'][tag] = version;
  refreshTopLevel(doc);
  doc._rev = revision(doc);
  return doc;
}

export function withoutTag(existing: Packument, tag: string): Packument {
  if (tag === 'latest') throw badRequest(NPM_MESSAGES.latestTag);
  const doc = structuredClone(existing);
  delete doc['dist-tags'][tag];
  doc._rev = revision(doc);
  return doc;
}

/**
 * A virtual repository's packument from its members' (in resolution order): the first member
 * that has a version serves it, and each dist-tag comes from the first member that sets it.
 */
export function mergePackuments(docs: Packument[]): Packument | undefined {
  const [first, ...rest] = docs;
  if (!first) return undefined;
  const merged = structuredClone(first);
  for (const doc of rest) {
    for (const [version, manifest] of Object.entries(doc.versions ?? {})) {
      if (merged.versions[version]) continue;
      merged.versions[version] = manifest;
      if (doc.time?.[version]) merged.time = { ...merged.time, [version]: doc.time[version] };
    }
    for (const [tag, version] of Object.entries(doc['dist-tags'] ?? {})) {
      if (!(tag in merged['dist-tags'])) merged['dist-tags'][tag] = version;
    }
    const modified = doc.time?.modified;
    if (modified && (!merged.time?.modified || modified > merged.time.modified)) {
      merged.time = { ...merged.time, modified };
    }
  }
  return merged;
}

/** Fields of a version that installs need: the abbreviated packument keeps these. */
const ABBREVIATED_VERSION_FIELDS = [
  'name',
  'version',
  'deprecated',
  'dependencies',
  'optionalDependencies',
  'devDependencies',
  'bundleDependencies',
  'bundledDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'acceptDependencies',
  'bin',
  'directories',
  'dist',
  'engines',
  'cpu',
  'os',
  'libc',
  'funding',
  'license',
  '_hasShrinkwrap',
  'hasInstallScript',
];

function hasInstallScript(manifest: VersionManifest): boolean {
  const scripts = manifest.scripts as Record<string, unknown> | undefined;
  return !!scripts && ['preinstall', 'install', 'postinstall'].some((s) => typeof scripts[s] === 'string');
}

/**
 * The packument as answered by repository `repoKey` at `registry` (`…/api/npm/{repoKey}`): every
 * tarball address points at that repository, whichever member or upstream holds the file.
 * Abbreviated, it keeps what an install needs.
 */
export function present(doc: Packument, registry: string, abbreviated: boolean): object {
  const versions: Record<string, object> = {};
  for (const [version, manifest] of Object.entries(doc.versions)) {
    const dist = {
      ...manifest.dist,
      tarball: `${registry}/${tarballPath(doc.name, tarballFileOf(manifest.dist.tarball))}`,
    };
    if (!abbreviated) {
      versions[version] = { ...manifest, dist };
      continue;
    }
    const short: Record<string, unknown> = {};
    for (const field of ABBREVIATED_VERSION_FIELDS) if (manifest[field] !== undefined) short[field] = manifest[field];
    short.dist = dist;
    if (short.hasInstallScript === undefined && hasInstallScript(manifest)) short.hasInstallScript = true;
    versions[version] = short;
  }
  if (abbreviated) {
    return {
      name: doc.name,
      modified: doc.time?.modified ?? new Date(0).toISOString(),
      'dist-tags': doc['dist-tags'],
      versions,
    };
  }
  return { ...doc, versions };
}

/** Parses a stored or fetched packument; undefined for something that is not one. */
export function parsePackument(text: string): Packument | undefined {
  try {
    const doc = JSON.parse(text) as Packument;
    if (!doc || typeof doc !== 'object' || typeof doc.name !== 'string' || typeof doc.versions !== 'object')
      return undefined;
    doc['dist-tags'] ??= {};
    return doc;
  } catch {
    return undefined;
  }
}
