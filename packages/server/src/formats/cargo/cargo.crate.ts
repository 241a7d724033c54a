import { createHash } from 'node:crypto';
import semver from 'semver';
import { parse as parseToml } from 'smol-toml';
import { CARGO_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { readTar } from '../../features/artifacts/index.js';

/**
 * Crates as Cargo's registry documentation describes them: index paths, index entries, the
 * publish request's framing, and what a `.crate` (a gzipped tar of `{name}-{version}/`) holds.
 */

/** A dependency as the index lists it. */
export interface IndexDependency {
  name: string;
  req: string;
  features: string[];
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: 'normal' | 'dev' | 'build';
  registry?: string | null;
  package?: string;
}

/** One line of a crate's index file: one version. */
export interface IndexEntry {
  name: string;
  vers: string;
  deps: IndexDependency[];
  cksum: string;
  features: Record<string, string[]>;
  features2?: Record<string, string[]>;
  yanked: boolean;
  links: string | null;
  v?: number;
  rust_version?: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function checkCrateName(name: string): void {
  if (!NAME.test(name)) throw badRequest(fill(CARGO_MESSAGES.badName, { name }));
}

export function checkCrateVersion(version: string): void {
  if (!semver.valid(version) || semver.clean(version) !== version.replace(/\+.*$/, '').trim())
    throw badRequest(fill(CARGO_MESSAGES.badVersion, { version }));
}

/** Two names crates.io would take for one: letter case, '-' and '_' do not tell them apart. */
export const canonicalName = (name: string) => name.toLowerCase().replace(/_/g, '-');

/** Two versions that differ by build metadata only are one version. */
export const sameVersion = (a: string, b: string) => a.replace(/\+.*$/, '') === b.replace(/\+.*$/, '');

/** The index file of a crate under the index root: `1/a`, `2/ab`, `3/a/abc`, `se/rd/serde`. */
export function indexFilePath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

/** Where a repository keeps a crate's index file, and its `.crate` files. */
export const storedIndexPath = (name: string) => `index/${indexFilePath(name)}`;
export const cratePath = (name: string, version: string) => `crates/${name}/${name}-${version}.crate`;

/** The crate and version of a stored `.crate` path; undefined for anything else. */
export function parseCratePath(path: string): { name: string; version: string } | undefined {
  const match = /^crates\/([^/]+)\/([^/]+)\.crate$/.exec(path);
  if (!match || !match[2]!.startsWith(`${match[1]}-`)) return undefined;
  const version = match[2]!.slice(match[1]!.length + 1);
  return semver.valid(version) ? { name: match[1]!, version } : undefined;
}

/** The lines of an index file, the unreadable ones left out. */
export function parseIndexFile(text: string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as IndexEntry;
      if (typeof entry.name === 'string' && typeof entry.vers === 'string') entries.push(entry);
    } catch {
      // a line no client could read either
    }
  }
  return entries;
}

export const renderIndexFile = (entries: IndexEntry[]) => entries.map((e) => `${JSON.stringify(e)}\n`).join('');

/** Features in Cargo's newer syntax (`dep:x`, `x?/y`) go to `features2`, which clients read with `v: 2`. */
function splitFeatures(features: Record<string, string[]>) {
  const plain: Record<string, string[]> = {};
  const newer: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(features)) {
    (values.some((v) => v.startsWith('dep:') || v.includes('?/')) ? newer : plain)[name] = values;
  }
  return Object.keys(newer).length ? { features: plain, features2: newer, v: 2 } : { features: plain };
}

/** What cargo sends in a publish request's JSON (the registry web API's `PUT /api/v1/crates/new`). */
export interface PublishMetadata {
  name: string;
  vers: string;
  deps?: {
    name: string;
    version_req: string;
    features?: string[];
    optional?: boolean;
    default_features?: boolean;
    target?: string | null;
    kind?: 'normal' | 'dev' | 'build';
    registry?: string | null;
    explicit_name_in_toml?: string | null;
  }[];
  features?: Record<string, string[]>;
  authors?: string[];
  description?: string | null;
  documentation?: string | null;
  homepage?: string | null;
  readme?: string | null;
  readme_file?: string | null;
  keywords?: string[];
  categories?: string[];
  license?: string | null;
  license_file?: string | null;
  repository?: string | null;
  links?: string | null;
  rust_version?: string | null;
}

/** A publish request's two parts: 32-bit little-endian lengths before the JSON and before the crate. */
export function parsePublishBody(body: Buffer): { metadata: PublishMetadata; crate: Buffer } {
  const fault = (reason: string) => badRequest(fill(CARGO_MESSAGES.badPublish, { reason }));
  if (body.length < 4) throw fault('it is shorter than its framing');
  const jsonLength = body.readUInt32LE(0);
  if (4 + jsonLength + 4 > body.length) throw fault('the metadata length runs past the end');
  let metadata: PublishMetadata;
  try {
    metadata = JSON.parse(body.subarray(4, 4 + jsonLength).toString('utf8')) as PublishMetadata;
  } catch {
    throw fault('the metadata is not JSON');
  }
  if (!metadata || typeof metadata.name !== 'string' || typeof metadata.vers !== 'string')
    throw fault('the metadata names no crate and version');
  const crateLength = body.readUInt32LE(4 + jsonLength);
  const start = 8 + jsonLength;
  if (start + crateLength !== body.length) throw fault('the crate length does not match the bytes sent');
  return { metadata, crate: body.subarray(start) };
}

/** The index entry of a version from what cargo sent when publishing it. */
export function entryFromPublish(metadata: PublishMetadata, crate: Buffer): IndexEntry {
  const deps: IndexDependency[] = (metadata.deps ?? []).map((d) => ({
    // a dependency renamed in Cargo.toml is listed under its new name, the crate in `package`
    name: d.explicit_name_in_toml ?? d.name,
    req: d.version_req,
    features: d.features ?? [],
    optional: d.optional ?? false,
    default_features: d.default_features ?? true,
    target: d.target ?? null,
    kind: d.kind ?? 'normal',
    ...(d.registry ? { registry: d.registry } : {}),
    ...(d.explicit_name_in_toml ? { package: d.name } : {}),
  }));
  return {
    name: metadata.name,
    vers: metadata.vers,
    deps,
    cksum: createHash('sha256').update(crate).digest('hex'),
    ...splitFeatures(metadata.features ?? {}),
    yanked: false,
    links: metadata.links ?? null,
    ...(metadata.rust_version ? { rust_version: metadata.rust_version } : {}),
  };
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => !!value && typeof value === 'object' && !Array.isArray(value);

/** The dependencies of a Cargo.toml's tables, as the index lists them. */
function dependenciesOf(toml: Table): IndexDependency[] {
  const deps: IndexDependency[] = [];
  const collect = (tables: Table, target: string | null) => {
    for (const [key, kind] of [
      ['dependencies', 'normal'],
      ['dev-dependencies', 'dev'],
      ['build-dependencies', 'build'],
    ] as const) {
      const table = tables[key];
      if (!isTable(table)) continue;
      for (const [name, spec] of Object.entries(table)) {
        const detail: Table = typeof spec === 'string' ? { version: spec } : isTable(spec) ? spec : {};
        const crate = typeof detail.package === 'string' ? detail.package : undefined;
        deps.push({
          name,
          req: typeof detail.version === 'string' ? detail.version : '*',
          features: Array.isArray(detail.features) ? detail.features.map(String) : [],
          optional: detail.optional === true,
          default_features: detail['default-features'] !== false && detail.default_features !== false,
          target,
          kind,
          ...(typeof detail['registry-index'] === 'string' ? { registry: detail['registry-index'] } : {}),
          ...(crate ? { package: crate } : {}),
        });
      }
    }
  };
  collect(toml, null);
  if (isTable(toml.target))
    for (const [target, tables] of Object.entries(toml.target)) if (isTable(tables)) collect(tables, target);
  return deps;
}

/** What a checked crate holds for the registry: its manifest's facts and its readme. */
export interface CrateFacts {
  name: string;
  version: string;
  description?: string;
  license?: string;
  keywords: string[];
  readme?: string;
  /** The index entry a crate deployed without cargo's metadata gets, read off its Cargo.toml. */
  entry: IndexEntry;
}

/**
 * Reads a `.crate` through: a gzipped tar whose every entry is under `{name}-{version}/` with a
 * Cargo.toml there naming that package and version. Throws the client's message otherwise.
 */
export async function inspectCrate(crate: Buffer, name: string, version: string): Promise<CrateFacts> {
  const fault = (reason: string) => badRequest(fill(CARGO_MESSAGES.badCrate, { name, version, reason }));
  const prefix = `${name}-${version}/`;
  let contents;
  try {
    contents = await readTar(
      crate,
      (entry) => entry === `${prefix}Cargo.toml` || /^[^/]+\/readme(\.md)?$/i.test(entry),
    );
  } catch (error) {
    throw fault(`not a readable gzipped tar archive (${(error as Error).message})`);
  }
  const outside = contents.entries.find((e) => !e.name.startsWith(prefix) || e.name.split('/').includes('..'));
  if (outside) throw fault(`'${outside.name}' is not under '${prefix}'`);
  const manifest = contents.files.get(`${prefix}Cargo.toml`);
  if (!manifest) throw fault(`it holds no ${prefix}Cargo.toml`);
  let toml: Table;
  try {
    toml = parseToml(manifest.toString('utf8')) as Table;
  } catch (error) {
    throw fault(`its Cargo.toml cannot be read (${(error as Error).message.split('\n')[0]})`);
  }
  const pkg = isTable(toml.package) ? toml.package : {};
  const found = `${String(pkg.name)}@${String(pkg.version)}`;
  if (pkg.name !== name || typeof pkg.version !== 'string' || !sameVersion(pkg.version, version))
    throw badRequest(fill(CARGO_MESSAGES.tomlMismatch, { name, version, found }));
  const readmeName = typeof pkg.readme === 'string' ? `${prefix}${pkg.readme}` : undefined;
  const readme =
    (readmeName && contents.files.get(readmeName)) ??
    [...contents.files.entries()].find(([entry]) => entry !== `${prefix}Cargo.toml`)?.[1];
  const features = isTable(toml.features)
    ? Object.fromEntries(Object.entries(toml.features).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : []]))
    : {};
  const entry: IndexEntry = {
    name,
    vers: version,
    deps: dependenciesOf(toml),
    cksum: createHash('sha256').update(crate).digest('hex'),
    ...splitFeatures(features),
    yanked: false,
    links: typeof pkg.links === 'string' ? pkg.links : null,
    ...(typeof pkg['rust-version'] === 'string' ? { rust_version: pkg['rust-version'] } : {}),
  };
  return {
    name,
    version,
    ...(typeof pkg.description === 'string' ? { description: pkg.description } : {}),
    ...(typeof pkg.license === 'string' ? { license: pkg.license } : {}),
    keywords: Array.isArray(pkg.keywords) ? pkg.keywords.map(String) : [],
    ...(readme ? { readme: readme.toString('utf8') } : {}),
    entry,
  };
}
