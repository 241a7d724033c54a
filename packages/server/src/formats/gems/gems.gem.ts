import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { GEMS_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { gunzipCapped, readTar } from '../../features/artifacts/index.js';
import { RubyHash, RubyObject, RubyUserDefined, RubyUserMarshal, dump, sym, type RubyValue } from './gems.marshal.js';

/**
 * Gems as RubyGems builds them: a tar of `metadata.gz` (the specification in YAML),
 * `data.tar.gz` and `checksums.yaml.gz`; and what the indexes say of one.
 */

/** A requirement: operator and version pairs (`>= 2.0`, `< 3`). */
export type Requirement = [op: string, version: string][];

/** What the registry keeps of a gem version: its specification's fields the indexes need. */
export interface GemEntry {
  name: string;
  version: string;
  platform: string;
  /** Where the gem is stored: `gems/{file}`. */
  file: string;
  sha256: string;
  summary: string;
  description: string;
  authors: string[];
  email: string | string[] | null;
  homepage: string | null;
  licenses: string[];
  metadata: Record<string, string>;
  date: string;
  rubygemsVersion: string;
  specificationVersion: number;
  requiredRuby: Requirement;
  requiredRubygems: Requirement;
  dependencies: { name: string; requirement: Requirement; type: 'runtime' | 'development' }[];
  yanked: boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `{name}-{version}` or `{name}-{version}-{platform}`, as RubyGems names gem files. */
export const gemFileName = (e: { name: string; version: string; platform: string }) =>
  `${e.name}-${e.version}${e.platform && e.platform !== 'ruby' ? `-${e.platform}` : ''}`;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function requirementOf(value: unknown): Requirement {
  const list = isObject(value) && Array.isArray(value.requirements) ? value.requirements : [];
  return list
    .filter((r): r is [unknown, unknown] => Array.isArray(r) && r.length === 2)
    .map(([op, v]) => [String(op), String(isObject(v) ? v.version : v)]);
}

/** How large a gem's specification (metadata.gz, inflated) may be: real ones are a few kilobytes. */
const GEM_METADATA_MAX_BYTES = 4 * 1024 * 1024;

/** Reads a gem through: a tar whose metadata.gz names a gem and a version. Throws the client's message otherwise. */
export async function inspectGem(
  gem: Buffer,
  sha256 = createHash('sha256').update(gem).digest('hex'),
): Promise<GemEntry> {
  const fault = (reason: string) => badRequest(fill(GEMS_MESSAGES.badGem, { reason }));
  let metadata: Buffer | undefined;
  try {
    const contents = await readTar(gem, (name) => name === 'metadata.gz', { gzip: false });
    metadata = contents.files.get('metadata.gz');
    if (!contents.entries.some((e) => e.name === 'data.tar.gz')) throw new Error('it holds no data.tar.gz');
  } catch (error) {
    throw fault(`not a readable gem archive (${(error as Error).message})`);
  }
  if (!metadata) throw fault('it holds no metadata.gz');
  let spec: unknown;
  try {
    spec = parseYaml(gunzipCapped(metadata, GEM_METADATA_MAX_BYTES).toString('utf8'), { logLevel: 'error' });
  } catch (error) {
    throw fault(`its specification cannot be read (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isObject(spec)) throw fault('its specification is not a mapping');
  const name = String(spec.name ?? '');
  const version = String(isObject(spec.version) ? spec.version.version : (spec.version ?? ''));
  if (!NAME.test(name)) throw fault(`its name '${name}' is not a gem name`);
  if (!/^[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z.-]+)?$/.test(version))
    throw fault(`its version '${version}' is not a gem version`);
  const platform = typeof spec.platform === 'string' && spec.platform ? spec.platform : 'ruby';
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
  const date = String(spec.date ?? '');
  return {
    name,
    version,
    platform,
    file: `${gemFileName({ name, version, platform })}.gem`,
    sha256,
    summary: String(spec.summary ?? ''),
    description: typeof spec.description === 'string' ? spec.description : '',
    authors: list(spec.authors),
    email: Array.isArray(spec.email) ? spec.email.map(String) : typeof spec.email === 'string' ? spec.email : null,
    homepage: typeof spec.homepage === 'string' ? spec.homepage : null,
    licenses: list(spec.licenses),
    metadata: isObject(spec.metadata)
      ? Object.fromEntries(Object.entries(spec.metadata).map(([k, v]) => [k, String(v)]))
      : {},
    date: /^\d{4}-\d{2}-\d{2}/.exec(date)?.[0] ?? new Date().toISOString().slice(0, 10),
    rubygemsVersion: String(spec.rubygems_version ?? '3.3.15'),
    specificationVersion: Number(spec.specification_version ?? 4),
    requiredRuby: requirementOf(spec.required_ruby_version),
    requiredRubygems: requirementOf(spec.required_rubygems_version),
    dependencies: (Array.isArray(spec.dependencies) ? spec.dependencies : []).filter(isObject).map((d) => ({
      name: String(d.name),
      requirement: requirementOf(d.requirement ?? d.version_requirements),
      type: String(d.type).replace(/^:/, '') === 'development' ? 'development' : 'runtime',
    })),
    yanked: false,
  };
}

const gemVersion = (v: string) => new RubyUserMarshal('Gem::Version', [v]);
const requirement = (r: Requirement) => {
  const pairs: Requirement = r.length ? r : [['>=', '0']];
  return new RubyUserMarshal('Gem::Requirement', [pairs.map(([op, v]): RubyValue => [op, gemVersion(v)])]);
};

/** `Marshal.dump(spec)` of the gem's Gem::Specification, as `quick/Marshal.4.8/{file}.gemspec.rz` holds it deflated. */
export function marshalSpec(e: GemEntry): Buffer {
  const dependencies = e.dependencies.map(
    (d) =>
      new RubyObject('Gem::Dependency', [
        ['@name', d.name],
        ['@requirement', requirement(d.requirement)],
        ['@type', sym(d.type)],
        ['@prerelease', false],
        ['@version_requirements', requirement(d.requirement)],
      ]),
  );
  const fields: RubyValue[] = [
    e.rubygemsVersion,
    e.specificationVersion,
    e.name,
    gemVersion(e.version),
    e.date,
    e.summary,
    requirement(e.requiredRuby),
    requirement(e.requiredRubygems),
    e.platform,
    dependencies,
    '',
    Array.isArray(e.email) ? e.email : e.email,
    e.authors,
    e.description,
    e.homepage,
    true,
    e.platform,
    e.licenses,
    new RubyHash(Object.entries(e.metadata)),
  ];
  return dump(new RubyUserDefined('Gem::Specification', dump(fields)));
}

/** A specs file (`specs.4.8`): `[name, Gem::Version, platform]` triples. */
export const marshalSpecs = (entries: { name: string; version: string; platform: string }[]) =>
  dump(entries.map((e) => [e.name, gemVersion(e.version), e.platform]));

/** Pre-releases have a letter in their version (RubyGems' rule). */
export const isPrerelease = (version: string) => /[a-zA-Z]/.test(version);

/** A version Gem::Version takes (its ANCHORED_VERSION_PATTERN). */
export const isGemVersion = (version: string) =>
  /^\s*[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?\s*$/.test(version);

/**
 * A gem version's segments as Gem::Version orders them: runs of digits (numbers) and of letters,
 * a `-` standing for `.pre.`; trailing zeros dropped from the release part and from the
 * pre-release part (`1.0.a.0` is `1.a`).
 */
function gemSegments(version: string): (number | string)[] {
  const all = (
    version
      .trim()
      .replace(/-/g, '.pre.')
      .match(/[0-9]+|[a-z]+/gi) ?? []
  ).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const firstString = all.findIndex((s) => typeof s === 'string');
  const parts = firstString < 0 ? [all, []] : [all.slice(0, firstString), all.slice(firstString)];
  return parts.flatMap((part) => {
    let end = part.length;
    while (end > 0 && part[end - 1] === 0) end--;
    return part.slice(0, end);
  });
}

/** Compares gem versions as Gem::Version does: segment by segment, a missing one 0, letters before numbers. */
export function compareGemVersions(a: string, b: string): number {
  const x = gemSegments(a);
  const y = gemSegments(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? 0;
    const q = y[i] ?? 0;
    if (p === q) continue;
    if (typeof p === 'string' && typeof q === 'number') return -1;
    if (typeof p === 'number' && typeof q === 'string') return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** A compact index `info` line: `version[-platform] dep:req&req,…|checksum:…,ruby:…,rubygems:…`. */
export function infoLine(e: GemEntry): string {
  const req = (r: Requirement) => (r.length ? r : [['>=', '0']]).map(([op, v]) => `${op} ${v}`).join('&');
  const deps = e.dependencies.filter((d) => d.type === 'runtime').map((d) => `${d.name}:${req(d.requirement)}`);
  const extra = [`checksum:${e.sha256}`];
  if (e.requiredRuby.length && !(e.requiredRuby.length === 1 && e.requiredRuby[0]![1] === '0'))
    extra.push(`ruby:${req(e.requiredRuby)}`);
  if (e.requiredRubygems.length && !(e.requiredRubygems.length === 1 && e.requiredRubygems[0]![1] === '0'))
    extra.push(`rubygems:${req(e.requiredRubygems)}`);
  const version = e.platform === 'ruby' ? e.version : `${e.version}-${e.platform}`;
  return `${version} ${deps.join(',')}|${extra.join(',')}`;
}
