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

/*
 * Maven's version order, as maven-artifact's ComparableVersion has it: a version is a list of
 * items — numbers, qualifiers, and sub-lists opened by each `-` and by each change between digits
 * and letters; trailing nulls (0, the release qualifier, empty lists) do not count. Qualifiers
 * rank alpha < beta < milestone < rc < snapshot < release < sp, unknown ones after them in text
 * order; `a1`, `b1`, `m1` are alpha, beta, milestone; ga, final and release are the release; cr is rc.
 */
const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Record<string, string> = { ga: '', final: '', release: '', cr: 'rc' };
const RELEASE = String(QUALIFIERS.indexOf(''));

type Item = { kind: 'int'; value: bigint } | { kind: 'string'; value: string } | { kind: 'list'; items: Item[] };

const comparable = (qualifier: string) => {
  const index = QUALIFIERS.indexOf(qualifier);
  return index < 0 ? `${QUALIFIERS.length}-${qualifier}` : String(index);
};
const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function stringItem(value: string, followedByDigit: boolean): Item {
  const short: Record<string, string> = { a: 'alpha', b: 'beta', m: 'milestone' };
  const named = followedByDigit && value.length === 1 ? (short[value] ?? value) : value;
  return { kind: 'string', value: ALIASES[named] ?? named };
}

const parseItem = (digits: boolean, text: string): Item =>
  digits ? { kind: 'int', value: BigInt(text) } : stringItem(text, false);

const isNull = (item: Item) =>
  item.kind === 'int' ? item.value === 0n : item.kind === 'string' ? item.value === '' : item.items.length === 0;

function normalize(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const last = list[i]!;
    if (isNull(last)) list.splice(i, 1);
    else if (last.kind !== 'list') break;
  }
}

function parseMavenVersion(version: string): Item[] {
  const text = version.toLowerCase();
  const root: Item[] = [];
  let list = root;
  const stack: Item[][] = [root];
  const open = () => {
    const next: Item[] = [];
    list.push({ kind: 'list', items: next });
    list = next;
    stack.push(next);
  };
  let digits = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '.') {
      list.push(i === start ? { kind: 'int', value: 0n } : parseItem(digits, text.slice(start, i)));
      start = i + 1;
    } else if (c === '-') {
      list.push(i === start ? { kind: 'int', value: 0n } : parseItem(digits, text.slice(start, i)));
      start = i + 1;
      open();
    } else if (c >= '0' && c <= '9') {
      if (!digits && i > start) {
        list.push(stringItem(text.slice(start, i), true));
        start = i;
        open();
      }
      digits = true;
    } else {
      if (digits && i > start) {
        list.push(parseItem(true, text.slice(start, i)));
        start = i;
        open();
      }
      digits = false;
    }
  }
  if (text.length > start) list.push(parseItem(digits, text.slice(start)));
  for (let i = stack.length - 1; i >= 0; i--) normalize(stack[i]!);
  return root;
}

/** An item against another (undefined: nothing there), as each item kind of ComparableVersion compares. */
function compareItem(a: Item, b: Item | undefined): number {
  if (a.kind === 'int') {
    if (!b) return a.value === 0n ? 0 : 1;
    if (b.kind === 'int') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    return 1;
  }
  if (a.kind === 'string') {
    if (!b) return textOrder(comparable(a.value), RELEASE);
    if (b.kind === 'string') return textOrder(comparable(a.value), comparable(b.value));
    return -1;
  }
  if (!b) return a.items.length ? compareItem(a.items[0]!, undefined) : 0;
  if (b.kind === 'int') return -1;
  if (b.kind === 'string') return 1;
  return compareLists(a.items, b.items);
}

function compareLists(a: Item[], b: Item[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const l = a[i];
    const r = b[i];
    const order = l ? compareItem(l, r) : r ? -compareItem(r, undefined) : 0;
    if (order) return order;
  }
  return 0;
}

export function compareMavenVersions(a: string, b: string): number {
  return compareLists(parseMavenVersion(a), parseMavenVersion(b));
}
