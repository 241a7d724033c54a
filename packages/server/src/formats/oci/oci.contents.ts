import { posix } from 'node:path';
import type { ItemRow } from '../../db/schema.js';
import { readTar, type RepoContent } from '../../features/artifacts/index.js';
import type { InstalledDatabase, InstalledPackages } from '../format.js';
import { blobPath, isIndexType, manifestPath, parseManifest, type ParsedManifest } from './oci.layout.js';

const TAG_MANIFEST = /^(.+)\/([^./][^/]*)\/manifest\.json$/;

/** The release files and Alpine's package database a layer may hold, as tar entry names (no leading `./` or `/`). */
const OS_RELEASE = ['etc/os-release', 'usr/lib/os-release'];
const APK_INSTALLED = 'lib/apk/db/installed';

/** An npm package's manifest in a `node_modules` folder (scoped or not), and a Python distribution's metadata. */
const NPM_MANIFEST = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/@.][^/]*\/package\.json$/;
const PYTHON_METADATA = /(?:^|\/)(?:site|dist)-packages\/[^/]+\.dist-info\/METADATA$/;

/** Whether a file is one of a database's (`paths`: files, or folders ending in `/`). */
const inDatabase = (database: InstalledDatabase, name: string) =>
  database.paths.some((path) => (path.endsWith('/') ? name.startsWith(path) : name === path));

/** The files of a layer that say what an image installs: read, the others skipped. */
const wantedBy = (databases: readonly InstalledDatabase[]) => (name: string) =>
  OS_RELEASE.includes(name) ||
  name === APK_INSTALLED ||
  NPM_MANIFEST.test(name) ||
  PYTHON_METADATA.test(name) ||
  databases.some((database) => inDatabase(database, name));

/** The npm and PyPI packages an image's files hold, each once (by name and version), with where one was found. */
function languagePackages(files: Map<string, Buffer>): NonNullable<InstalledPackages['languages']> {
  const found = { npm: new Map<string, { name: string; version: string; path: string }>(), PyPI: new Map() };
  for (const [path, data] of files) {
    let name: unknown;
    let version: unknown;
    let ecosystem: 'npm' | 'PyPI';
    if (NPM_MANIFEST.test(path)) {
      ecosystem = 'npm';
      try {
        ({ name, version } = JSON.parse(data.toString('utf8')) as { name?: unknown; version?: unknown });
      } catch {
        continue;
      }
    } else if (PYTHON_METADATA.test(path)) {
      ecosystem = 'PyPI';
      const text = data.toString('utf8');
      name = /^Name:\s*(\S+)/m.exec(text)?.[1];
      version = /^Version:\s*(\S+)/m.exec(text)?.[1];
    } else continue;
    if (typeof name !== 'string' || typeof version !== 'string' || !name || !version) continue;
    const key = `${name}@${version}`;
    if (!found[ecosystem].has(key)) found[ecosystem].set(key, { name, version, path: `/${path}` });
  }
  return (['npm', 'PyPI'] as const)
    .map((ecosystem) => ({ ecosystem, packages: [...found[ecosystem].values()] }))
    .filter((group) => group.packages.length);
}

/** Layers above this size are not read (a layer is streamed; this bounds the time one scan takes). */
const MAX_LAYER_BYTES = 4 * 1024 * 1024 * 1024;

/** `KEY=value` lines of os-release, quotes removed. */
function osRelease(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) fields[match[1]!] = match[2]!.replace(/^["']|["']$/g, '');
  }
  return fields;
}

/**
 * Stanzas of apk's installed database: each package's name (`P:`), version (`V:`) and origin
 * (`o:`, the source package its advisories name; the package itself when absent).
 */
function apkPackages(text: string): InstalledPackages['packages'] {
  const installed: InstalledPackages['packages'] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of block.split('\n'))
      if (line[1] === ':' && !fields.has(line[0]!)) fields.set(line[0]!, line.slice(2));
    const binary = fields.get('P');
    const version = fields.get('V');
    if (binary && version) installed.push({ name: fields.get('o') || binary, binary, version });
  }
  return installed;
}

/** The release an Alpine image's advisories name: `v3.20` of `VERSION_ID=3.20.3` (`edge` for a development snapshot). */
function alpineRelease(versionId: string): string | undefined {
  const match = /^(\d+)\.(\d+)/.exec(versionId);
  if (match) return /_alpha/.test(versionId) ? 'edge' : `v${match[1]}.${match[2]}`;
  return undefined;
}

/** The image manifest of a tag: itself, or an index's linux/amd64 image (else its first). */
async function imageManifest(content: RepoContent, file: ItemRow, image: string): Promise<ParsedManifest | undefined> {
  const manifest = parseManifest(await content.read(file), undefined);
  if (!isIndexType(manifest.mediaType)) return manifest;
  const chosen =
    manifest.manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64') ??
    manifest.manifests[0];
  const child =
    chosen && (await content.stored(file.repo_key, manifestPath(image, chosen.digest)).catch(() => undefined));
  return child ? parseManifest(await content.read(child), undefined) : undefined;
}

/**
 * What a tagged image installs, read off its layers in order as a container would see the
 * file system (a later layer's file replaces an earlier one's, a whiteout removes it): the
 * distribution from os-release, its installed packages from the package database it keeps (the
 * formats' — dpkg's, rpm's — or Alpine's apk), and the npm and Python packages its files hold
 * (`node_modules`, `site-packages`). Undefined for a path that is no tag's manifest; an image whose
 * packages are not read (no database, or one that cannot be) says why.
 */
export async function imageContents(
  file: ItemRow,
  content: RepoContent,
  databases: readonly InstalledDatabase[],
): Promise<InstalledPackages | undefined> {
  const match = TAG_MANIFEST.exec(file.path);
  if (!match) return undefined;
  const image = match[1]!;
  const manifest = await imageManifest(content, file, image);
  if (!manifest) return { ecosystem: '', packages: [], unsupported: 'The image manifest of the index is not stored.' };
  const files = new Map<string, Buffer>();
  for (const layer of manifest.layers) {
    const compressed = /gzip/.test(layer.mediaType);
    if (!compressed && !/tar$/.test(layer.mediaType))
      return { ecosystem: '', packages: [], unsupported: `Layers of type ${layer.mediaType} are not read.` };
    const blob = await content.stored(file.repo_key, blobPath(image, layer.digest)).catch(() => undefined);
    if (!blob) return { ecosystem: '', packages: [], unsupported: `The layer ${layer.digest} is not stored.` };
    if (Number(blob.size) > MAX_LAYER_BYTES)
      return { ecosystem: '', packages: [], unsupported: `The layer ${layer.digest} is larger than 4 GiB.` };
    const tar = await readTar(content.open(blob), wantedBy(databases), {
      gzip: compressed,
      maxEntries: 1_000_000,
      maxBytes: 16 * MAX_LAYER_BYTES,
    });
    for (const entry of tar.entries) {
      const name = entry.name.replace(/^\/+/, '');
      const base = posix.basename(name);
      if (base === '.wh..wh..opq') {
        const dir = `${posix.dirname(name)}/`;
        for (const held of [...files.keys()]) if (held.startsWith(dir)) files.delete(held);
      } else if (base.startsWith('.wh.')) {
        const removed = posix.join(posix.dirname(name), base.slice(4));
        for (const held of [...files.keys()])
          if (held === removed || held.startsWith(`${removed}/`)) files.delete(held);
      }
    }
    for (const [name, data] of tar.files) files.set(name.replace(/^\/+/, ''), data);
  }
  const release = osRelease((files.get(OS_RELEASE[0]!) ?? files.get(OS_RELEASE[1]!))?.toString('utf8') ?? '');
  const id = release.ID ?? '';
  const languages = languagePackages(files);
  const withLanguages = (contents: InstalledPackages): InstalledPackages =>
    languages.length ? { ...contents, languages } : contents;
  const apk = files.get(APK_INSTALLED);
  // how its packages' URLs name the distribution: os-release's id and release
  const purl = (type: string) =>
    id ? { purl: { type, namespace: id, distro: release.VERSION_ID ? `${id}-${release.VERSION_ID}` : id } } : {};
  if (apk || id === 'alpine') {
    const alpine = alpineRelease(release.VERSION_ID ?? '');
    return withLanguages({
      ecosystem: alpine ? `Alpine:${alpine}` : 'Alpine',
      packages: apk ? apkPackages(apk.toString('utf8')) : [],
      ...purl('apk'),
      ...(apk ? {} : { unsupported: 'The image holds no apk database (lib/apk/db/installed).' }),
    });
  }
  // the database of a format's packages (dpkg's, rpm's): the first one the image holds
  for (const database of databases) {
    const held = [...files].filter(([name]) => inDatabase(database, name)).map(([, data]) => data);
    if (!held.length) continue;
    const ecosystem = database.ecosystem(release);
    try {
      return withLanguages({ ecosystem, packages: database.read(held), ...purl(database.purlType) });
    } catch (error) {
      return withLanguages({
        ecosystem,
        packages: [],
        unsupported: `The image's ${database.name} database could not be read: ${(error as Error).message}.`,
      });
    }
  }
  return withLanguages({
    ecosystem: '',
    packages: [],
    unsupported: `The image holds no package database that is read (${[...databases.map((d) => d.name), 'apk'].join(', ')}).`,
  });
}
