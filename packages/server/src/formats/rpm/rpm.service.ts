import type { AdmittedFile } from '../format.js';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { RPM_MAX_PACKAGE_BYTES, RPM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import {
  changeMetadataFile,
  madeCache,
  madeStoreOf,
  deployBytes,
  decompress,
  readLimited,
  systemContent,
  withBody,
  type DerivedFile,
  type MadeStore,
  type PlainPaths,
  type RepoContent,
} from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';
import { inspectRpm, rpmFileName, type RpmFacts } from './rpm.header.js';
import {
  blockIdentity,
  filelistsXml,
  otherXml,
  packageBlocks,
  primaryXml,
  repomdLocations,
  repomdXml,
  type RepoPackage,
  type RepomdData,
} from './rpm.repodata.js';

/** The server's own list of a local repository's packages, from which repodata is written. */
export const PACKAGE_LIST = '.arca/rpm-packages.json';
const REPOMD = 'repodata/repomd.xml';
const XML = 'application/xml';
const isRpm = (path: string) => path.endsWith('.rpm');
const nevra = (p: RpmFacts) => `${p.name}-${p.epoch ? `${p.epoch}:` : ''}${p.version}-${p.release}.${p.arch}`;
const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

interface PackageList {
  packages: RepoPackage[];
}

/** Signed indexes and virtual views, per process, keyed by what they were made from (never stale). */
const keep = madeCache<Map<string, DerivedFile>>(200);

/** The three data files and repomd.xml of a package list, with the data files' hashed names. */
function renderRepodata(primary: string, filelists: string, other: string, revision: number) {
  const files = new Map<string, Buffer>();
  const data: RepomdData[] = [];
  for (const [type, xml] of [
    ['primary', primary],
    ['filelists', filelists],
    ['other', other],
  ] as const) {
    const open = Buffer.from(xml);
    const gz = gzipSync(open);
    const href = `repodata/${sha256(gz)}-${type}.xml.gz`;
    files.set(href, gz);
    data.push({
      type,
      href,
      checksum: sha256(gz),
      openChecksum: sha256(open),
      size: gz.length,
      openSize: open.length,
      timestamp: revision,
    });
  }
  files.set(REPOMD, Buffer.from(repomdXml(revision, data)));
  return files;
}

/** The packages a local repository's repodata lists. */
async function listedPackages(content: RepoContent, repo: RepositoryRow): Promise<RepoPackage[]> {
  const found = await content.resolve(repo, PACKAGE_LIST);
  if (!found) return [];
  return (JSON.parse((await content.read(found.item)).toString('utf8')) as PackageList).packages;
}

/** Refuses a package whose name, epoch, version, release and architecture are listed already with other bytes. */
async function refuseRepublish(content: RepoContent, target: RepositoryRow, facts: RpmFacts, digest: string) {
  const listed = (await listedPackages(content, target)).find((p) => nevra(p) === nevra(facts));
  if (listed && listed.sha256 !== digest) throw conflict(fill(RPM_MESSAGES.republish, { nevra: nevra(facts) }));
  return listed;
}

/** A package copied or moved here: the rules of a deploy. */
export async function admitRpmPackage(content: RepoContent, target: RepositoryRow, file: AdmittedFile): Promise<void> {
  if (!isRpm(file.path) || file.path.startsWith('.arca/')) return;
  const body = await file.read();
  let facts: RpmFacts;
  try {
    facts = inspectRpm(body, file.path);
  } catch {
    return;
  }
  await refuseRepublish(content, target, facts, sha256(body));
}

/**
 * An RPM repository's repodata, through the door: a local repository's written from its package
 * list on every deploy and delete, `repomd.xml.asc` signed when asked with the key that signs the
 * repository now, a virtual repository's merged from its members' and signed with its key.
 */
export class RpmRepodata {
  constructor(
    private readonly content: RepoContent,
    private readonly app: FastifyInstance,
    /** Where virtual repositories' merged repodata is kept for every worker and node. */
    private readonly made?: MadeStore,
  ) {}

  packages(repo: RepositoryRow): Promise<RepoPackage[]> {
    return listedPackages(this.content, repo);
  }

  /** A local repository after a change at `path`: the package there (re)listed, what was under it gone, repodata written. */
  async reindex(repo: RepositoryRow, path: string): Promise<void> {
    const stored = await this.content.stored(repo.key, path);
    let entry: RepoPackage | undefined;
    if (stored && stored.folder !== 1 && isRpm(path)) {
      const body = await this.content.read(stored);
      try {
        const facts = inspectRpm(body, path);
        entry = {
          ...facts,
          path,
          sha256: sha256(body),
          size: body.length,
          fileTime: Math.floor(stored.created_at / 1000),
        };
      } catch {
        entry = undefined;
      }
    }
    const under = (p: string) => p === path || p.startsWith(`${path}/`);
    const next = await changeMetadataFile<PackageList>(
      this.content,
      repo,
      PACKAGE_LIST,
      async (found) => JSON.parse((await this.content.read(found.item)).toString('utf8')) as PackageList,
      (current) => {
        const packages = (current?.packages ?? []).filter((p) => !under(p.path));
        // a released package is never listed twice: the one listed first stays
        if (entry && !packages.some((p) => nevra(p) === nevra(entry))) packages.push(entry);
        packages.sort((a, b) => a.path.localeCompare(b.path));
        return { packages };
      },
      { same: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
    );
    await this.write(repo, next.packages);
  }

  private async write(repo: RepositoryRow, packages: RepoPackage[]) {
    const files = renderRepodata(
      primaryXml(packages),
      filelistsXml(packages),
      otherXml(packages),
      Math.floor(Date.now() / 1000),
    );
    // the data files first, repomd.xml naming them last: a client never reads a repomd.xml whose files are not there
    const order = [...files.keys()].sort((a, b) => Number(a === REPOMD) - Number(b === REPOMD));
    for (const path of order) {
      await deployBytes(this.content, repo, path, files.get(path)!);
    }
    for (const old of await this.content.children(repo, 'repodata').catch(() => [])) {
      if (old.folder !== 1 && !files.has(old.path)) await this.content.remove(repo, old.path).catch(() => undefined);
    }
  }

  /** A virtual repository's repodata: its members' packages, the first member's copy of each. */
  private async virtualView(repo: RepositoryRow): Promise<Map<string, DerivedFile> | undefined> {
    const repomds = await this.content.resolveEach(repo.key, REPOMD);
    if (!repomds.length) return undefined;
    const key = `rpm-virtual|${repo.key}|${repomds.map((r) => `${r.repo.key}:${r.item.sha256}`).join(',')}`;
    const make = async () => {
      const blocks = { primary: [] as string[], filelists: [] as string[], other: [] as string[] };
      const seen = new Set<string>();
      for (const repomd of repomds) {
        const locations = repomdLocations((await this.content.read(repomd.item)).toString('utf8'));
        const read = async (type: string) => {
          const href = locations.get(type);
          const found = href ? await this.content.resolve(repomd.repo, href).catch(() => undefined) : undefined;
          return found
            ? packageBlocks((await decompress(href!, await this.content.read(found.item))).toString('utf8'))
            : [];
        };
        const kept = new Set<string>();
        for (const block of await read('primary')) {
          const { key: identity, pkgid } = blockIdentity(block);
          if (seen.has(identity)) continue;
          seen.add(identity);
          kept.add(pkgid);
          blocks.primary.push(block);
        }
        for (const type of ['filelists', 'other'] as const) {
          for (const block of await read(type)) if (kept.has(blockIdentity(block).pkgid)) blocks[type].push(block);
        }
      }
      const wrap = (xml: string, list: string[]) =>
        xml.replace(/packages="0">\n\n/, `packages="${list.length}">\n${list.join('\n')}\n`);
      const files = renderRepodata(
        wrap(primaryXml([]), blocks.primary),
        wrap(filelistsXml([]), blocks.filelists),
        wrap(otherXml([]), blocks.other),
        Math.floor(Date.now() / 1000),
      );
      return new Map(
        [...files.entries()].map(([path, body]) => [
          path,
          { body, contentType: path.endsWith('.gz') ? 'application/gzip' : XML },
        ]),
      );
    };
    // merged once for all the workers and nodes; a process without the shared store merges for itself
    return this.made ? this.made.get(key, make) : keep(key, make);
  }

  /** What a repository answers itself under `repodata/`: the signature of repomd.xml, a virtual repository's merged files. */
  async answer(repo: RepositoryRow, path: string): Promise<DerivedFile | undefined> {
    if (repo.rclass === 'remote' || !path.startsWith('repodata/')) return undefined;
    const view = repo.rclass === 'virtual' ? await this.virtualView(repo) : undefined;
    if (path !== `${REPOMD}.asc`) return view?.get(path);
    let repomd: Buffer | undefined = view?.get(REPOMD)?.body;
    if (!view && repo.rclass === 'local') {
      const found = await this.content.resolve(repo, REPOMD);
      repomd = found ? await this.content.read(found.item) : undefined;
    }
    if (!repomd) return undefined;
    const signer = await this.content.signer(repo);
    const signed = await keep(`signed|${signer.key.fingerprint}|${sha256(repomd)}`, async () => {
      const body = Buffer.from(await signer.detached(repomd));
      return new Map([['asc', { body, contentType: 'application/pgp-signature' }]]);
    });
    return signed.get('asc');
  }
}

/**
 * RPM repositories at their own addresses (dnf's `baseurl`): a package is read through before it
 * is stored (an RPM whose header agrees with its file name; a release already there with other
 * content refused), `repodata/` is the server's own, written on every deploy and delete.
 */
export function rpmPlainPaths(app: FastifyInstance): PlainPaths {
  const made = madeStoreOf(app);
  return {
    async deploy(content, target, request) {
      const { path } = request;
      if (path.startsWith('repodata/') || path.startsWith('.arca/'))
        throw badRequest(fill(RPM_MESSAGES.metadata, { path }));
      if (!isRpm(path)) return request;
      const body = await readLimited(request.body, RPM_MAX_PACKAGE_BYTES);
      if (!body) throw badRequest(fill(RPM_MESSAGES.badPackage, { path, reason: 'it is larger than 1 GiB' }));
      const facts = inspectRpm(body, path);
      const expected = rpmFileName(facts);
      if (path.split('/').at(-1) !== expected)
        throw badRequest(fill(RPM_MESSAGES.nameMismatch, { path, nevra: nevra(facts), expected }));
      const listed = await refuseRepublish(content, target, facts, sha256(body));
      if (listed && listed.path === path) {
        const same = await content.stored(target.key, path);
        if (same) return { taken: same };
      }
      return {
        ...withBody(request, body),
        properties: {
          ...request.properties,
          'rpm.metadata.name': [facts.name],
          'rpm.metadata.version': [facts.version],
          'rpm.metadata.release': [facts.release],
          'rpm.metadata.arch': [facts.arch],
        },
      };
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local' || path.startsWith('repodata/') || path.startsWith('.arca/')) return;
      await new RpmRepodata(systemContent(app), app).reindex(repo, path);
    },
    async read(content, repo, path) {
      return new RpmRepodata(content, app, made).answer(repo, path);
    },
  };
}
