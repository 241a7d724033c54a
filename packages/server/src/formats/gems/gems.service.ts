import { createHash } from 'node:crypto';
import { deflateSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { GEMS_MAX_GEM_BYTES, GEMS_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import {
  changeMetadataFile,
  decompress,
  deployBytes,
  readLimited,
  systemContent,
  withBody,
  type DerivedFile,
  type PlainPaths,
  type RepoContent,
  type Resolved,
} from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';
import {
  compareGemVersions,
  gemFileName,
  infoLine,
  inspectGem,
  isPrerelease,
  marshalSpec,
  marshalSpecs,
  type GemEntry,
} from './gems.gem.js';
import { load, type Loaded } from './gems.marshal.js';

/** The server's own list of a local repository's gems, from which every index is answered. */
export const GEM_LIST = '.arca/gems.json';
const TEXT = 'text/plain; charset=utf-8';
const GZIP = 'application/octet-stream';
const SPECS = ['specs.4.8.gz', 'latest_specs.4.8.gz', 'prerelease_specs.4.8.gz'];

/** Paths whose answers the server makes: a client may not deploy them. */
export const isIndexPath = (path: string) =>
  path.startsWith('.arca/') ||
  path.startsWith('quick/') ||
  path.startsWith('info/') ||
  path === 'versions' ||
  path === 'names' ||
  /^(latest_|prerelease_)?specs\.4\.8(\.gz)?$/.test(path);

interface GemList {
  gems: GemEntry[];
}

type Triple = { name: string; version: string; platform: string };
const key = (t: Triple) => `${t.name}|${t.version}|${t.platform}`;
const byNameVersion = (a: Triple, b: Triple) =>
  a.name.localeCompare(b.name) || compareGemVersions(a.version, b.version) || a.platform.localeCompare(b.platform);
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const made = (body: Buffer | string, contentType = TEXT): DerivedFile => ({
  body: typeof body === 'string' ? Buffer.from(body) : body,
  contentType,
});

/** What a specs file holds, read back from Marshal. */
function triplesOf(bytes: Buffer): Triple[] {
  const loaded = load(bytes);
  if (!Array.isArray(loaded)) return [];
  return loaded.flatMap((t: Loaded) => {
    if (!Array.isArray(t) || t.length < 3) return [];
    const version = t[1] as { data?: Loaded };
    const v = Array.isArray(version?.data) ? version.data[0] : undefined;
    return typeof t[0] === 'string' && typeof v === 'string'
      ? [{ name: t[0], version: v, platform: String(t[2]) }]
      : [];
  });
}

/**
 * Gems in repositories, through the door: a local repository's list (kept on every push, yank,
 * deploy and delete), the full and compact indexes answered from it, and a virtual repository's
 * merged from its members' (a remote member's as its upstream answers them).
 */
export class GemRegistry {
  constructor(private readonly content: RepoContent) {}

  private async listOf(found: Resolved | undefined): Promise<GemEntry[]> {
    if (!found) return [];
    return (JSON.parse((await this.content.read(found.item)).toString('utf8')) as GemList).gems;
  }

  /** A local repository's gems. */
  async gems(repo: RepositoryRow): Promise<GemEntry[]> {
    return this.listOf(await this.content.resolve(repo, GEM_LIST));
  }

  private async change(repo: RepositoryRow, update: (gems: GemEntry[]) => GemEntry[] | Promise<GemEntry[]>) {
    await changeMetadataFile<GemList>(
      this.content,
      repo,
      GEM_LIST,
      async (found) => ({ gems: await this.listOf(found) }),
      async (current) => ({ gems: (await update(current?.gems ?? [])).sort(byNameVersion) }),
      { same: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
    );
  }

  /** `gem push`: the gem read through, never a version pushed twice, stored under its own name, then listed. */
  async push(repo: string | RepositoryRow, body: Buffer): Promise<GemEntry> {
    const target = await this.content.writeTarget(repo);
    // who may deploy no gem here is refused before the gem is read: reading is the costly part
    await this.content.authorize('deploy', target.key, 'gems', { below: true });
    const entry = await inspectGem(body);
    const path = `gems/${entry.file}`;
    await this.content.authorize('deploy', target.key, path);
    if ((await this.gems(target)).some((g) => key(g) === key(entry)) || (await this.content.stored(target.key, path)))
      throw conflict(GEMS_MESSAGES.republish);
    try {
      await deployBytes(this.content, target, path, body, {
        properties: { 'gem.name': [entry.name], 'gem.version': [entry.version] },
        ifCurrent: null,
      });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 409) throw conflict(GEMS_MESSAGES.republish);
      throw error;
    }
    await this.change(target, (gems) => [...gems.filter((g) => key(g) !== key(entry)), entry]);
    return entry;
  }

  /** `gem yank`: the version leaves every index; its file stays for the record. */
  async yank(repo: string | RepositoryRow, name: string, version: string, platform = 'ruby'): Promise<void> {
    const target = await this.content.writeTarget(repo);
    const wanted = { name, version, platform };
    await this.content.authorize('delete', target.key, `gems/${gemFileName(wanted)}.gem`);
    const gems = await this.gems(target);
    if (!gems.some((g) => key(g) === key(wanted) && !g.yanked)) throw notFound(GEMS_MESSAGES.notFound);
    await this.change(target, (current) => current.map((g) => (key(g) === key(wanted) ? { ...g, yanked: true } : g)));
  }

  /** A local repository's list in step with its `gems/` folder: gems gone leave it, gems deployed there join it. */
  async reconcile(repo: RepositoryRow): Promise<void> {
    const files = (await this.content.children(repo, 'gems').catch(() => [])).filter(
      (f) => f.folder !== 1 && f.name.endsWith('.gem'),
    );
    const present = new Map(files.map((f) => [f.name, f]));
    await this.change(repo, async (gems) => {
      const kept = gems.filter((g) => present.has(g.file));
      for (const [name, file] of present) {
        if (kept.some((g) => g.file === name)) continue;
        const entry = await inspectGem(await this.content.read(file), file.sha256 ?? undefined).catch(() => undefined);
        if (entry && entry.file === name) kept.push(entry);
      }
      return kept;
    });
  }

  /** What every index of a repository is made from: its gems (a virtual one's local members') and its remote members' specs. */
  private async sources(repo: RepositoryRow) {
    if (repo.rclass === 'local') return { gems: await this.gems(repo), remote: [] as Resolved[] };
    const lists = await this.content.resolveEach(repo.key, GEM_LIST);
    const gems: GemEntry[] = [];
    const seen = new Set<string>();
    for (const list of lists) {
      for (const g of await this.listOf(list)) {
        if (!seen.has(key(g))) {
          seen.add(key(g));
          gems.push(g);
        }
      }
    }
    return {
      gems,
      remote: (await this.content.resolveEach(repo.key, 'specs.4.8.gz')).filter((r) => r.repo.rclass === 'remote'),
    };
  }

  /** A full index file: every released version, the newest of each, or the pre-releases. */
  private async specs(repo: RepositoryRow, file: string): Promise<DerivedFile> {
    const { gems, remote } = await this.sources(repo);
    const triples = new Map<string, Triple>();
    for (const g of gems) if (!g.yanked) triples.set(key(g), g);
    for (const found of remote) {
      const path = file === SPECS[0] ? found.item.path : file;
      const upstream = path === found.item.path ? found : await this.content.resolve(found.repo, path);
      if (!upstream) continue;
      for (const t of triplesOf(await decompress('specs.gz', await this.content.read(upstream.item))))
        if (!triples.has(key(t))) triples.set(key(t), t);
    }
    let list = [...triples.values()].sort(byNameVersion);
    if (file === 'prerelease_specs.4.8.gz') list = list.filter((t) => isPrerelease(t.version));
    else {
      list = list.filter((t) => !isPrerelease(t.version));
      if (file === 'latest_specs.4.8.gz') {
        const newest = new Map<string, Triple>();
        for (const t of list) newest.set(`${t.name}|${t.platform}`, t);
        list = [...newest.values()].sort(byNameVersion);
      }
    }
    return made(gzipSync(marshalSpecs(list)), GZIP);
  }

  /** A compact index `info` file: a local gem's lines, then what a remote member answers for versions not listed yet. */
  private async info(repo: RepositoryRow, name: string): Promise<string | undefined> {
    const { gems, remote } = await this.sources(repo);
    const lines = new Map<string, string>();
    for (const g of gems) if (g.name === name && !g.yanked) lines.set(infoLine(g).split(' ')[0]!, infoLine(g));
    const remotes = repo.rclass === 'remote' ? [{ repo }] : remote;
    for (const member of remotes) {
      const found = await this.content.resolve(member.repo, `info/${name}`).catch(() => undefined);
      if (!found) continue;
      for (const line of (await this.content.read(found.item)).toString('utf8').split('\n')) {
        if (!line.trim() || line === '---') continue;
        const version = line.split(' ')[0]!;
        if (!lines.has(version)) lines.set(version, line);
      }
    }
    if (!lines.size) return undefined;
    const sorted = [...lines.entries()].sort(([a], [b]) => compareGemVersions(a, b)).map(([, l]) => l);
    return `---\n${sorted.join('\n')}\n`;
  }

  /** What the registry answers at a path of the protocol; undefined: the stored file, if any. */
  async answer(repo: RepositoryRow, path: string): Promise<DerivedFile | undefined> {
    if (repo.rclass === 'remote') {
      // a remote repository's own indexes are its upstream's, as they are
      return undefined;
    }
    if (SPECS.includes(path)) return this.specs(repo, path);
    const quick = /^quick\/Marshal\.4\.8\/(.+)\.gemspec\.rz$/.exec(path);
    if (quick) {
      const { gems } = await this.sources(repo);
      const entry = gems.find((g) => gemFileName(g) === quick[1]);
      return entry ? made(deflateSync(marshalSpec(entry)), GZIP) : undefined;
    }
    const info = /^info\/([^/]+)$/.exec(path);
    if (info) {
      const text = await this.info(repo, info[1]!);
      return text === undefined ? undefined : made(text);
    }
    if (path === 'names' || path === 'versions') {
      const { gems, remote } = await this.sources(repo);
      const names = new Set(gems.filter((g) => !g.yanked).map((g) => g.name));
      const versions = new Map<string, Set<string>>();
      for (const g of gems) {
        if (g.yanked) continue;
        const set = versions.get(g.name) ?? new Set<string>();
        set.add(g.platform === 'ruby' ? g.version : `${g.version}-${g.platform}`);
        versions.set(g.name, set);
      }
      for (const member of remote) {
        const found = await this.content.resolve(member.repo, 'versions').catch(() => undefined);
        if (!found) continue;
        const text = (await this.content.read(found.item)).toString('utf8');
        for (const line of text.split('\n').slice(text.split('\n').indexOf('---') + 1)) {
          const [name, list] = line.split(' ');
          if (!name || !list) continue;
          names.add(name);
          const set = versions.get(name) ?? new Set<string>();
          for (const v of list.split(',')) if (!v.startsWith('-')) set.add(v);
          versions.set(name, set);
        }
      }
      const sorted = [...names].sort();
      if (path === 'names') return made(`---\n${sorted.join('\n')}\n`);
      const lines: string[] = [];
      for (const name of sorted) {
        const info = await this.info(repo, name);
        const list = [...(versions.get(name) ?? [])].sort(compareGemVersions);
        if (info && list.length) lines.push(`${name} ${list.join(',')} ${md5(info)}`);
      }
      return made(`created_at: ${new Date(0).toISOString().replace('.000', '')}\n---\n${lines.join('\n')}\n`);
    }
    return undefined;
  }
}

/**
 * RubyGems repositories at their own addresses too: a gem deployed at `gems/{file}.gem` is read
 * through and listed; the indexes are the server's own; a gem deleted leaves the list.
 */
export function gemsPlainPaths(app: FastifyInstance): PlainPaths {
  return {
    async deploy(content, target, request) {
      const { path } = request;
      if (isIndexPath(path)) throw badRequest(fill(GEMS_MESSAGES.metadata, { path }));
      if (!/^gems\/[^/]+\.gem$/.test(path)) throw badRequest(fill(GEMS_MESSAGES.badPath, { path }));
      const body = await readLimited(request.body, GEMS_MAX_GEM_BYTES);
      if (!body) throw badRequest(fill(GEMS_MESSAGES.badGem, { reason: 'it is larger than 512 MiB' }));
      const entry = await inspectGem(body);
      if (path !== `gems/${entry.file}`) throw badRequest(fill(GEMS_MESSAGES.nameMismatch, { path, file: entry.file }));
      if ((await new GemRegistry(content).gems(target)).some((g) => key(g) === key(entry)))
        throw conflict(GEMS_MESSAGES.republish);
      return {
        ...withBody(request, body),
        properties: { ...request.properties, 'gem.name': [entry.name], 'gem.version': [entry.version] },
      };
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local' || isIndexPath(path)) return;
      if (path === 'gems' || path.startsWith('gems/')) await new GemRegistry(systemContent(app)).reconcile(repo);
    },
    async read(content, repo, path) {
      return new GemRegistry(content).answer(repo, path);
    },
  };
}
