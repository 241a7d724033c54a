import type { AdmittedFile } from '../format.js';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { DEBIAN_MAX_PACKAGE_BYTES, DEBIAN_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import {
  changeMetadataFile,
  madeCache,
  madeStoreOf,
  deployBytes,
  readLimited,
  systemContent,
  withBody,
  type DerivedFile,
  type MadeStore,
  type PlainPaths,
  type RepoContent,
  type Resolved,
} from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';
import { ThreadCalls } from '../../core/threads.js';
import { MERGE_THREAD, digestsOf, type MergeRequest, type MergedIndex } from './debian.merge.js';
import {
  debFileName,
  field,
  inspectDeb,
  packagesStanza,
  parseStanzas,
  renderRelease,
  renderStanzas,
  type ReleaseFile,
  type Stanza,
} from './debian.package.js';

const TEXT = 'text/plain; charset=utf-8';
const isPackage = (path: string) => /\.u?deb$/.test(path);
const indexPath = (dist: string, component: string, arch: string) =>
  `dists/${dist}/${component}/binary-${arch}/Packages`;
/** `dists/{dist}/{component}/binary-{arch}/Packages` → its parts. */
const INDEX = /^dists\/([^/]+)\/([^/]+)\/binary-([^/]+)\/Packages$/;

/** A property's values, each comma-separated list split (`deb.distribution=bookworm,trixie`). */
const values = (properties: Record<string, string[]>, key: string) => [
  ...new Set(
    (properties[key] ?? [])
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/** Where a package is indexed: every distribution, component and architecture its properties name. */
function targetsOf(properties: Record<string, string[]>, architecture: string): string[] {
  const dists = values(properties, 'deb.distribution');
  const components = values(properties, 'deb.component');
  const archs = values(properties, 'deb.architecture');
  const targets: string[] = [];
  for (const d of dists)
    for (const c of components) for (const a of archs.length ? archs : [architecture]) targets.push(indexPath(d, c, a));
  return targets;
}

const sameEntry = (a: Stanza, b: Stanza) =>
  ['Package', 'Version', 'Architecture'].every((f) => field(a, f) === field(b, f));

/** Signed indexes and virtual views, per process, keyed by what they were made from (never stale). */
const keep = madeCache<Map<string, DerivedFile>>(200);
/** The thread that merges virtual repositories' indexes (started at the first merge). */
const mergeThread = new ThreadCalls<MergeRequest, MergedIndex[]>(import.meta.url, 'debian.merge', MERGE_THREAD);

/**
 * A Debian repository's indexes, through the door: a local repository's `Packages` (and `.gz`)
 * per distribution, component and architecture and each distribution's `Release`, kept by the
 * server on every deploy and delete; `InRelease` and `Release.gpg` signed when asked, with the
 * key that signs the repository now; a virtual repository's indexes merged from its members' and
 * signed with its own key.
 */
export class DebianIndexes {
  constructor(
    private readonly content: RepoContent,
    private readonly app: FastifyInstance,
    /** Where virtual repositories' merged indexes are kept for every worker and node. */
    private readonly made?: MadeStore,
  ) {}

  /** A local repository's indexes after a change at `path`: the package there (re)indexed, what was under it gone. */
  async reindex(repo: RepositoryRow, path: string): Promise<void> {
    const stored = await this.content.stored(repo.key, path);
    let stanza: Stanza | undefined;
    let targets: string[] = [];
    if (stored && stored.folder !== 1 && isPackage(path)) {
      const body = await this.content.read(stored);
      const facts = await inspectDeb(body, path).catch(() => undefined);
      if (facts) {
        stanza = packagesStanza(facts.control, path, body.length, digestsOf(body));
        targets = targetsOf(await this.content.properties(stored), facts.architecture);
      }
    }
    const existing = (await this.content.below(repo.key, 'dists').catch(() => [])).filter((i) => INDEX.test(i.path));
    const under = (filename: string | undefined) => filename === path || !!filename?.startsWith(`${path}/`);
    const affected = new Set<string>();
    for (const item of existing) {
      const text = (await this.content.read(item)).toString('utf8');
      const listed = parseStanzas(text).some((s) => under(field(s, 'Filename')));
      if (listed || targets.includes(item.path)) affected.add(item.path);
    }
    for (const target of targets) affected.add(target);
    const dists = new Set<string>();
    for (const index of affected) {
      await this.writePackages(repo, index, (stanzas) => {
        const kept = stanzas.filter((s) => !under(field(s, 'Filename')));
        if (!stanza || !targets.includes(index)) return kept;
        // a released entry is never replaced by another file: the one listed first stays
        if (kept.some((s) => sameEntry(s, stanza))) {
          this.app.log.warn(
            { repo: repo.key, path, index },
            'a package of a version the index lists with another file was left out of the index',
          );
          return kept;
        }
        return [...kept, stanza];
      });
      dists.add(INDEX.exec(index)![1]!);
    }
    for (const dist of dists) await this.writeRelease(repo, dist);
  }

  private async writePackages(repo: RepositoryRow, path: string, update: (stanzas: Stanza[]) => Stanza[]) {
    const next = await changeMetadataFile(
      this.content,
      repo,
      path,
      async (found) => parseStanzas((await this.content.read(found.item)).toString('utf8')),
      (current) =>
        update(current ?? []).sort((a, b) =>
          `${field(a, 'Package')} ${field(a, 'Version')}`.localeCompare(
            `${field(b, 'Package')} ${field(b, 'Version')}`,
          ),
        ),
      { serialize: renderStanzas, same: (a, b) => renderStanzas(a) === renderStanzas(b) },
    );
    if (!next.length) {
      for (const file of [path, `${path}.gz`]) await this.content.remove(repo, file).catch(() => undefined);
      return;
    }
    await this.put(repo, `${path}.gz`, gzipSync(Buffer.from(renderStanzas(next))));
  }

  private async put(repo: RepositoryRow, path: string, body: Buffer) {
    await deployBytes(this.content, repo, path, body);
  }

  /** A distribution's Release from the index files it has now; none when it has none. */
  async writeRelease(repo: RepositoryRow, dist: string): Promise<void> {
    const files = (await this.content.below(repo.key, `dists/${dist}`).catch(() => [])).filter(
      (i) => i.folder !== 1 && /\/binary-[^/]+\/Packages(\.gz)?$/.test(i.path),
    );
    const releasePath = `dists/${dist}/Release`;
    if (!files.length) {
      if (await this.content.stored(repo.key, releasePath))
        await this.content.remove(repo, releasePath).catch(() => undefined);
      return;
    }
    const listed: ReleaseFile[] = [];
    for (const item of files.sort((a, b) => a.path.localeCompare(b.path))) {
      const sums = await this.content.checksums(item);
      listed.push({ path: item.path.slice(`dists/${dist}/`.length), size: Number(item.size), ...sums });
    }
    await this.put(repo, releasePath, Buffer.from(this.release(repo, dist, listed)));
  }

  private release(repo: RepositoryRow, dist: string, files: ReleaseFile[]): string {
    const components = [...new Set(files.map((f) => f.path.split('/')[0]!))].sort();
    const architectures = [...new Set(files.map((f) => f.path.split('/')[1]!.slice('binary-'.length)))].sort();
    return renderRelease({ label: repo.key, suite: dist, components, architectures, files, date: new Date() });
  }

  /**
   * A distribution's files as a virtual repository answers them: its members' indexes merged, on
   * the merge thread (the event loop only reads the members' files), once per change of a
   * member's Release, shared by the requests that wait for it.
   */
  private async virtualDist(repo: RepositoryRow, dist: string): Promise<Map<string, DerivedFile> | undefined> {
    const releases = await this.content.resolveEach(repo.key, `dists/${dist}/Release`);
    if (!releases.length) return undefined;
    const key = `debian-virtual|${repo.key}|${dist}|${releases.map((r) => `${r.repo.key}:${r.item.sha256}`).join(',')}`;
    const make = async () => {
      const indexes: MergeRequest['indexes'] = [];
      for (const release of releases) {
        const stanza = parseStanzas((await this.content.read(release.item)).toString('utf8'))[0] ?? [];
        const components = (field(stanza, 'Components') ?? '').split(/\s+/).filter(Boolean);
        const archs = (field(stanza, 'Architectures') ?? '').split(/\s+/).filter(Boolean);
        for (const component of components) {
          for (const arch of archs) {
            const found = await this.memberIndex(release, indexPath(dist, component, arch));
            if (found) indexes.push({ folder: `${component}/binary-${arch}`, ...found });
          }
        }
      }
      const merged = await mergeThread.call({ indexes });
      const files = new Map<string, DerivedFile>();
      const listed: ReleaseFile[] = [];
      for (const { folder, plain, gz, plainDigests, gzDigests } of merged) {
        for (const [name, body, digests] of [
          ['Packages', plain, plainDigests],
          ['Packages.gz', gz, gzDigests],
        ] as const) {
          files.set(`dists/${dist}/${folder}/${name}`, {
            body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
            contentType: TEXT,
          });
          listed.push({ path: `${folder}/${name}`, size: body.byteLength, ...digests });
        }
      }
      files.set(`dists/${dist}/Release`, { body: Buffer.from(this.release(repo, dist, listed)), contentType: TEXT });
      return files;
    };
    // merged once for all the workers and nodes; a process without the shared store merges for itself
    return this.made ? this.made.get(key, make) : keep(key, make);
  }

  /** A member's index as the member has it: plain, or compressed as the upstream has it. */
  private async memberIndex(release: Resolved, path: string): Promise<{ suffix: string; body: Buffer } | undefined> {
    for (const suffix of ['', '.gz', '.xz']) {
      const found = await this.content.resolve(release.repo, `${path}${suffix}`).catch(() => undefined);
      if (!found || found.item.folder === 1) continue;
      return { suffix, body: await this.content.read(found.item) };
    }
    return undefined;
  }

  /** `InRelease` or `Release.gpg` of a Release, signed with the key that signs the repository now. */
  private async signed(repo: RepositoryRow, release: Buffer, name: 'InRelease' | 'Release.gpg'): Promise<DerivedFile> {
    const signer = await this.content.signer(repo);
    const key = `signed|${signer.key.fingerprint}|${createHash('sha256').update(release).digest('hex')}`;
    const files = await keep(key, async () => {
      const made = new Map<string, DerivedFile>();
      made.set('InRelease', { body: Buffer.from(await signer.cleartext(release.toString('utf8'))), contentType: TEXT });
      made.set('Release.gpg', {
        body: Buffer.from(await signer.detached(release)),
        contentType: 'application/pgp-signature',
      });
      return made;
    });
    return files.get(name)!;
  }

  /** What a repository answers itself under `dists/`: signatures, a virtual repository's merged indexes. */
  async answer(repo: RepositoryRow, path: string): Promise<DerivedFile | undefined> {
    if (repo.rclass === 'remote') return undefined;
    const match = /^dists\/([^/]+)\/(.+)$/.exec(path);
    if (!match) return undefined;
    const [, dist, rest] = match as unknown as [string, string, string];
    const view = repo.rclass === 'virtual' ? await this.virtualDist(repo, dist) : undefined;
    if (rest === 'InRelease' || rest === 'Release.gpg') {
      let release: Buffer | undefined;
      if (view) release = view.get(`dists/${dist}/Release`)?.body;
      else if (repo.rclass === 'local') {
        const found = await this.content.resolve(repo, `dists/${dist}/Release`);
        release = found ? await this.content.read(found.item) : undefined;
      }
      return release && this.signed(repo, release, rest);
    }
    return view?.get(path);
  }
}

/**
 * Refuses a package whose package, version and architecture an index it goes to lists already
 * with other bytes: a released version never changes under a signature apt trusts.
 */
async function refuseRepublish(
  content: RepoContent,
  target: RepositoryRow,
  facts: { name: string; version: string; architecture: string },
  sha256: string,
  targets: string[],
): Promise<void> {
  for (const index of targets) {
    const found = await content.resolve(target, index);
    if (!found) continue;
    const listed = parseStanzas((await content.read(found.item)).toString('utf8')).find(
      (s) =>
        field(s, 'Package') === facts.name &&
        field(s, 'Version') === facts.version &&
        field(s, 'Architecture') === facts.architecture,
    );
    if (listed && field(listed, 'SHA256') !== sha256) {
      const [, distribution, component] = INDEX.exec(index)!;
      throw conflict(
        fill(DEBIAN_MESSAGES.republish, {
          name: facts.name,
          version: facts.version,
          architecture: facts.architecture,
          distribution: distribution!,
          component: component!,
        }),
      );
    }
  }
}

/** A package copied, moved or given other distributions: the rules of a deploy, where its properties place it. */
export async function admitDebianPackage(
  content: RepoContent,
  target: RepositoryRow,
  file: AdmittedFile,
): Promise<void> {
  if (!isPackage(file.path)) return;
  const body = await file.read();
  const facts = await inspectDeb(body, file.path).catch(() => undefined);
  if (!facts) return;
  const sha256 = createHash('sha256').update(body).digest('hex');
  await refuseRepublish(content, target, facts, sha256, targetsOf(file.properties, facts.architecture));
}

/**
 * Debian repositories at their own addresses: a package is read through before it is stored
 * (a `.deb` whose control file agrees with its file name, deployed with its distribution and
 * component), `dists/` is the server's own, kept on every deploy and delete and signed when
 * asked; a virtual repository answers its members' indexes merged.
 */
export function debianPlainPaths(app: FastifyInstance): PlainPaths {
  const made = madeStoreOf(app);
  return {
    async deploy(content, target, request) {
      const { path } = request;
      if (path.startsWith('dists/')) throw badRequest(fill(DEBIAN_MESSAGES.metadata, { path }));
      if (!isPackage(path)) return request;
      const body = await readLimited(request.body, DEBIAN_MAX_PACKAGE_BYTES);
      if (!body) throw badRequest(fill(DEBIAN_MESSAGES.badPackage, { path, reason: 'it is larger than 1 GiB' }));
      const facts = await inspectDeb(body, path);
      const expected = debFileName(facts);
      const name = path.split('/').at(-1)!;
      if (name !== expected && name !== expected.replace(/\.deb$/, '.udeb'))
        throw badRequest(
          fill(DEBIAN_MESSAGES.nameMismatch, {
            path,
            name: facts.name,
            version: facts.version,
            architecture: facts.architecture,
            expected,
          }),
        );
      const targets = targetsOf(request.properties, facts.architecture);
      if (!targets.length) throw badRequest(fill(DEBIAN_MESSAGES.noDistribution, { path }));
      const sha256 = createHash('sha256').update(body).digest('hex');
      await refuseRepublish(content, target, facts, sha256, targets);
      return {
        ...withBody(request, body),
        properties: {
          ...request.properties,
          'deb.name': [facts.name],
          'deb.version': [facts.version],
          ...(request.properties['deb.architecture'] ? {} : { 'deb.architecture': [facts.architecture] }),
        },
      };
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local' || path.startsWith('dists/')) return;
      await new DebianIndexes(systemContent(app), app).reindex(repo, path);
    },
    async read(content, repo, path) {
      return new DebianIndexes(content, app, made).answer(repo, path);
    },
  };
}
