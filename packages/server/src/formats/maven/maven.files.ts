import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict } from '../../core/errors.js';
import {
  systemContent,
  type RepoContent,
  changeMetadataFile,
  readLimited,
  withBody,
} from '../../features/artifacts/index.js';
import type { Resolved, DerivedFile, PlainPaths } from '../../features/artifacts/index.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import {
  artifactMetadata,
  mergeMetadata,
  parseMetadata,
  renderMetadata,
  sameMetadata,
  snapshotMetadata,
  type MavenMetadata,
} from './maven.metadata.js';
import {
  METADATA_FILE,
  checksumOf,
  isMetadataPath,
  isSnapshotVersion,
  parseMavenPath,
  type MavenFile,
} from './maven.path.js';
import { parsePom } from './maven.pom.js';

/** The largest POM or checksum file read into memory to be checked. */
const MAX_DESCRIPTOR_BYTES = 4 * 1024 * 1024;
const XML = 'application/xml';
const HEX_LENGTH = { sha1: 40, md5: 32, sha256: 64 } as const;

export const MAVEN_MESSAGES = {
  checksumMismatch:
    "Checksum policy 'client-checksums' of '{key}' refused '{path}': the {algorithm} sent is '{sent}', the file's is '{actual}'.",
  checksumUnreadable: "'{path}' is not a {algorithm} checksum.",
  pomMismatch:
    "The target deployment path '{path}' does not match the POM's expected path prefix '{expected}'. Please verify your POM content for correctness and make sure the source path is a valid Maven repository root path.",
  pomInvalid: "The POM '{path}' cannot be read: {reason}.",
  pomTooLarge: "The POM '{path}' is larger than 4 MiB.",
  releaseRedeploy:
    "'{path}' is a release that '{key}' already holds, and the repository does not allow releases to be redeployed.",
} as const;

const fill = (message: string, values: Record<string, string>) =>
  message.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);

/** The artifact folders a change at `path` may touch: the file's, or for a folder its own and its parent's. */
function affectedArtifactFolders(path: string): string[] {
  const file = parseMavenPath(path);
  if (file) return [file.artifactFolder];
  const parent = path.split('/').slice(0, -1).join('/');
  return [path, parent].filter((p) => p.split('/').length >= 2);
}

/**
 * Maven 2 repositories at `/artifactory/{repo}/…`: checksum policy and POM consistency on deploy,
 * `maven-metadata.xml` calculated by the server on every deploy and delete, checksum files
 * answered for every file, `-SNAPSHOT` file names resolved to the newest unique build, and the
 * metadata of a virtual repository merged from its members'.
 */
export function mavenPlainPaths(app: FastifyInstance): PlainPaths {
  const system = () => systemContent(app);

  async function filesOf(content: RepoContent, repo: RepositoryRow, folder: string): Promise<ItemRow[]> {
    return (await content.children(repo, folder)).filter((i) => i.folder !== 1);
  }

  /** Writes a calculated metadata file unless it says the same already (read once; again only if another writer won). */
  async function writeMetadata(repo: RepositoryRow, path: string, wanted: MavenMetadata) {
    const content = system();
    await changeMetadataFile(
      content,
      repo,
      path,
      async (found) => parseMetadata((await content.read(found.item)).toString('utf8')),
      () => wanted,
      { serialize: renderMetadata, same: sameMetadata },
    );
  }

  /** The artifact's and each snapshot version's metadata, from what the artifact folder holds now. */
  async function recalculate(repo: RepositoryRow, artifactFolder: string): Promise<void> {
    const content = system();
    const artifactId = artifactFolder.split('/').at(-1)!;
    const groupId = artifactFolder.split('/').slice(0, -1).join('.');
    const versionFiles = new Map<string, { file: MavenFile; modifiedAt: number }[]>();
    const folder = await content.stored(repo.key, artifactFolder);
    if (!folder) return;
    if (folder.folder === 1) {
      for (const child of await content.children(repo, artifactFolder)) {
        if (child.folder !== 1) continue;
        const files = (await filesOf(content, repo, child.path))
          .map((item) => ({ file: parseMavenPath(item.path), modifiedAt: item.modified_at }))
          .filter((f): f is { file: MavenFile; modifiedAt: number } => !!f.file && !checksumOf(f.file.extension));
        if (files.length) versionFiles.set(child.name, files);
      }
    }
    const metadataPath = `${artifactFolder}/${METADATA_FILE}`;
    if (!versionFiles.size) {
      // the last version went: so does the artifact's metadata
      if (await content.stored(repo.key, metadataPath)) await content.remove(repo, metadataPath).catch(() => undefined);
      return;
    }
    const now = Date.now();
    await writeMetadata(repo, metadataPath, artifactMetadata(groupId, artifactId, [...versionFiles.keys()], now));
    for (const [version, files] of versionFiles) {
      if (isSnapshotVersion(version))
        await writeMetadata(repo, `${artifactFolder}/${version}/${METADATA_FILE}`, snapshotMetadata(files, now));
    }
  }

  /** A virtual repository's metadata file, merged from its members'. */
  async function mergedMetadata(content: RepoContent, repo: RepositoryRow, path: string): Promise<Buffer | undefined> {
    const documents: MavenMetadata[] = [];
    for (const member of await content.resolveEach(repo.key, path)) {
      const parsed = parseMetadata((await content.read(member.item)).toString('utf8'));
      if (parsed) documents.push(parsed);
    }
    const merged = mergeMetadata(documents, Date.now());
    return merged && Buffer.from(renderMetadata(merged));
  }

  /** `app-1.0-SNAPSHOT.jar` → the newest unique build of that classifier and extension. */
  async function newestSnapshot(content: RepoContent, repo: RepositoryRow, file: MavenFile) {
    let best: { item: ItemRow; build: number } | undefined;
    for (const item of await filesOf(content, repo, file.versionFolder)) {
      const candidate = parseMavenPath(item.path);
      if (!candidate?.snapshot || candidate.classifier !== file.classifier || candidate.extension !== file.extension)
        continue;
      if (!best || candidate.snapshot.buildNumber > best.build) best = { item, build: candidate.snapshot.buildNumber };
    }
    return best && content.resolve(repo, best.item.path);
  }

  async function read(
    content: RepoContent,
    repo: RepositoryRow,
    path: string,
  ): Promise<Resolved | DerivedFile | undefined> {
    const checksum = checksumOf(path);
    if (checksum) {
      // a remote repository's upstream has its own checksum files
      if (repo.rclass === 'remote') {
        const upstream = await content.resolve(repo, path);
        if (upstream) return upstream;
      }
      const base = (await read(content, repo, checksum.base)) ?? (await content.resolve(repo, checksum.base));
      if (!base) return undefined;
      const hex =
        'body' in base
          ? createHash(checksum.algorithm).update(base.body).digest('hex')
          : base.item.folder === 1
            ? undefined
            : (await content.checksums(base.item))[checksum.algorithm];
      return hex === undefined ? undefined : { body: Buffer.from(hex), contentType: 'text/plain' };
    }
    if (isMetadataPath(path) && repo.rclass === 'virtual') {
      const body = await mergedMetadata(content, repo, path);
      return body && { body, contentType: XML };
    }
    const file = parseMavenPath(path);
    if (file && !file.snapshot && isSnapshotVersion(file.version)) {
      return (await content.resolve(repo, path)) ?? (await newestSnapshot(content, repo, file));
    }
    return undefined;
  }

  return {
    async deploy(content, target, request) {
      const { path } = request;
      const checksum = checksumOf(path);
      if (isMetadataPath(path) || (checksum && isMetadataPath(checksum.base))) {
        // Arca calculates metadata itself, as Artifactory does; what a client sends is taken and dropped
        await readLimited(request.body, MAX_DESCRIPTOR_BYTES);
        return { taken: await content.stored(target.key, checksum ? checksum.base : path) };
      }
      if (checksum) {
        const sent = (await readLimited(request.body, 1024))?.toString('utf8').trim().split(/\s+/)[0]?.toLowerCase();
        if (!sent || !new RegExp(`^[0-9a-f]{${HEX_LENGTH[checksum.algorithm]}}$`).test(sent))
          throw badRequest(fill(MAVEN_MESSAGES.checksumUnreadable, { path, algorithm: checksum.algorithm }));
        const file = await content.stored(target.key, checksum.base);
        if (!file || file.folder === 1) return { taken: undefined };
        const actual = (await content.checksums(file))[checksum.algorithm];
        if (target.checksum_policy !== 'server-generated-checksums' && sent !== actual) {
          throw conflict(
            fill(MAVEN_MESSAGES.checksumMismatch, {
              key: target.key,
              path: checksum.base,
              algorithm: checksum.algorithm,
              sent,
              actual,
            }),
          );
        }
        return { taken: file };
      }
      const file = parseMavenPath(path);
      if (file && !isSnapshotVersion(file.version) && Number(target.redeploy_releases) === 0) {
        const existing = await content.stored(target.key, path);
        if (existing && existing.folder !== 1)
          throw conflict(fill(MAVEN_MESSAGES.releaseRedeploy, { path, key: target.key }));
      }
      if (file?.extension === 'pom' && Number(target.suppress_pom_checks) !== 1 && !request.checksumDeploy) {
        const body = await readLimited(request.body, MAX_DESCRIPTOR_BYTES);
        if (!body) throw badRequest(fill(MAVEN_MESSAGES.pomTooLarge, { path }));
        let pom;
        try {
          pom = parsePom(body.toString('utf8'));
        } catch (error) {
          throw badRequest(fill(MAVEN_MESSAGES.pomInvalid, { path, reason: (error as Error).message }));
        }
        const expected = `${pom.groupId.replaceAll('.', '/')}/${pom.artifactId}/${pom.version}`;
        if (expected !== file.versionFolder) throw conflict(fill(MAVEN_MESSAGES.pomMismatch, { path, expected }));
        return withBody(request, body);
      }
      return request;
    },

    async changed(repo, path) {
      if (repo.rclass !== 'local' || isMetadataPath(path)) return;
      for (const folder of affectedArtifactFolders(path)) await recalculate(repo, folder);
    },

    read,
  };
}
