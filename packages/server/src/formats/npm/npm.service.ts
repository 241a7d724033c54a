import { createHash } from 'node:crypto';
import semver from 'semver';
import validateName from 'validate-npm-package-name';
import { NPM_MAX_VERSION_METADATA_BYTES, NPM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import type { RepoContent, Resolved } from '../../features/artifacts/index.js';
import { changeMetadataFile } from '../../features/artifacts/index.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import {
  applyUpdate,
  mergePackuments,
  packumentPath,
  parsePackument,
  present,
  tarballFile,
  tarballPath,
  withTag,
  withVersion,
  withoutTag,
  type Packument,
  type VersionManifest,
} from './npm.packument.js';
import { digestsOf, inspectTarball } from './npm.tarball.js';

/** Checks a package name as npm does (old names may be read, new ones must follow today's rules). */
export function checkName(name: string, forPublish: boolean): void {
  const result = validateName(name);
  const valid = forPublish ? result.validForNewPackages : result.validForOldPackages;
  // a scoped name's parts are checked too: nothing may become '.' or '..' in a stored path
  const parts = name.split('/');
  const unsafe = parts.some((part) => part === '' || part.startsWith('.')) || parts.length > 2;
  if (!valid || unsafe) {
    const reason =
      [...(result.errors ?? []), ...(result.warnings ?? [])][0] ?? 'name parts may not start with a period';
    throw badRequest(fill(NPM_MESSAGES.badName, { name, reason }));
  }
}

/**
 * Packuments as answered, per process: the key names the stored packuments' contents by SHA-256
 * (so an answer can never be stale) and the form. What is kept holds no address: the registry's
 * stands as a mark, replaced as each request is answered (a Host header never lands in the cache).
 * Most answers kept.
 */
const ANSWERS_KEPT = 2000;
const REGISTRY_MARK = 'arca-registry-address:';
const answers = new Map<string, string>();

function remember(key: string, body: string): void {
  if (answers.size >= ANSWERS_KEPT) answers.delete(answers.keys().next().value!);
  answers.set(key, body);
}

/** A kept answer for one registry address, with its ETag (the address is part of what it says). */
function forRegistry(key: string, body: string, registry: string): { body: string; etag: string } {
  return {
    body: body.split(REGISTRY_MARK).join(JSON.stringify(registry).slice(1, -1)),
    etag: `"${createHash('sha1').update(`${key}|${registry}`).digest('hex')}"`,
  };
}

/** The packuments of one package in one repository, read and written through the door. */
export class NpmPackages {
  constructor(private readonly content: RepoContent) {}

  private async parse(found: Resolved): Promise<Packument | undefined> {
    return parsePackument((await this.content.read(found.item)).toString('utf8'));
  }

  /** The stored packuments behind what a repository answers for a package (a virtual one's readable members'). */
  private async sources(repo: RepositoryRow, name: string): Promise<Resolved[]> {
    const path = packumentPath(name);
    if (repo.rclass === 'virtual') return this.content.resolveEach(repo.key, path);
    const found = await this.content.resolve(repo, path);
    return found ? [found] : [];
  }

  private async merged(sources: Resolved[]): Promise<Packument | undefined> {
    const docs: Packument[] = [];
    for (const found of sources) {
      const doc = await this.parse(found);
      if (doc) docs.push(doc);
    }
    return mergePackuments(docs);
  }

  /**
   * The packument a repository answers: a local one's, a remote one's cached (or fetched, or
   * refreshed once its metadata period is over) copy, or the merge of a virtual one's readable
   * members. Undefined when no readable repository has the package.
   */
  async packument(repo: RepositoryRow, name: string): Promise<Packument | undefined> {
    return this.merged(await this.sources(repo, name));
  }

  /**
   * The packument as a client gets it (see `present`), serialised, with an ETag; kept per
   * process under the stored contents' SHA-256s, so that a hot package costs one item lookup.
   */
  async answer(
    repo: RepositoryRow,
    name: string,
    registry: string,
    abbreviated: boolean,
  ): Promise<{ body: string; etag: string } | undefined> {
    const sources = await this.sources(repo, name);
    if (!sources.length) return undefined;
    const key = `${sources.map((s) => s.item.sha256).join(',')}|${abbreviated ? 'a' : 'f'}`;
    const known = answers.get(key);
    if (known !== undefined) return forRegistry(key, known, registry);
    const doc = await this.merged(sources);
    if (!doc) return undefined;
    const body = JSON.stringify(present(doc, REGISTRY_MARK, abbreviated));
    remember(key, body);
    return forRegistry(key, body, registry);
  }

  /** Reads, changes and writes back the packument of a repository writes land in (see `changeMetadataFile`). */
  private change(
    target: RepositoryRow,
    name: string,
    update: (current: Packument | undefined) => Packument | Promise<Packument>,
    read?: { found: Resolved | undefined; current: Packument | undefined },
  ): Promise<Packument> {
    return changeMetadataFile(this.content, target, packumentPath(name), (found) => this.parse(found), update, {
      ...(read ? { read } : {}),
    });
  }

  private async existing(target: RepositoryRow, name: string): Promise<Packument> {
    const found = await this.content.resolve(target, packumentPath(name));
    const doc = found ? await this.parse(found) : undefined;
    if (!doc) throw notFound(NPM_MESSAGES.notFound);
    return doc;
  }

  /**
   * `npm publish`: one version with its tarball, checked before anything is stored (name,
   * version, metadata size, the tarball's gzip and package.json, its length, sha512 integrity
   * and shasum). The tarball is stored first, then the packument names it: a failure before the
   * packument is written leaves no version that npm can see.
   */
  async publish(
    repo: string | RepositoryRow,
    name: string,
    body: Packument & { _attachments?: Record<string, unknown> },
    publisher: { name: string; email: string },
  ) {
    checkName(name, true);
    if (body.name !== undefined && body.name !== name) {
      throw badRequest(fill(NPM_MESSAGES.nameMismatch, { found: String(body.name), name }));
    }
    const versions = Object.entries(body.versions ?? {});
    const attachments = Object.values(body._attachments ?? {});
    if (versions.length !== 1) throw badRequest(NPM_MESSAGES.oneVersion);
    if (attachments.length !== 1)
      throw badRequest(attachments.length ? NPM_MESSAGES.oneVersion : NPM_MESSAGES.noAttachment);
    const [version, manifest] = versions[0]! as [string, VersionManifest];
    if (!semver.valid(version) || semver.clean(version) !== version || manifest?.version !== version) {
      throw badRequest(fill(NPM_MESSAGES.badVersion, { version }));
    }
    if (manifest.name !== name)
      throw badRequest(fill(NPM_MESSAGES.nameMismatch, { found: String(manifest.name), name }));
    const size = Buffer.byteLength(JSON.stringify(manifest));
    if (size > NPM_MAX_VERSION_METADATA_BYTES) {
      throw badRequest(
        fill(NPM_MESSAGES.metadataTooLarge, {
          name,
          version,
          size: String(size),
          max: String(NPM_MAX_VERSION_METADATA_BYTES),
        }),
      );
    }
    const attachment = attachments[0] as { data?: unknown; length?: unknown };
    if (typeof attachment.data !== 'string') throw badRequest(NPM_MESSAGES.noAttachment);
    const tarball = Buffer.from(attachment.data, 'base64');
    if (typeof attachment.length === 'number' && attachment.length !== tarball.length) {
      throw badRequest(
        fill(NPM_MESSAGES.lengthMismatch, { actual: String(tarball.length), expected: String(attachment.length) }),
      );
    }
    const digests = digestsOf(tarball);
    const dist = manifest.dist ?? ({} as VersionManifest['dist']);
    if (dist.integrity && dist.integrity.startsWith('sha512-') && dist.integrity !== digests.integrity) {
      throw badRequest(fill(NPM_MESSAGES.integrityMismatch, { actual: digests.integrity, expected: dist.integrity }));
    }
    if (dist.shasum && dist.shasum !== digests.shasum) {
      throw badRequest(fill(NPM_MESSAGES.shasumMismatch, { actual: digests.shasum, expected: dist.shasum }));
    }
    const facts = await inspectTarball(tarball);
    if (!facts) throw badRequest(NPM_MESSAGES.badTarball);
    if (facts.packageJson.name !== name || facts.packageJson.version !== version) {
      throw badRequest(
        fill(NPM_MESSAGES.tarballMismatch, {
          found: `${String(facts.packageJson.name)}@${String(facts.packageJson.version)}`,
          expected: `${name}@${version}`,
        }),
      );
    }

    // one resolution: the write target, the packument and the tarball's digests serve every step below
    const target = await this.content.writeTarget(repo);
    const before = await this.content.resolve(target, packumentPath(name));
    const current = before ? await this.parse(before) : undefined;
    // refused before anything is stored, and again (atomically) when the packument is written
    if (current?.versions[version]) withVersion(current, { name, version, manifest, tags: {} });
    const file = tarballFile(name, version);
    const stray = await this.content.resolve(target, tarballPath(name, file));
    await this.content.deploy({
      repoKey: target.key,
      target,
      path: tarballPath(name, file),
      properties: { 'npm.name': [name], 'npm.version': [version] },
      body: undefined,
      known: { bytes: tarball, sha256: digests.sha256, sha1: digests.shasum, md5: digests.md5 },
      contentLength: tarball.length,
      checksums: {},
      checksumDeploy: false,
      // a tarball no packument names (a publish that failed midway) may be replaced; a published one never
      ifCurrent: stray?.item.sha256 ?? null,
    });
    const stored: VersionManifest = {
      ...manifest,
      _id: `${name}@${version}`,
      _npmUser: publisher,
      maintainers:
        Array.isArray(manifest.maintainers) && manifest.maintainers.length ? manifest.maintainers : [publisher],
      dist: {
        ...dist,
        integrity: digests.integrity,
        shasum: digests.shasum,
        tarball: tarballPath(name, file),
        fileCount: facts.fileCount,
        unpackedSize: facts.unpackedSize,
      },
    };
    const tags = Object.fromEntries(
      Object.entries(body['dist-tags'] ?? {}).filter((entry): entry is [string, string] => entry[1] === version),
    );
    return this.change(target, name, (existing) => withVersion(existing, { name, version, manifest: stored, tags }), {
      found: before,
      current,
    });
  }

  /**
   * A metadata update: `npm deprecate` (needs deploy) or the first step of `npm unpublish
   * name@version` (needs delete on the version's tarball, which is removed with it).
   */
  async update(repoKey: string, name: string, sent: Packument): Promise<Packument> {
    checkName(name, false);
    const target = await this.content.writeTarget(repoKey);
    // the versions left out go first (the door checks delete on each), then the packument says so
    const { removed } = applyUpdate(await this.existing(target, name), sent);
    const current = await this.existing(target, name);
    for (const version of removed) {
      const file = current.versions[version]?.dist.tarball.split('/').pop() ?? tarballFile(name, version);
      await this.removeIfThere(target.key, tarballPath(name, file));
    }
    return this.change(target, name, (fresh) => {
      if (!fresh) throw notFound(NPM_MESSAGES.notFound);
      return applyUpdate(fresh, sent).doc;
    });
  }

  /** The tarball of a version, or the whole package (its packument and tarballs). */
  async removeTarball(repoKey: string, name: string, file: string): Promise<void> {
    checkName(name, false);
    const target = await this.content.writeTarget(repoKey);
    if (await this.removeIfThere(target.key, tarballPath(name, file))) return;
    // npm unpublish removes the version from the packument first, which removed its tarball
    const doc = await this.existing(target, name);
    if (Object.values(doc.versions).some((v) => v.dist.tarball.split('/').pop() === file)) {
      throw notFound(NPM_MESSAGES.notFound);
    }
  }

  async removePackage(repoKey: string, name: string): Promise<void> {
    checkName(name, false);
    const target = await this.content.writeTarget(repoKey);
    await this.existing(target, name);
    await this.removeIfThere(target.key, `.npm/${name}`);
    await this.removeIfThere(target.key, name);
  }

  private async removeIfThere(repoKey: string, path: string): Promise<boolean> {
    try {
      await this.content.remove(repoKey, path);
      return true;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return false;
      throw error;
    }
  }

  async tags(repo: RepositoryRow, name: string): Promise<Record<string, string>> {
    const doc = await this.packument(repo, name);
    if (!doc) throw notFound(NPM_MESSAGES.notFound);
    return doc['dist-tags'];
  }

  async setTag(repoKey: string, name: string, tag: string, version: string): Promise<Record<string, string>> {
    const target = await this.content.writeTarget(repoKey);
    const doc = await this.change(target, name, (current) => {
      if (!current) throw notFound(NPM_MESSAGES.notFound);
      return withTag(current, tag, version);
    });
    return doc['dist-tags'];
  }

  async removeTag(repoKey: string, name: string, tag: string): Promise<Record<string, string>> {
    const target = await this.content.writeTarget(repoKey);
    const doc = await this.change(target, name, (current) => {
      if (!current) throw notFound(NPM_MESSAGES.notFound);
      return withoutTag(current, tag);
    });
    return doc['dist-tags'];
  }

  /** The packages of a repository (a virtual one's readable members' merged), by name. */
  async names(repo: RepositoryRow): Promise<string[]> {
    const names: string[] = [];
    const folders = (items: ItemRow[]) => items.filter((i) => i.folder === 1).map((i) => i.name);
    for (const top of folders(await this.content.children(repo, '.npm').catch(() => []))) {
      if (!top.startsWith('@')) names.push(top);
      else
        for (const scoped of folders(await this.content.children(repo, `.npm/${top}`))) names.push(`${top}/${scoped}`);
    }
    return names.sort();
  }
}
