/** What a path of a Maven 2 repository says: `{group as folders}/{artifactId}/{version}/{file}`. */
export interface MavenFile {
  groupId: string;
  artifactId: string;
  /** The version folder's name (`1.0`, `1.0-SNAPSHOT`). */
  version: string;
  /** The version in the file name: the folder's, or a unique snapshot's `1.0-20261123.120000-2`. */
  fileVersion: string;
  /** A unique snapshot's timestamp and build number. */
  snapshot?: { timestamp: string; buildNumber: number };
  classifier: string;
  extension: string;
  /** `org/acme/app`: where the artifact's `maven-metadata.xml` lives. */
  artifactFolder: string;
  /** `org/acme/app/1.0`. */
  versionFolder: string;
}

export const METADATA_FILE = 'maven-metadata.xml';
/** The checksum files Maven clients ask for, with the algorithm each names. */
export const CHECKSUM_EXTENSIONS = { sha1: 'sha1', md5: 'md5', sha256: 'sha256' } as const;
export type ChecksumAlgorithm = keyof typeof CHECKSUM_EXTENSIONS;

export const isSnapshotVersion = (version: string) => version.endsWith('-SNAPSHOT');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `x.jar.sha1` → the file it is the checksum of and the algorithm; undefined for other paths. */
export function checksumOf(path: string): { base: string; algorithm: ChecksumAlgorithm } | undefined {
  const match = /^(.+)\.(sha1|md5|sha256)$/.exec(path);
  return match ? { base: match[1]!, algorithm: match[2] as ChecksumAlgorithm } : undefined;
}

export const isMetadataPath = (path: string) => path === METADATA_FILE || path.endsWith(`/${METADATA_FILE}`);

/** The coordinates a path stands for; undefined when it does not follow the Maven 2 layout. */
export function parseMavenPath(path: string): MavenFile | undefined {
  const segments = path.split('/');
  if (segments.length < 4) return undefined;
  const file = segments.at(-1)!;
  const version = segments.at(-2)!;
  const artifactId = segments.at(-3)!;
  const group = segments.slice(0, -3);
  if (!file.startsWith(`${artifactId}-`)) return undefined;
  const rest = file.slice(artifactId.length + 1);
  let fileVersion: string;
  let snapshot: MavenFile['snapshot'];
  const unique = isSnapshotVersion(version)
    ? new RegExp(`^${escapeRegExp(version.slice(0, -'-SNAPSHOT'.length))}-(\\d{8}\\.\\d{6})-(\\d+)(?=[.-])`).exec(rest)
    : null;
  if (unique) {
    fileVersion = unique[0];
    snapshot = { timestamp: unique[1]!, buildNumber: Number(unique[2]) };
  } else if (rest.startsWith(version) && /^[.-]/.test(rest.slice(version.length))) {
    fileVersion = version;
  } else {
    return undefined;
  }
  const tail = rest.slice(fileVersion.length);
  let classifier = '';
  let extension: string;
  if (tail.startsWith('-')) {
    const dot = tail.indexOf('.');
    if (dot < 2) return undefined;
    classifier = tail.slice(1, dot);
    extension = tail.slice(dot + 1);
  } else {
    extension = tail.slice(1);
  }
  if (!extension) return undefined;
  return {
    groupId: group.join('.'),
    artifactId,
    version,
    fileVersion,
    ...(snapshot ? { snapshot } : {}),
    classifier,
    extension,
    artifactFolder: segments.slice(0, -2).join('/'),
    versionFolder: segments.slice(0, -1).join('/'),
  };
}

/** Maven's version order (a lean `ComparableVersion`): numbers numerically, qualifiers by rank. */
const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Record<string, string> = {
  a: 'alpha',
  b: 'beta',
  m: 'milestone',
  cr: 'rc',
  ga: '',
  final: '',
  release: '',
};

type Token = number | string;
function tokens(version: string): Token[] {
  const parts = version
    .toLowerCase()
    .split(/[.-]|(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)/)
    .filter((p) => p !== '');
  const list = parts.map((p): Token => (/^\d+$/.test(p) ? Number(p) : (ALIASES[p] ?? p)));
  // zeros closing a run of numbers and empty qualifiers do not count: 1.0 = 1 = 1.0.0-ga, 1.0-rc = 1-rc
  const kept: Token[] = [];
  let closing = true;
  for (let i = list.length - 1; i >= 0; i--) {
    const token = list[i]!;
    if (typeof token === 'string') closing = true;
    if (token === '' || (token === 0 && closing)) continue;
    if (typeof token === 'number') closing = false;
    kept.unshift(token);
  }
  return kept;
}

function compareToken(a: Token | undefined, b: Token | undefined): number {
  if (a === b) return 0;
  const rank = (t: Token | undefined): [number, number | string] => {
    if (t === undefined) return [1, QUALIFIERS.indexOf('')];
    if (typeof t === 'number') return [2, t];
    const known = QUALIFIERS.indexOf(t);
    return known >= 0 ? [1, known] : [1.5, t];
  };
  const [ka, va] = rank(a);
  const [kb, vb] = rank(b);
  if (ka !== kb) return ka - kb;
  return va < vb ? -1 : va > vb ? 1 : 0;
}

export function compareMavenVersions(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const order = compareToken(ta[i], tb[i]);
    if (order) return order;
  }
  return 0;
}
