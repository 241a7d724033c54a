import { XMLParser } from 'fast-xml-parser';
import { compareMavenVersions, isSnapshotVersion, type MavenFile } from './maven.path.js';

/** `maven-metadata.xml` as Arca reads and writes it: artifact level, or a snapshot version's. */
export interface MavenMetadata {
  groupId: string;
  artifactId: string;
  /** Set on a snapshot version's metadata. */
  version?: string;
  versions: string[];
  latest?: string;
  release?: string;
  snapshot?: { timestamp: string; buildNumber: number };
  snapshotVersions: { classifier: string; extension: string; value: string; updated: string }[];
  /** `yyyyMMddHHmmss`, UTC. */
  lastUpdated: string;
}

/** `yyyyMMddHHmmss` in UTC, Maven's `lastUpdated`. */
export function mavenTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'version' || name === 'snapshotVersion',
});

/** Reads a metadata file; undefined when it is not one. */
export function parseMetadata(xml: string): MavenMetadata | undefined {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const root = doc.metadata as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object') return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);
  const versioning = (root.versioning ?? {}) as Record<string, unknown>;
  const versionsNode = (versioning.versions ?? {}) as { version?: unknown[] };
  const snapshotNode = versioning.snapshot as { timestamp?: unknown; buildNumber?: unknown } | undefined;
  const snapshotVersions = ((versioning.snapshotVersions ?? {}) as { snapshotVersion?: Record<string, unknown>[] })
    .snapshotVersion;
  const version = Array.isArray(root.version) ? text(root.version[0]) : text(root.version);
  const timestamp = text(snapshotNode?.timestamp);
  return {
    groupId: text(root.groupId) ?? '',
    artifactId: text(root.artifactId) ?? '',
    ...(version ? { version } : {}),
    versions: (versionsNode.version ?? []).map(text).filter((v): v is string => !!v),
    ...(text(versioning.latest) ? { latest: text(versioning.latest)! } : {}),
    ...(text(versioning.release) ? { release: text(versioning.release)! } : {}),
    ...(timestamp ? { snapshot: { timestamp, buildNumber: Number(text(snapshotNode?.buildNumber) ?? 0) } } : {}),
    snapshotVersions: (snapshotVersions ?? []).map((s) => ({
      classifier: text(s.classifier) ?? '',
      extension: text(s.extension) ?? '',
      value: text(s.value) ?? '',
      updated: text(s.updated) ?? '',
    })),
    lastUpdated: text(versioning.lastUpdated) ?? '',
  };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
const tag = (name: string, value: string | number | undefined, indent: string) =>
  value === undefined || value === '' ? '' : `${indent}<${name}>${escape(String(value))}</${name}>\n`;

/** Writes a metadata file the way Maven itself does. */
export function renderMetadata(m: MavenMetadata): string {
  const snapshotLevel = m.version !== undefined;
  let xml = `<?xml version="1.0" encoding="UTF-8"?>\n<metadata${snapshotLevel ? ' modelVersion="1.1.0"' : ''}>\n`;
  xml += tag('groupId', m.groupId, '  ') + tag('artifactId', m.artifactId, '  ') + tag('version', m.version, '  ');
  xml += '  <versioning>\n';
  xml += tag('latest', m.latest, '    ') + tag('release', m.release, '    ');
  if (m.snapshot) {
    xml += `    <snapshot>\n${tag('timestamp', m.snapshot.timestamp, '      ')}${tag('buildNumber', m.snapshot.buildNumber, '      ')}    </snapshot>\n`;
  }
  if (m.versions.length) {
    xml += `    <versions>\n${m.versions.map((v) => tag('version', v, '      ')).join('')}    </versions>\n`;
  }
  xml += tag('lastUpdated', m.lastUpdated, '    ');
  if (m.snapshotVersions.length) {
    xml += '    <snapshotVersions>\n';
    for (const s of m.snapshotVersions) {
      xml += `      <snapshotVersion>\n${tag('classifier', s.classifier, '        ')}${tag('extension', s.extension, '        ')}${tag('value', s.value, '        ')}${tag('updated', s.updated, '        ')}      </snapshotVersion>\n`;
    }
    xml += '    </snapshotVersions>\n';
  }
  return `${xml}  </versioning>\n</metadata>\n`;
}

/** The artifact-level metadata of the versions an artifact folder holds. */
export function artifactMetadata(groupId: string, artifactId: string, versions: string[], now: number): MavenMetadata {
  const sorted = [...new Set(versions)].sort(compareMavenVersions);
  const releases = sorted.filter((v) => !isSnapshotVersion(v));
  return {
    groupId,
    artifactId,
    versions: sorted,
    ...(sorted.length ? { latest: sorted.at(-1)! } : {}),
    ...(releases.length ? { release: releases.at(-1)! } : {}),
    snapshotVersions: [],
    lastUpdated: mavenTimestamp(now),
  };
}

/**
 * A snapshot version's metadata from the files of its folder: the newest unique build, and for
 * each classifier and extension the newest file (a non-unique `-SNAPSHOT` file counts when no
 * unique one has that classifier and extension).
 */
export function snapshotMetadata(files: { file: MavenFile; modifiedAt: number }[], now: number): MavenMetadata {
  const first = files[0]!.file;
  let newest: MavenFile['snapshot'];
  const byKind = new Map<string, MavenMetadata['snapshotVersions'][number] & { build: number }>();
  for (const { file, modifiedAt } of files) {
    if (file.snapshot && (!newest || file.snapshot.buildNumber > newest.buildNumber)) newest = file.snapshot;
    const key = `${file.classifier}\u0000${file.extension}`;
    const build = file.snapshot?.buildNumber ?? -1;
    const known = byKind.get(key);
    if (!known || build > known.build) {
      byKind.set(key, {
        classifier: file.classifier,
        extension: file.extension,
        value: file.fileVersion,
        updated: mavenTimestamp(modifiedAt),
        build,
      });
    }
  }
  const kinds = [...byKind.values()].sort(
    (a, b) => a.extension.localeCompare(b.extension) || a.classifier.localeCompare(b.classifier),
  );
  return {
    groupId: first.groupId,
    artifactId: first.artifactId,
    version: first.version,
    versions: [],
    ...(newest ? { snapshot: newest } : {}),
    snapshotVersions: kinds.map(({ build: _build, ...kind }) => kind),
    lastUpdated: mavenTimestamp(now),
  };
}

/**
 * A virtual repository's metadata from its members': the union of their versions (artifact
 * level); the member with the newest build (a snapshot version's).
 */
export function mergeMetadata(documents: MavenMetadata[], now: number): MavenMetadata | undefined {
  if (!documents.length) return undefined;
  const first = documents[0]!;
  if (first.version !== undefined) {
    return [...documents].sort(
      (a, b) =>
        (b.snapshot?.timestamp ?? '').localeCompare(a.snapshot?.timestamp ?? '') ||
        b.lastUpdated.localeCompare(a.lastUpdated),
    )[0];
  }
  const merged = artifactMetadata(
    first.groupId,
    first.artifactId,
    documents.flatMap((d) => d.versions),
    now,
  );
  const updated = documents.map((d) => d.lastUpdated).sort();
  return { ...merged, lastUpdated: updated.at(-1) || merged.lastUpdated };
}

/** Two metadata documents that say the same, whenever they were written. */
export const sameMetadata = (a: MavenMetadata, b: MavenMetadata) =>
  renderMetadata({ ...a, lastUpdated: '' }) === renderMetadata({ ...b, lastUpdated: '' });
