import type { FastifyInstance } from 'fastify';
import semver from 'semver';
import { CARGO_MAX_CRATE_BYTES, CARGO_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import {
  changeMetadataFile,
  deployBytes,
  readLimited,
  systemContent,
  withBody,
  type DerivedFile,
  type PlainPaths,
  type RepoContent,
  type Resolved,
} from '../../features/artifacts/index.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import {
  canonicalName,
  checkCrateName,
  checkCrateVersion,
  cratePath,
  entryFromPublish,
  inspectCrate,
  parseCratePath,
  parseIndexFile,
  renderIndexFile,
  sameVersion,
  storedIndexPath,
  type IndexEntry,
  type PublishMetadata,
} from './cargo.crate.js';

/** A crate found by the registry's search. */
export interface SearchHit {
  name: string;
  max_version: string;
  description: string;
}

const byVersion = (a: IndexEntry, b: IndexEntry) => semver.compare(a.vers, b.vers);

/**
 * Crates in repositories, through the door: index files (a virtual repository's merged from its
 * members', first member first for a version), publishing with cargo's metadata, yanking, the
 * index kept in step with the `.crate` files a repository holds, search.
 */
export class CargoCrates {
  constructor(private readonly content: RepoContent) {}

  private async entriesOf(found: Resolved): Promise<IndexEntry[]> {
    return parseIndexFile((await this.content.read(found.item)).toString('utf8'));
  }

  /** A crate's index file as clients read it: a stored file as it is, a virtual repository's merged. */
  async indexFile(repo: RepositoryRow, indexPath: string): Promise<{ item: ItemRow } | DerivedFile | undefined> {
    const path = `index/${indexPath}`;
    if (repo.rclass !== 'virtual') {
      const found = await this.content.resolve(repo, path);
      return found && found.item.folder !== 1 ? { item: found.item } : undefined;
    }
    const members = await this.content.resolveEach(repo.key, path);
    if (!members.length) return undefined;
    if (members.length === 1) return { item: members[0]!.item };
    const merged = new Map<string, IndexEntry>();
    for (const found of members) {
      for (const entry of await this.entriesOf(found)) {
        const key = entry.vers.replace(/\+.*$/, '');
        if (!merged.has(key)) merged.set(key, entry);
      }
    }
    return { body: Buffer.from(renderIndexFile([...merged.values()].sort(byVersion))), contentType: 'text/plain' };
  }

  /** The entries a repository lists for a crate (a virtual one's merged). */
  async entries(repo: RepositoryRow, name: string): Promise<IndexEntry[]> {
    const file = await this.indexFile(repo, storedIndexPath(name).slice('index/'.length));
    if (!file) return [];
    const text = 'item' in file ? await this.content.read(file.item) : file.body;
    return parseIndexFile(text.toString('utf8'));
  }

  /**
   * A publish as cargo sends it: name and version checked, the crate read through (its
   * Cargo.toml must agree), no version there already and no other crate of the same name but for
   * case and '-'/'_'; the crate stored, then its line added to the index.
   */
  async publish(repo: string | RepositoryRow, metadata: PublishMetadata, crate: Buffer): Promise<IndexEntry> {
    const target = await this.content.writeTarget(repo);
    const { name, vers: version } = metadata;
    checkCrateName(name);
    checkCrateVersion(version);
    const path = cratePath(name, version);
    await this.content.authorize('deploy', target.key, path);
    const indexPath = storedIndexPath(name);
    const found = await this.content.resolve(target, indexPath);
    const current = found ? await this.entriesOf(found) : [];
    await this.checkNameFree(target, name);
    if (current.some((e) => sameVersion(e.vers, version)))
      throw conflict(fill(CARGO_MESSAGES.exists, { name, version }));
    await inspectCrate(crate, name, version);
    const entry = entryFromPublish(metadata, crate);
    try {
      await deployBytes(this.content, target, path, crate, {
        properties: {
          'crate.name': [name],
          'crate.version': [version],
          ...(metadata.description ? { 'crate.description': [metadata.description.slice(0, 1000)] } : {}),
        },
        ifCurrent: null,
      });
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 409)
        throw conflict(fill(CARGO_MESSAGES.exists, { name, version }));
      throw error;
    }
    try {
      await this.changeIndex(
        target,
        name,
        (entries) => [...entries.filter((e) => !sameVersion(e.vers, version)), entry],
        {
          found,
          current,
        },
      );
    } catch (error) {
      // a crate the index does not list is not published: it goes again
      await this.content.remove(target, path).catch(() => undefined);
      throw error;
    }
    return entry;
  }

  /** Refuses a name another crate here already has but for case, '-' and '_' (crates.io's rule). */
  async checkNameFree(target: RepositoryRow, name: string): Promise<void> {
    const folders = await this.content.children(target, 'crates').catch(() => []);
    const twin = folders.find(
      (f) => f.folder === 1 && f.name !== name && canonicalName(f.name) === canonicalName(name),
    );
    if (twin) throw badRequest(fill(CARGO_MESSAGES.nameTaken, { name, existing: twin.name }));
  }

  /** Yanks or brings back a version: its index line says so; the crate stays downloadable. */
  async setYanked(repo: string | RepositoryRow, name: string, version: string, yanked: boolean): Promise<void> {
    const target = await this.content.writeTarget(repo);
    await this.content.authorize('delete', target.key, cratePath(name, version));
    const entries = await this.entries(target, name);
    if (!entries.length) throw notFound(fill(CARGO_MESSAGES.notFound, { name }));
    if (!entries.some((e) => sameVersion(e.vers, version)))
      throw notFound(fill(CARGO_MESSAGES.versionNotFound, { name, version }));
    await this.changeIndex(target, name, (current) =>
      current.map((e) => (sameVersion(e.vers, version) ? { ...e, yanked } : e)),
    );
  }

  /** Who published a crate's versions here: the honest answer to "owners". */
  async publishers(repo: RepositoryRow, name: string): Promise<string[]> {
    const files = await this.content.children(repo, `crates/${name}`).catch(() => []);
    if (!files.length) throw notFound(fill(CARGO_MESSAGES.notFound, { name }));
    return [...new Set(files.map((f) => f.created_by).filter((u): u is string => !!u))].sort();
  }

  /** Crates whose name holds `query` (case aside), with their newest version and description. */
  async search(repo: RepositoryRow, query: string, limit: number): Promise<{ hits: SearchHit[]; total: number }> {
    const folders = await this.content.children(repo, 'crates').catch(() => []);
    const wanted = canonicalName(query);
    const names = folders
      .filter((f) => f.folder === 1 && canonicalName(f.name).includes(wanted))
      .map((f) => f.name)
      .sort();
    const hits: SearchHit[] = [];
    for (const name of names.slice(0, limit)) {
      const entries = (await this.entries(repo, name)).filter((e) => !e.yanked).sort(byVersion);
      const newest = entries.at(-1);
      if (!newest) continue;
      const crate = await this.content.resolve(repo, cratePath(name, newest.vers));
      const description = crate ? (await this.content.properties(crate.item))['crate.description']?.[0] : undefined;
      hits.push({ name, max_version: newest.vers, description: description ?? '' });
    }
    return { hits, total: names.length };
  }

  /**
   * The index file of a crate in a local repository, brought in step with its `.crate` files:
   * lines of versions whose crate is gone leave; a crate deployed without cargo (a plain `PUT`)
   * gets the line its Cargo.toml gives.
   */
  async reconcile(repo: RepositoryRow, name: string): Promise<void> {
    const files = (await this.content.children(repo, `crates/${name}`).catch(() => [])).filter((f) => f.folder !== 1);
    const present = new Map<string, ItemRow>();
    for (const file of files) {
      const parsed = parseCratePath(file.path);
      if (parsed?.name === name) present.set(parsed.version, file);
    }
    const indexPath = storedIndexPath(name);
    if (!present.size) {
      if (await this.content.stored(repo.key, indexPath))
        await this.content.remove(repo, indexPath).catch(() => undefined);
      return;
    }
    await this.changeIndex(repo, name, async (entries) => {
      const kept = entries.filter((e) => [...present.keys()].some((v) => sameVersion(v, e.vers)));
      for (const [version, file] of present) {
        if (kept.some((e) => sameVersion(e.vers, version))) continue;
        const facts = await inspectCrate(await this.content.read(file), name, version).catch(() => undefined);
        if (facts) kept.push(facts.entry);
      }
      return kept;
    });
  }

  private async changeIndex(
    target: RepositoryRow,
    name: string,
    update: (entries: IndexEntry[]) => IndexEntry[] | Promise<IndexEntry[]>,
    read?: { found: Resolved | undefined; current: IndexEntry[] },
  ): Promise<void> {
    await changeMetadataFile(
      this.content,
      target,
      storedIndexPath(name),
      (found) => this.entriesOf(found),
      async (current) => (await update(current ?? [])).sort(byVersion),
      {
        serialize: renderIndexFile,
        same: (a, b) => renderIndexFile(a) === renderIndexFile(b),
        ...(read ? { read } : {}),
      },
    );
  }
}

/**
 * Cargo repositories at their own addresses (`/artifactory/{repo}/crates/…`): a `.crate`
 * deployed there is checked as a publish is and listed in the index from its Cargo.toml; the
 * index is the server's own; removing a crate takes its line out.
 */
export function cargoPlainPaths(app: FastifyInstance): PlainPaths {
  return {
    async deploy(content, target, request) {
      if (request.path.startsWith('index/')) {
        await readLimited(request.body, 16 * 1024 * 1024);
        return { taken: await content.stored(target.key, request.path) };
      }
      const parsed = parseCratePath(request.path);
      if (!parsed) throw badRequest(fill(CARGO_MESSAGES.badPath, { path: request.path }));
      checkCrateName(parsed.name);
      const body = await readLimited(request.body, CARGO_MAX_CRATE_BYTES);
      if (!body) throw badRequest(fill(CARGO_MESSAGES.badCrate, { ...parsed, reason: 'it is larger than 512 MiB' }));
      await inspectCrate(body, parsed.name, parsed.version);
      const crates = new CargoCrates(content);
      await crates.checkNameFree(target, parsed.name);
      const entries = await crates.entries(target, parsed.name);
      if (entries.some((e) => sameVersion(e.vers, parsed.version))) throw conflict(fill(CARGO_MESSAGES.exists, parsed));
      return {
        ...withBody(request, body),
        properties: { ...request.properties, 'crate.name': [parsed.name], 'crate.version': [parsed.version] },
      };
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local') return;
      const crate = parseCratePath(path)?.name ?? /^crates\/([^/]+)$/.exec(path)?.[1];
      if (crate) await new CargoCrates(systemContent(app)).reconcile(repo, crate);
    },
    async read() {
      return undefined;
    },
  };
}
