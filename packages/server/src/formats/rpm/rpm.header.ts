import { RPM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';

/**
 * RPM package files as the RPM file format describes them: a 96-byte lead, a signature header
 * (padded to 8 bytes), then the package header whose tags say what the package is, needs and holds.
 */

const TAG = {
  name: 1000,
  version: 1001,
  release: 1002,
  epoch: 1003,
  summary: 1004,
  description: 1005,
  buildTime: 1006,
  buildHost: 1007,
  installedSize: 1009,
  vendor: 1011,
  license: 1014,
  packager: 1015,
  group: 1016,
  url: 1020,
  arch: 1022,
  fileModes: 1030,
  sourceRpm: 1044,
  archiveSize: 1046,
  provideName: 1047,
  requireFlags: 1048,
  requireName: 1049,
  requireVersion: 1050,
  conflictFlags: 1053,
  conflictName: 1054,
  conflictVersion: 1055,
  obsoleteName: 1090,
  provideFlags: 1112,
  provideVersion: 1113,
  obsoleteFlags: 1114,
  obsoleteVersion: 1115,
  dirIndexes: 1116,
  baseNames: 1117,
  dirNames: 1118,
} as const;
/** The signature header's tags for the payload's size. */
const SIG_PAYLOAD_SIZE = 1007;
const SIG_LONG_ARCHIVE_SIZE = 271;

type Value = string | string[] | number[] | Buffer;

/** A header read: its tags' values, and where it lies in the file (for `rpm:header-range`). */
interface Header {
  tags: Map<number, Value>;
  start: number;
  end: number;
}

function readHeader(file: Buffer, start: number): Header {
  if (file.readUIntBE(start, 3) !== 0x8eade8) throw new Error('a header has no magic');
  const count = file.readUInt32BE(start + 8);
  const size = file.readUInt32BE(start + 12);
  const store = start + 16 + count * 16;
  const end = store + size;
  if (count > 100_000 || end > file.length) throw new Error('a header runs past the end of the file');
  const tags = new Map<number, Value>();
  const cString = (at: number) => {
    const stop = file.indexOf(0, at);
    if (stop < 0 || stop >= end) throw new Error('a string runs past its header');
    return [file.toString('utf8', at, stop), stop + 1] as const;
  };
  for (let i = 0; i < count; i++) {
    const entry = start + 16 + i * 16;
    const tag = file.readUInt32BE(entry);
    const type = file.readUInt32BE(entry + 4);
    const offset = store + file.readUInt32BE(entry + 8);
    const n = file.readUInt32BE(entry + 12);
    if (offset > end) throw new Error(`tag ${tag} lies outside its header`);
    switch (type) {
      case 3:
        tags.set(
          tag,
          Array.from({ length: n }, (_, k) => file.readUInt16BE(offset + 2 * k)),
        );
        break;
      case 4:
        tags.set(
          tag,
          Array.from({ length: n }, (_, k) => file.readUInt32BE(offset + 4 * k)),
        );
        break;
      case 5:
        tags.set(
          tag,
          Array.from({ length: n }, (_, k) => Number(file.readBigUInt64BE(offset + 8 * k))),
        );
        break;
      case 6:
        tags.set(tag, cString(offset)[0]);
        break;
      case 7:
        tags.set(tag, file.subarray(offset, offset + n));
        break;
      case 8:
      case 9: {
        const strings: string[] = [];
        let at = offset;
        for (let k = 0; k < n; k++) {
          const [text, next] = cString(at);
          strings.push(text);
          at = next;
        }
        tags.set(tag, type === 9 ? strings.slice(0, 1) : strings);
        break;
      }
      default:
        break;
    }
  }
  return { tags, start, end };
}

/** A dependency as repodata lists it. */
export interface RpmDependency {
  name: string;
  flags?: 'EQ' | 'LT' | 'LE' | 'GT' | 'GE';
  epoch?: string;
  ver?: string;
  rel?: string;
  pre?: boolean;
}

/** What an RPM says of itself. */
export interface RpmFacts {
  name: string;
  epoch: number;
  version: string;
  release: string;
  arch: string;
  summary: string;
  description: string;
  license: string;
  vendor: string;
  group: string;
  packager: string;
  url: string;
  buildHost: string;
  sourceRpm: string;
  buildTime: number;
  installedSize: number;
  archiveSize: number;
  headerStart: number;
  headerEnd: number;
  provides: RpmDependency[];
  requires: RpmDependency[];
  conflicts: RpmDependency[];
  obsoletes: RpmDependency[];
  files: { path: string; dir: boolean }[];
  /** Whether the signature header carries an OpenPGP signature (RSA or DSA over the header). */
  signed: boolean;
}

const SENSE: Record<number, RpmDependency['flags']> = { 2: 'LT', 4: 'GT', 8: 'EQ', 10: 'LE', 12: 'GE' };

function dependencies(tags: Map<number, Value>, names: number, flags: number, versions: number): RpmDependency[] {
  const list = (tags.get(names) as string[] | undefined) ?? [];
  const flagList = (tags.get(flags) as number[] | undefined) ?? [];
  const versionList = (tags.get(versions) as string[] | undefined) ?? [];
  const seen = new Set<string>();
  const out: RpmDependency[] = [];
  list.forEach((name, i) => {
    // rpmlib() capabilities are rpm's own, not packages a repository provides
    if (name.startsWith('rpmlib(')) return;
    const raw = flagList[i] ?? 0;
    const sense = SENSE[raw & 0x0e];
    const full = versionList[i] ?? '';
    const dep: RpmDependency = { name };
    if (sense && full) {
      const epochMatch = /^(\d+):(.*)$/.exec(full);
      const rest = epochMatch ? epochMatch[2]! : full;
      const dash = rest.lastIndexOf('-');
      Object.assign(dep, {
        flags: sense,
        epoch: epochMatch ? epochMatch[1]! : '0',
        ver: dash > 0 ? rest.slice(0, dash) : rest,
        ...(dash > 0 ? { rel: rest.slice(dash + 1) } : {}),
      });
    }
    if (raw & (0x40 | 0x200 | 0x400)) dep.pre = true;
    const key = JSON.stringify(dep);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(dep);
    }
  });
  return out;
}

/** Reads an RPM's lead and headers; throws the client's message when it is no readable RPM. */
export function inspectRpm(file: Buffer, path: string): RpmFacts {
  const fault = (reason: string) => badRequest(fill(RPM_MESSAGES.badPackage, { path, reason }));
  if (file.length < 112 || file.readUInt32BE(0) !== 0xedabeedb) throw fault('it has no RPM lead');
  let signature: Header;
  let header: Header;
  try {
    signature = readHeader(file, 96);
    header = readHeader(file, signature.end + ((8 - (signature.end % 8)) % 8));
  } catch (error) {
    throw fault((error as Error).message);
  }
  const t = header.tags;
  const text = (tag: number) => {
    const value = t.get(tag);
    return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
  };
  const number = (tag: number, from = t) => {
    const value = from.get(tag);
    return Array.isArray(value) && typeof value[0] === 'number' ? value[0] : 0;
  };
  const name = text(TAG.name);
  const version = text(TAG.version);
  const release = text(TAG.release);
  if (!name || !version || !release) throw fault('its header names no package, version or release');
  const baseNames = (t.get(TAG.baseNames) as string[] | undefined) ?? [];
  const dirNames = (t.get(TAG.dirNames) as string[] | undefined) ?? [];
  const dirIndexes = (t.get(TAG.dirIndexes) as number[] | undefined) ?? [];
  const modes = (t.get(TAG.fileModes) as number[] | undefined) ?? [];
  const files = baseNames.map((base, i) => ({
    path: `${dirNames[dirIndexes[i] ?? 0] ?? ''}${base}`,
    dir: ((modes[i] ?? 0) & 0o170000) === 0o040000,
  }));
  const sourceRpm = text(TAG.sourceRpm);
  return {
    name,
    epoch: number(TAG.epoch),
    version,
    release,
    // a source package says so by having no source package of its own
    arch: sourceRpm ? text(TAG.arch) : 'src',
    summary: text(TAG.summary),
    description: text(TAG.description),
    license: text(TAG.license),
    vendor: text(TAG.vendor),
    group: text(TAG.group),
    packager: text(TAG.packager),
    url: text(TAG.url),
    buildHost: text(TAG.buildHost),
    sourceRpm,
    buildTime: number(TAG.buildTime),
    installedSize: number(TAG.installedSize),
    archiveSize:
      number(SIG_LONG_ARCHIVE_SIZE, signature.tags) ||
      number(SIG_PAYLOAD_SIZE, signature.tags) ||
      number(TAG.archiveSize),
    headerStart: header.start,
    headerEnd: header.end,
    provides: dependencies(t, TAG.provideName, TAG.provideFlags, TAG.provideVersion),
    requires: dependencies(t, TAG.requireName, TAG.requireFlags, TAG.requireVersion),
    conflicts: dependencies(t, TAG.conflictName, TAG.conflictFlags, TAG.conflictVersion),
    obsoletes: dependencies(t, TAG.obsoleteName, TAG.obsoleteFlags, TAG.obsoleteVersion),
    files,
    signed: [267, 268, 1002, 1005].some((tag) => signature.tags.has(tag)),
  };
}

/** The file name rpmbuild gives a package: `{name}-{version}-{release}.{arch}.rpm`. */
export const rpmFileName = (facts: RpmFacts) => `${facts.name}-${facts.version}-${facts.release}.${facts.arch}.rpm`;

/** The magic and reserved bytes that open a header in a package file; rpm's database keeps headers without them. */
const HEADER_INTRO = Buffer.from([0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0]);

/** What an installed package's header, as rpm's database keeps it, says of the package. */
export function installedHeader(blob: Buffer): {
  name: string;
  epoch: number;
  version: string;
  release: string;
  sourceRpm: string;
} {
  const { tags } = readHeader(Buffer.concat([HEADER_INTRO, blob]), 0);
  const text = (tag: number) => {
    const value = tags.get(tag);
    return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
  };
  const epoch = tags.get(TAG.epoch);
  return {
    name: text(TAG.name),
    epoch: Array.isArray(epoch) && typeof epoch[0] === 'number' ? epoch[0] : 0,
    version: text(TAG.version),
    release: text(TAG.release),
    sourceRpm: text(TAG.sourceRpm),
  };
}
