import { DEBIAN_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { decompress, readTar } from '../../features/artifacts/index.js';

/**
 * Debian's binary packages and archive indexes (the Debian Repository Format): a `.deb` (an ar
 * archive of `debian-binary`, `control.tar.*` and `data.tar.*`), its control stanza, `Packages`
 * and `Release`.
 */

/** A control stanza: fields in their order, values as written (continuation lines kept). */
export type Stanza = [field: string, value: string][];

export const field = (stanza: Stanza, name: string) =>
  stanza.find(([f]) => f.toLowerCase() === name.toLowerCase())?.[1];

/** Stanzas of a control file, `Packages` or `Release` (blank lines between them). */
export function parseStanzas(text: string): Stanza[] {
  const stanzas: Stanza[] = [];
  let current: Stanza = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (!line.trim()) {
      if (current.length) stanzas.push(current);
      current = [];
      continue;
    }
    if (/^[ \t]/.test(line) && current.length) {
      current[current.length - 1]![1] += `\n${line}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  if (current.length) stanzas.push(current);
  return stanzas;
}

export const renderStanza = (stanza: Stanza) => stanza.map(([f, v]) => `${f}: ${v}`).join('\n');
export const renderStanzas = (stanzas: Stanza[]) => stanzas.map((s) => `${renderStanza(s)}\n`).join('\n');

/** The members of an ar archive (the `!<arch>` format dpkg writes), by name. */
function arMembers(archive: Buffer): Map<string, Buffer> {
  if (archive.subarray(0, 8).toString('latin1') !== '!<arch>\n') throw new Error('not an ar archive');
  const members = new Map<string, Buffer>();
  let offset = 8;
  while (offset + 60 <= archive.length) {
    const header = archive.subarray(offset, offset + 60).toString('latin1');
    if (header.slice(58, 60) !== '`\n') throw new Error('a broken ar member header');
    const name = header.slice(0, 16).trim().replace(/\/$/, '');
    const size = Number(header.slice(48, 58).trim());
    if (!Number.isInteger(size) || offset + 60 + size > archive.length)
      throw new Error(`member '${name}' is cut short`);
    members.set(name, archive.subarray(offset + 60, offset + 60 + size));
    offset += 60 + size + (size % 2);
  }
  return members;
}

/** What a `.deb` says of itself: its control stanza. */
export interface DebFacts {
  control: Stanza;
  name: string;
  version: string;
  architecture: string;
}

/** How large a package's control archive may be once inflated (real ones are kilobytes). */
const DEB_CONTROL_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a `.deb` through: an ar archive whose `debian-binary` is 2.x and whose control archive
 * (gzip, xz or plain tar) holds a control file naming Package, Version and Architecture.
 */
export async function inspectDeb(deb: Buffer, path: string): Promise<DebFacts> {
  const fault = (reason: string) => badRequest(fill(DEBIAN_MESSAGES.badPackage, { path, reason }));
  let members: Map<string, Buffer>;
  try {
    members = arMembers(deb);
  } catch (error) {
    throw fault((error as Error).message);
  }
  if (!members.get('debian-binary')?.toString('latin1').startsWith('2.')) throw fault('it has no debian-binary 2.x');
  const controlName = [...members.keys()].find((n) => n.startsWith('control.tar'));
  if (!controlName) throw fault('it has no control archive');
  if (controlName.endsWith('.zst'))
    throw fault('its control archive is compressed with zstd, which Arca does not read');
  let control: Buffer | undefined;
  try {
    // a control archive holds a few small files: one that inflates further is no package
    const tar = await decompress(controlName, members.get(controlName)!, DEB_CONTROL_MAX_BYTES);
    const contents = await readTar(tar, (n) => n === 'control' || n === './control', { gzip: false });
    control = contents.files.get('control') ?? contents.files.get('./control');
  } catch (error) {
    throw fault(`its control archive cannot be read (${(error as Error).message})`);
  }
  if (!control) throw fault('its control archive holds no control file');
  const stanza = parseStanzas(control.toString('utf8'))[0] ?? [];
  const name = field(stanza, 'Package');
  const version = field(stanza, 'Version');
  const architecture = field(stanza, 'Architecture');
  if (!name || !version || !architecture) throw fault('its control file lacks Package, Version or Architecture');
  return { control: stanza, name, version, architecture };
}

/** The file name Debian gives a package: `{name}_{version without epoch}_{architecture}.deb`. */
export const debFileName = (facts: DebFacts) =>
  `${facts.name}_${facts.version.replace(/^\d+:/, '')}_${facts.architecture}.deb`;

/** A `Packages` stanza: the control fields, where the file is and its digests (before the description, as dpkg-scanpackages writes). */
export function packagesStanza(
  control: Stanza,
  path: string,
  size: number,
  digests: { md5: string; sha1: string; sha256: string },
): Stanza {
  const own: Stanza = [
    ['Filename', path],
    ['Size', String(size)],
    ['MD5sum', digests.md5],
    ['SHA1', digests.sha1],
    ['SHA256', digests.sha256],
  ];
  const fields = control.filter(([f]) => !['filename', 'size', 'md5sum', 'sha1', 'sha256'].includes(f.toLowerCase()));
  const description = fields.findIndex(([f]) => f.toLowerCase() === 'description');
  return description < 0
    ? [...fields, ...own]
    : [...fields.slice(0, description), ...own, ...fields.slice(description)];
}

/** A file a Release lists, with its size and digests. */
export interface ReleaseFile {
  path: string;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/** A distribution's Release file (the Debian Repository Format's fields, files and their digests). */
export function renderRelease(options: {
  label: string;
  suite: string;
  components: string[];
  architectures: string[];
  files: ReleaseFile[];
  date: Date;
}): string {
  const list = (digest: 'md5' | 'sha1' | 'sha256') =>
    options.files.map((f) => ` ${f[digest]} ${String(f.size).padStart(16)} ${f.path}`).join('\n');
  const stanza: Stanza = [
    ['Origin', 'Arca'],
    ['Label', options.label],
    ['Suite', options.suite],
    ['Codename', options.suite],
    ['Date', options.date.toUTCString().replace('GMT', 'UTC')],
    ['Architectures', options.architectures.join(' ')],
    ['Components', options.components.join(' ')],
    ['Description', `${options.label} ${options.suite}`],
    ['MD5Sum', `\n${list('md5')}`],
    ['SHA1', `\n${list('sha1')}`],
    ['SHA256', `\n${list('sha256')}`],
  ];
  return `${stanza.map(([f, v]) => `${f}:${v.startsWith('\n') ? v : ` ${v}`}`).join('\n')}\n`;
}
