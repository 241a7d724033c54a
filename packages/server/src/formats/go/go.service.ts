import type { FastifyInstance } from 'fastify';
import { GO_MAX_MOD_BYTES, GO_MAX_ZIP_BYTES, GO_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import {
  changeMetadataFile,
  madeCache,
  readLimited,
  systemContent,
  withBody,
  type DeployRequest,
  type DerivedFile,
  type PlainPaths,
  type RepoContent,
  type Resolved,
} from '../../features/artifacts/index.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import {
  checkModuleVersion,
  checkModuleZip,
  compareVersions,
  isCanonicalVersion,
  listPath,
  parseGoMod,
  parseProxyPath,
  readModuleZip,
  syntheticGoMod,
  versionFilePath,
  type ProxyPath,
} from './go.module.js';

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json';
const MAX_INFO_BYTES = 64 * 1024;

/**
 * How long after its zip a version's .mod and .info may still arrive as part of the same
 * publication (publishing tools send the three files one after the other); later, they are fixed.
 */
const PUBLICATION_WINDOW_MS = 10 * 60_000;
const publishing = (zip: ItemRow) => Date.now() - Number(zip.created_at) < PUBLICATION_WINDOW_MS;

/** A version's `.info` as the proxy protocol has it. */
interface VersionInfo {
  Version: string;
  Time?: string;
}

/** What the proxy answers for a path: a stored file to send as it is, or a body the server made. */
export type GoAnswer = { item: ItemRow } | DerivedFile;

const derived = (body: string, contentType: string): DerivedFile => ({ body: Buffer.from(body), contentType });

/**
 * The go.mod a version answers when none was published beside its zip: read from the zip once per
 * process, under the zip's content and module version (never stale), not on every request.
 */
const zipGoMods = madeCache<string>(1000);

/** The versions a stored or upstream `@v/list` names (one per line, canonical ones only). */
const listed = (body: Buffer) =>
  body
    .toString('utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(isCanonicalVersion);

/** Releases before pre-releases, then the highest: the version `@latest` answers. */
function latestOf(versions: string[]): string | undefined {
  const releases = versions.filter((v) => !/^v\d+\.\d+\.\d+-/.test(v));
  const pool = releases.length ? releases : versions;
  return pool.sort(compareVersions).at(-1);
}

/**
 * Go modules in repositories, read and written through the door: the proxy protocol's answers
 * (a virtual repository's lists merged from its members'), the checks a published file passes,
 * and the version list kept beside a local repository's files.
 */
export class GoModules {
  constructor(private readonly content: RepoContent) {}

  /** The versions a repository lists for a module; a virtual one's members merged. Undefined when none knows it. */
  async versions(repo: RepositoryRow, module: string): Promise<string[] | undefined> {
    const path = listPath(module);
    const sources =
      repo.rclass === 'virtual'
        ? await this.content.resolveEach(repo.key, path)
        : [await this.content.resolve(repo, path)].filter((f): f is Resolved => !!f);
    if (!sources.length) return undefined;
    const versions = new Set<string>();
    for (const found of sources) for (const v of listed(await this.content.read(found.item))) versions.add(v);
    return [...versions].sort(compareVersions);
  }

  /** A version's `.info`: stored (or the upstream's), else made from its zip's publication time. */
  private async info(repo: RepositoryRow, module: string, version: string): Promise<GoAnswer | undefined> {
    const stored = await this.content.resolve(repo, versionFilePath(module, version, 'info'));
    if (stored && stored.item.folder !== 1) return { item: stored.item };
    const zip = await this.content.resolve(repo, versionFilePath(module, version, 'zip'));
    if (!zip || zip.item.folder === 1) return undefined;
    const info: VersionInfo = { Version: version, Time: new Date(zip.item.created_at).toISOString() };
    return derived(JSON.stringify(info), JSON_TYPE);
  }

  /** A version's go.mod: stored (or the upstream's), else the one inside its zip, else what Go assumes. */
  private async mod(repo: RepositoryRow, module: string, version: string): Promise<GoAnswer | undefined> {
    const stored = await this.content.resolve(repo, versionFilePath(module, version, 'mod'));
    if (stored && stored.item.folder !== 1) return { item: stored.item };
    const zip = await this.content.resolve(repo, versionFilePath(module, version, 'zip'));
    if (!zip || zip.item.folder === 1) return undefined;
    const goMod = await zipGoMods(`${zip.item.sha256}:${module}@${version}`, async () => {
      const inside = await readModuleZip(await this.content.read(zip.item), module, version);
      return inside.goMod?.toString('utf8') ?? syntheticGoMod(module);
    });
    return derived(goMod, TEXT);
  }

  /** The newest version's `.info` (releases first); a remote repository's upstream answers it when it can. */
  private async latest(repo: RepositoryRow, module: string): Promise<GoAnswer | undefined> {
    const candidates = new Set(await this.versions(repo, module).catch(() => undefined));
    const path = `${listPath(module).slice(0, -'/@v/list'.length)}/@latest`;
    const upstream =
      repo.rclass === 'virtual'
        ? await this.content.resolveEach(repo.key, path).catch(() => [])
        : repo.rclass === 'remote'
          ? [await this.content.resolve(repo, path).catch(() => undefined)].filter((f): f is Resolved => !!f)
          : [];
    const infos = new Map<string, Resolved>();
    for (const found of upstream) {
      try {
        const info = JSON.parse((await this.content.read(found.item)).toString('utf8')) as VersionInfo;
        if (isCanonicalVersion(info.Version)) {
          candidates.add(info.Version);
          infos.set(info.Version, found);
        }
      } catch {
        // an upstream's unreadable answer names no version
      }
    }
    const version = latestOf([...candidates]);
    if (!version) return undefined;
    const known = infos.get(version);
    return known ? { item: known.item } : this.info(repo, module, version);
  }

  /** The proxy's answer for a path; undefined when the repository has nothing there. */
  async answer(repo: RepositoryRow, path: ProxyPath): Promise<GoAnswer | undefined> {
    switch (path.kind) {
      case 'list': {
        const versions = await this.versions(repo, path.module);
        return versions && derived(versions.map((v) => `${v}\n`).join(''), TEXT);
      }
      case 'latest':
        return this.latest(repo, path.module);
      case 'file': {
        if (path.ext === 'info') return this.info(repo, path.module, path.version);
        if (path.ext === 'mod') return this.mod(repo, path.module, path.version);
        const zip = await this.content.resolve(repo, versionFilePath(path.module, path.version, 'zip'));
        return zip && zip.item.folder !== 1 ? { item: zip.item } : undefined;
      }
    }
  }

  /**
   * A published file checked before it is stored: a module path and version Go accepts, a zip
   * that follows Go's rules, a go.mod naming its module and agreeing with the zip's, an `.info`
   * naming its version; a version's file is never replaced by another (the same bytes again are
   * taken as they are). Answers the request to store, or the stored file it repeats.
   */
  async check(target: RepositoryRow, request: DeployRequest): Promise<DeployRequest | { taken: ItemRow }> {
    const parsed = parseProxyPath(request.path);
    if (!parsed || parsed.kind !== 'file') throw badRequest(fill(GO_MESSAGES.badFile, { path: request.path }));
    const { module, version, ext } = parsed;
    checkModuleVersion(module, version);
    if (request.path !== versionFilePath(module, version, ext))
      throw badRequest(fill(GO_MESSAGES.badFile, { path: request.path }));
    const limit = ext === 'zip' ? GO_MAX_ZIP_BYTES : ext === 'mod' ? GO_MAX_MOD_BYTES : MAX_INFO_BYTES;
    const body = await readLimited(request.body, limit);
    if (!body) {
      const reason = `the ${ext} file is larger than ${limit} bytes`;
      throw badRequest(fill(GO_MESSAGES.badZip, { module, version, reason }));
    }
    const existing = await this.content.stored(target.key, request.path);
    if (existing && existing.folder !== 1) {
      const same = existing.size === body.length && (await this.content.read(existing)).equals(body);
      if (same) return { taken: existing };
      throw conflict(fill(GO_MESSAGES.republish, { module, version, ext: `.${ext}` }));
    }
    if (ext === 'zip') {
      const zip = await checkModuleZip(body, module, version);
      if (zip.goMod) {
        this.checkGoMod(zip.goMod, module, version);
        const mod = await this.content.stored(target.key, versionFilePath(module, version, 'mod'));
        if (mod && mod.folder !== 1 && !(await this.content.read(mod)).equals(zip.goMod))
          throw conflict(fill(GO_MESSAGES.modDiffers, { module, version }));
      }
    } else if (ext === 'mod') {
      this.checkGoMod(body, module, version);
      const zip = await this.content.stored(target.key, versionFilePath(module, version, 'zip'));
      if (zip && zip.folder !== 1) {
        const inside = await readModuleZip(await this.content.read(zip), module, version);
        if (inside.goMod && !inside.goMod.equals(body))
          throw conflict(fill(GO_MESSAGES.modDiffers, { module, version }));
        // a zip without go.mod has the one Go assumes: another, once the publication is over, is a
        // change of a released version
        if (!inside.goMod && body.toString('utf8') !== syntheticGoMod(module) && !publishing(zip))
          await this.changeOfReleased(target, request.path, module, version, '.mod');
      }
    } else {
      let info: VersionInfo | undefined;
      try {
        info = JSON.parse(body.toString('utf8')) as VersionInfo;
      } catch {
        info = undefined;
      }
      if (info?.Version !== version) throw badRequest(fill(GO_MESSAGES.badInfo, { module, version }));
      // once the zip is published, its publication time is the version's time
      const zip = await this.content.stored(target.key, versionFilePath(module, version, 'zip'));
      if (zip && zip.folder !== 1 && Date.parse(info.Time ?? '') !== Number(zip.created_at) && !publishing(zip))
        await this.changeOfReleased(target, request.path, module, version, '.info');
    }
    const properties = { ...request.properties, 'go.name': [module], 'go.version': [version] };
    return { ...withBody(request, body), properties };
  }

  /** A .mod or .info that changes what a published zip says of its version: only with the delete permission. */
  private async changeOfReleased(target: RepositoryRow, path: string, module: string, version: string, ext: string) {
    try {
      await this.content.authorize('delete', target.key, path);
    } catch {
      throw new HttpError(403, fill(GO_MESSAGES.fixedByZip, { module, version, ext }));
    }
  }

  private checkGoMod(body: Buffer, module: string, version: string): void {
    const declared = parseGoMod(body.toString('utf8')).module;
    // a +incompatible version predates modules: its go.mod, if any, may name the path without a suffix
    if (declared !== module && !(version.endsWith('+incompatible') && declared === undefined))
      throw badRequest(fill(GO_MESSAGES.modMismatch, { module, version, declared: declared ?? '' }));
  }

  /** The list beside a local repository's module files, written again from the versions whose zip is there. */
  async writeList(repo: RepositoryRow, module: string): Promise<void> {
    const folder = `${listPath(module).slice(0, -'/list'.length)}`;
    const children = await this.content.children(repo, folder).catch(() => []);
    const versions = children
      .filter((c) => c.folder !== 1 && c.name.endsWith('.zip'))
      .map((c) => parseProxyPath(c.path))
      .flatMap((p) => (p?.kind === 'file' ? [p.version] : []))
      .sort(compareVersions);
    const path = listPath(module);
    if (!versions.length) {
      if (await this.content.stored(repo.key, path)) await this.content.remove(repo, path).catch(() => undefined);
      return;
    }
    const body = versions.map((v) => `${v}\n`).join('');
    await changeMetadataFile(
      this.content,
      repo,
      path,
      async (found) => (await this.content.read(found.item)).toString('utf8'),
      () => body,
      { serialize: (text) => text, same: (a, b) => a === b },
    );
  }
}

/** The version a stored module file belongs to; undefined for anything else. */
export function moduleFileOf(path: string): { module: string; version: string; ext: string } | undefined {
  const parsed = parseProxyPath(path);
  return parsed?.kind === 'file' ? parsed : undefined;
}

/**
 * Go repositories at their own addresses too (`/artifactory/{repo}/{module}/@v/…`, as the
 * console and generic clients deploy): the same checks, the version list kept, the proxy's
 * derived answers.
 */
export function goPlainPaths(app: FastifyInstance): PlainPaths {
  return {
    async deploy(content, target, request) {
      const parsed = parseProxyPath(request.path);
      // the list and @latest are the server's own
      if (parsed && parsed.kind !== 'file') {
        await readLimited(request.body, MAX_INFO_BYTES * 16);
        return { taken: await content.stored(target.key, request.path) };
      }
      return new GoModules(content).check(target, request);
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local') return;
      const file = moduleFileOf(path);
      if (file) await new GoModules(systemContent(app)).writeList(repo, file.module);
    },
    async read(content, repo, path) {
      const parsed = parseProxyPath(path);
      if (!parsed || (parsed.kind === 'file' && parsed.ext === 'zip')) return undefined;
      const answer = await new GoModules(content).answer(repo, parsed);
      if (!answer) return undefined;
      return 'item' in answer ? content.resolve(repo, answer.item.path) : answer;
    },
  };
}

/** 404 with the go command's wording. */
export const goNotFound = (path: ProxyPath) =>
  notFound(
    path.kind === 'file'
      ? fill(GO_MESSAGES.notFound, { module: path.module, version: path.version })
      : fill(GO_MESSAGES.noVersions, { module: path.module }),
  );
