import semver from 'semver';
import {
  GO_MAX_MOD_BYTES,
  GO_MAX_README_BYTES,
  GO_MAX_ZIP_BYTES,
  GO_MESSAGES,
  formatMessage as fill,
} from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { readZip } from '../../core/zip.js';

/**
 * The rules of Go modules as golang.org/x/mod states them: module paths and their case-encoding,
 * canonical versions and major-version suffixes, module zip files, go.mod's directives.
 */

/** A file of the module proxy protocol under a repository: `{module}/@v/{version}.{ext}`, the list, `@latest`. */
export type ProxyPath =
  | { kind: 'file'; module: string; version: string; ext: 'zip' | 'mod' | 'info' }
  | { kind: 'list'; module: string }
  | { kind: 'latest'; module: string };

/** `example.com/Acme` → `example.com/!acme`: how a module path travels in URLs and file names. */
export function escapePath(module: string): string {
  return module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** The reverse of `escapePath`; undefined for what no path escapes to (an upper-case letter, a '!' before no letter). */
export function unescapePath(escaped: string): string | undefined {
  if (/[A-Z]/.test(escaped)) return undefined;
  let bad = false;
  const plain = escaped.replace(/!(.?)/g, (_all, next: string) => {
    if (!/^[a-z]$/.test(next)) bad = true;
    return next.toUpperCase();
  });
  return bad ? undefined : plain;
}

const ELEMENT_CHARS = /^[A-Za-z0-9\-._~]+$/;
/** Windows' reserved file names, refused as path elements in any case. */
const RESERVED = /^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?$/i;

/** Why a module path is invalid (module.CheckPath), or undefined when it is valid. */
export function modulePathProblem(module: string): string | undefined {
  if (!module) return 'it is empty';
  if (module.startsWith('/') || module.endsWith('/')) return "it starts or ends with '/'";
  const elements = module.split('/');
  const first = elements[0]!;
  if (!first.includes('.')) return `its first element '${first}' has no dot (a host name is expected)`;
  if (!/^[a-z0-9.-]+$/.test(first))
    return `its first element '${first}' may hold only lower-case letters, digits, '.' and '-'`;
  if (first.startsWith('-')) return `its first element '${first}' starts with '-'`;
  for (const element of elements) {
    if (!element) return 'it has an empty element';
    if (!ELEMENT_CHARS.test(element)) return `'${element}' holds a character other than letters, digits and '-._~'`;
    if (element.startsWith('.') || element.endsWith('.')) return `'${element}' starts or ends with '.'`;
    if (RESERVED.test(element)) return `'${element}' is a reserved file name`;
  }
  return undefined;
}

const CANONICAL = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+incompatible)?$/;

/** A canonical version (v1.2.3, v1.2.3-pre.1, v2.0.0+incompatible), as module.CanonicalVersion leaves it. */
export function isCanonicalVersion(version: string): boolean {
  return CANONICAL.test(version) && semver.valid(version.slice(1)) !== null;
}

/** Orders versions as Go does (semantic versions; `+incompatible` does not count). */
export function compareVersions(a: string, b: string): number {
  return semver.compare(a.slice(1), b.slice(1));
}

/** Why `version` cannot be a version of `module` (module.Check's major-version suffix rule), or undefined. */
export function majorProblem(module: string, version: string): string | undefined {
  const major = Number(/^v(\d+)/.exec(version)?.[1]);
  const incompatible = version.endsWith('+incompatible');
  const gopkg = /^gopkg\.in\/.*\.v(\d+)(?:-unstable)?$/.exec(module);
  const suffix = gopkg ? Number(gopkg[1]) : Number(/\/v(\d+)$/.exec(module)?.[1] ?? NaN);
  if (gopkg) {
    return major === suffix || (suffix === 0 && major <= 1) ? undefined : `gopkg.in paths name their major version`;
  }
  if (!Number.isNaN(suffix)) {
    if (incompatible) return `'+incompatible' is for modules without a major version suffix`;
    if (suffix < 2) return `'/v${suffix}' is no major version suffix`;
    return major === suffix ? undefined : `a module ending in '/v${suffix}' has versions v${suffix}.x.y`;
  }
  if (major >= 2 && !incompatible)
    return `versions v2 and above need the suffix '/v${major}' on the module path (or '+incompatible')`;
  if (major < 2 && incompatible) return `'+incompatible' is only for versions v2 and above`;
  return undefined;
}

/** A checked module and version; throws the message a client reads otherwise. */
export function checkModuleVersion(module: string, version: string): void {
  const pathProblem = modulePathProblem(module);
  if (pathProblem) throw badRequest(fill(GO_MESSAGES.badModulePath, { module, reason: pathProblem }));
  if (!isCanonicalVersion(version)) throw badRequest(fill(GO_MESSAGES.badVersion, { version }));
  const major = majorProblem(module, version);
  if (major) throw badRequest(fill(GO_MESSAGES.majorMismatch, { module, version, reason: major }));
}

/**
 * A path under a Go repository as the proxy protocol names it (module path escaped); undefined
 * for anything else. The module path and version are unescaped; they are not checked here.
 */
export function parseProxyPath(path: string): ProxyPath | undefined {
  const latest = /^(.+)\/@latest$/.exec(path);
  if (latest) {
    const module = unescapePath(latest[1]!);
    return module ? { kind: 'latest', module } : undefined;
  }
  const match = /^(.+)\/@v\/(list|(.+)\.(zip|mod|info))$/.exec(path);
  if (!match) return undefined;
  const module = unescapePath(match[1]!);
  if (!module) return undefined;
  if (match[2] === 'list') return { kind: 'list', module };
  const version = unescapePath(match[3]!);
  if (!version) return undefined;
  return { kind: 'file', module, version, ext: match[4] as 'zip' | 'mod' | 'info' };
}

/** Where a version's file is stored: the proxy's own path, module and version escaped. */
export const versionFilePath = (module: string, version: string, ext: 'zip' | 'mod' | 'info') =>
  `${escapePath(module)}/@v/${escapePath(version)}.${ext}`;
export const listPath = (module: string) => `${escapePath(module)}/@v/list`;

/** A go.mod's `module` directive and its requirements (module → version), the excluded and replaced left aside. */
export interface GoMod {
  module: string | undefined;
  go: string | undefined;
  require: Record<string, string>;
}

/** Reads go.mod's directives: `module`, `go`, and `require` lines and blocks. */
export function parseGoMod(text: string): GoMod {
  const result: GoMod = { module: undefined, go: undefined, require: {} };
  let block: string | undefined;
  const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1').replace(/^`(.*)`$/, '$1');
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (block) {
      if (line === ')') {
        block = undefined;
        continue;
      }
      if (block === 'require') {
        const [name, version] = line.split(/\s+/);
        if (name && version) result.require[unquote(name)] = version;
      }
      continue;
    }
    const [verb, ...rest] = line.split(/\s+/);
    if (rest[0] === '(') {
      block = verb;
      continue;
    }
    if (verb === 'module' && rest[0]) result.module = unquote(rest[0]);
    else if (verb === 'go' && rest[0]) result.go = rest[0];
    else if (verb === 'require' && rest[0] && rest[1]) result.require[unquote(rest[0])] = rest[1];
  }
  return result;
}

/** The go.mod answered for a version whose zip holds none: what the go command makes of it. */
export const syntheticGoMod = (module: string) => `module ${module}\n`;

/** What a checked module zip holds for the proxy: its go.mod (when present) and readme. */
export interface ModuleZip {
  goMod: Buffer | undefined;
  readme: Buffer | undefined;
  files: number;
}

const FILE_CHARS = /^[\p{L}0-9 !#$%&()+,\-.=@[\]^_{}~]+$/u;

/** Why a file path inside a module is invalid (module.CheckFilePath), or undefined. */
function filePathProblem(name: string): string | undefined {
  if (!name || name.startsWith('/') || name.includes('\\')) return 'an absolute or empty path';
  for (const element of name.split('/')) {
    if (!element || element === '.' || element === '..') return `'${name}' is not a clean path`;
    if (!FILE_CHARS.test(element)) return `'${name}' holds a character Go does not allow in file names`;
    if (RESERVED.test(element)) return `'${name}' uses a reserved file name`;
    if (element.endsWith('.') || element.endsWith(' ')) return `'${name}' has an element ending in '.' or ' '`;
  }
  return undefined;
}

const README = /^readme(\.(md|markdown|txt))?$/i;

/**
 * Checks a module zip against Go's rules (golang.org/x/mod/zip): every file under
 * `{module}@{version}/`, clean portable names, no two equal under case folding, go.mod only at the
 * top, the size limits, sizes as declared. Throws the client's message for the first fault.
 */
export async function checkModuleZip(body: Buffer, module: string, version: string): Promise<ModuleZip> {
  const fault = (reason: string) => badRequest(fill(GO_MESSAGES.badZip, { module, version, reason }));
  if (body.length > GO_MAX_ZIP_BYTES) throw fault('it is larger than 500 MiB');
  const prefix = `${module}@${version}/`;
  const seen = new Set<string>();
  let total = 0;
  const found: ModuleZip = { goMod: undefined, readme: undefined, files: 0 };
  try {
    await readZip(
      body,
      // a readme over the limit is refused below, from its declared size: it is not read first
      (name, entry) =>
        name === `${prefix}go.mod` ||
        (README.test(name.slice(prefix.length)) && entry.uncompressedSize <= GO_MAX_README_BYTES),
      (entry, bytes) => {
        const name = entry.fileName;
        if (!name.startsWith(prefix)) throw fault(`'${name}' is not under '${prefix}'`);
        const inner = name.slice(prefix.length);
        if (!inner) return;
        const isDir = inner.endsWith('/');
        const problem = filePathProblem(isDir ? inner.slice(0, -1) : inner);
        if (problem) throw fault(problem);
        if (isDir) return;
        const folded = inner.toLowerCase();
        if (seen.has(folded)) throw fault(`'${inner}' appears twice (letter case aside)`);
        seen.add(folded);
        total += entry.uncompressedSize;
        if (total > GO_MAX_ZIP_BYTES) throw fault('its files hold more than 500 MiB');
        const base = inner.split('/').at(-1)!;
        if (base.toLowerCase() === 'go.mod' && inner !== 'go.mod')
          throw fault(`'${inner}': go.mod belongs at the top only`);
        if ((inner === 'go.mod' || inner === 'LICENSE') && entry.uncompressedSize > GO_MAX_MOD_BYTES)
          throw fault(`${inner} is larger than 16 MiB`);
        if (README.test(inner) && entry.uncompressedSize > GO_MAX_README_BYTES)
          throw fault(`${inner} is larger than 4 MiB`);
        found.files++;
        if (inner === 'go.mod') found.goMod = bytes;
        else if (bytes && !inner.includes('/')) found.readme = bytes;
      },
    );
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw error;
    throw fault(`not a readable zip archive (${(error as Error).message})`);
  }
  return found;
}

/** The go.mod and readme of a stored module zip, read again (the catalogue, a `.mod` derived). */
export async function readModuleZip(body: Buffer, module: string, version: string): Promise<ModuleZip> {
  const prefix = `${module}@${version}/`;
  const found: ModuleZip = { goMod: undefined, readme: undefined, files: 0 };
  await readZip(
    body,
    // a readme over the limit (stored before there was one) is not read, nor shown
    (name, entry) =>
      name === `${prefix}go.mod` ||
      (README.test(name.slice(prefix.length)) && entry.uncompressedSize <= GO_MAX_README_BYTES),
    (entry, bytes) => {
      const inner = entry.fileName.slice(prefix.length);
      if (entry.fileName.endsWith('/')) return;
      found.files++;
      if (inner === 'go.mod') found.goMod = bytes;
      else if (bytes && !inner.includes('/') && !found.readme) found.readme = bytes;
    },
  );
  return found;
}
