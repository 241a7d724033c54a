import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { HttpError } from '../../core/errors.js';
import type { RepoContent } from '../../features/artifacts/index.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import {
  MANIFESTS,
  blobPath,
  checkDigest,
  checkTag,
  digestOfName,
  isDigest,
  manifestPath,
  ociError,
  parseManifest,
  tagListPath,
  tagPath,
  MEDIA_TYPES,
} from './oci.layout.js';

/** The properties a stored manifest carries: what it was sent as, what it refers to. */
export const PROPERTY = { mediaType: 'oci.mediaType', subject: 'oci.subject', artifactType: 'oci.artifactType' };
/** The largest manifest accepted. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

export interface Manifest {
  body: Buffer;
  mediaType: string;
  digest: string;
  item: ItemRow;
}

const digestOf = (body: Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;

/** The media type of a stored manifest: as it was sent, else as it says, else by its shape. */
async function mediaTypeOf(content: RepoContent, item: ItemRow, body: Buffer): Promise<string> {
  const sent = (await content.properties(item))[PROPERTY.mediaType]?.[0];
  if (sent) return sent;
  try {
    const doc = JSON.parse(body.toString('utf8')) as { mediaType?: string; manifests?: unknown };
    return doc.mediaType ?? (Array.isArray(doc.manifests) ? MEDIA_TYPES.ociIndex : MEDIA_TYPES.ociManifest);
  } catch {
    return MEDIA_TYPES.ociManifest;
  }
}

/** A manifest by tag or digest, through a virtual repository's members or a remote's upstream. */
export async function getManifest(
  content: RepoContent,
  repo: RepositoryRow,
  image: string,
  reference: string,
): Promise<Manifest> {
  const byDigest = isDigest(reference);
  if (!byDigest) checkTag(reference);
  const found = await content.resolve(repo, byDigest ? manifestPath(image, reference) : tagPath(image, reference));
  if (!found || found.item.folder === 1)
    throw ociError('MANIFEST_UNKNOWN', `Manifest '${reference}' of '${image}' is not in '${repo.key}'.`);
  const body = await content.read(found.item);
  return { body, mediaType: await mediaTypeOf(content, found.item, body), digest: digestOf(body), item: found.item };
}

/** A blob of an image; 404 BLOB_UNKNOWN when the repository (or its members, its upstream) lacks it. */
export async function findBlob(content: RepoContent, repo: RepositoryRow, image: string, digest: string) {
  checkDigest(digest);
  const found = await content.resolve(repo, blobPath(image, digest));
  if (!found || found.item.folder === 1)
    throw ociError('BLOB_UNKNOWN', `Blob '${digest}' is not in '${repo.key}/${image}'.`);
  return found.item;
}

const deployBuffer = (
  content: RepoContent,
  target: RepositoryRow,
  path: string,
  body: Buffer,
  properties: Record<string, string[]>,
) =>
  content.deploy({
    repoKey: target.key,
    target,
    path,
    properties,
    body: undefined,
    contentLength: body.length,
    // hashed here once (the digest names it); the store takes the digests rather than hashing again
    known: {
      bytes: body,
      sha256: createHash('sha256').update(body).digest('hex'),
      sha1: createHash('sha1').update(body).digest('hex'),
      md5: createHash('md5').update(body).digest('hex'),
    },
    checksums: {},
    checksumDeploy: false,
  });

/**
 * Stores a manifest under its digest, and under its tag when pushed by one. Everything it refers
 * to must be in the repository already (the blobs of an image, the manifests of an index).
 */
export async function putManifest(
  content: RepoContent,
  repoKey: string,
  image: string,
  reference: string,
  body: Buffer,
  contentType: string | undefined,
): Promise<{ digest: string; subject?: string }> {
  const target = await content.writeTarget(repoKey);
  const byDigest = isDigest(reference);
  if (!byDigest) checkTag(reference);
  const manifest = parseManifest(body, contentType);
  const digest = digestOf(body);
  if (byDigest && reference !== digest)
    throw ociError('DIGEST_INVALID', `The manifest's digest is ${digest}, not ${reference}.`);
  await content.authorize('deploy', target.key, manifestPath(image, digest));
  for (const blob of manifest.blobs) {
    if (!(await content.stored(target.key, blobPath(image, blob.digest))))
      throw ociError(
        'MANIFEST_BLOB_UNKNOWN',
        `The manifest refers to blob '${blob.digest}', which '${image}' does not have.`,
      );
  }
  for (const child of manifest.manifests) {
    if (!(await content.stored(target.key, manifestPath(image, child.digest))))
      throw ociError(
        'MANIFEST_BLOB_UNKNOWN',
        `The index refers to manifest '${child.digest}', which '${image}' does not have.`,
      );
  }
  const properties: Record<string, string[]> = { [PROPERTY.mediaType]: [manifest.mediaType] };
  if (manifest.subject) properties[PROPERTY.subject] = [manifest.subject];
  if (manifest.artifactType) properties[PROPERTY.artifactType] = [manifest.artifactType];
  await deployBuffer(content, target, manifestPath(image, digest), body, properties);
  if (!byDigest) await deployBuffer(content, target, tagPath(image, reference), body, properties);
  return { digest, ...(manifest.subject ? { subject: manifest.subject } : {}) };
}

/** The tags of an image, sorted; a virtual repository's are its members'. */
export async function listTags(content: RepoContent, repo: RepositoryRow, image: string): Promise<string[]> {
  const tags = new Set<string>();
  for (const child of await content.children(repo, image)) {
    if (child.folder !== 1 || child.name.startsWith('.')) continue;
    const manifest = await content.resolve(repo, tagPath(image, child.name)).catch(() => undefined);
    if (manifest && manifest.item.folder !== 1) tags.add(child.name);
  }
  // what a remote's upstream lists (a virtual repository's remote members' too), kept as metadata
  if (repo.rclass !== 'local') {
    for (const { item } of await content.resolveEach(repo.key, tagListPath(image)).catch(() => [])) {
      let listed: unknown;
      try {
        listed = (JSON.parse((await content.read(item)).toString('utf8')) as { tags?: unknown }).tags;
      } catch {
        continue;
      }
      for (const tag of Array.isArray(listed) ? listed : []) if (typeof tag === 'string' && isTag(tag)) tags.add(tag);
    }
  }
  return [...tags].sort();
}

const isTag = (tag: string) => {
  try {
    checkTag(tag);
    return true;
  } catch {
    return false;
  }
};

/** Removes a manifest by digest with every tag that names it, or one tag. */
export async function deleteManifest(content: RepoContent, repo: RepositoryRow, image: string, reference: string) {
  const repoKey = repo.key;
  if (!isDigest(reference)) {
    checkTag(reference);
    if (!(await content.stored(repoKey, tagPath(image, reference))))
      throw ociError('MANIFEST_UNKNOWN', `Tag '${reference}' of '${image}' is not in '${repoKey}'.`);
    return content.remove(repo, `${image}/${reference}`);
  }
  if (!(await content.stored(repoKey, manifestPath(image, reference))))
    throw ociError('MANIFEST_UNKNOWN', `Manifest '${reference}' of '${image}' is not in '${repoKey}'.`);
  for (const tag of await listTags(content, repo, image)) {
    const item = await content.stored(repoKey, tagPath(image, tag));
    if (item && `sha256:${item.sha256}` === reference) await content.remove(repo, `${image}/${tag}`);
  }
  await content.remove(repo, manifestPath(image, reference));
}

/** The referrers API's answer: an index of the manifests whose subject is `digest`. */
export async function referrers(
  content: RepoContent,
  repo: RepositoryRow,
  image: string,
  digest: string,
  artifactType: string | undefined,
) {
  checkDigest(digest);
  const manifests = [];
  for (const child of await content.children(repo, `${image}/${MANIFESTS}`).catch(() => [])) {
    const properties = await content.properties(child);
    if (properties[PROPERTY.subject]?.[0] !== digest) continue;
    const type = properties[PROPERTY.artifactType]?.[0] ?? '';
    if (artifactType && type !== artifactType) continue;
    let annotations: Record<string, string> | undefined;
    try {
      annotations = (
        JSON.parse((await content.read(child)).toString('utf8')) as { annotations?: Record<string, string> }
      ).annotations;
    } catch {
      annotations = undefined;
    }
    manifests.push({
      mediaType: properties[PROPERTY.mediaType]?.[0] ?? MEDIA_TYPES.ociManifest,
      digest: digestOfName(child.name)!,
      size: Number(child.size),
      ...(type ? { artifactType: type } : {}),
      ...(annotations ? { annotations } : {}),
    });
  }
  return { schemaVersion: 2, mediaType: MEDIA_TYPES.ociIndex, manifests };
}

/**
 * Where a part of a chunked upload starts, from its `Content-Range` (`<start>-<end>`, inclusive,
 * as the distribution spec writes it; `bytes=` or `bytes ` before it tolerated). Undefined when
 * the header is absent (the part continues the upload). A range that is not two numbers, runs
 * backwards, or disagrees with the part's Content-Length answers 416 before anything is read.
 */
export function partStart(header: string | undefined, contentLength: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const invalid = () =>
    new HttpError(416, `'${header}' is not a range of the upload (start-end, in bytes).`, 'BLOB_UPLOAD_INVALID');
  const match = /^(?:bytes[= ])?(\d{1,15})-(\d{1,15})$/.exec(header.trim());
  if (!match) throw invalid();
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (end < start) throw invalid();
  if (contentLength !== undefined && Number(contentLength) !== end - start + 1) throw invalid();
  return start;
}

/** Completes an upload: its bytes (and a last part) deployed as the blob, verified against `digest`. */
export async function finishUpload(
  content: RepoContent,
  target: RepositoryRow,
  image: string,
  id: string,
  digest: string,
  lastPart: Readable | undefined,
): Promise<void> {
  checkDigest(digest);
  if (lastPart) await content.uploads.append(target.key, id, lastPart);
  try {
    await deployBlob(content, target, image, digest, { upload: id });
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409)
      throw ociError('DIGEST_INVALID', `The uploaded content does not have the digest ${digest}.`);
    throw error;
  }
}

/** Mounts a blob another image (of this or another repository the caller may read) has; false when it has none. */
export async function mountBlob(
  content: RepoContent,
  target: RepositoryRow,
  image: string,
  digest: string,
  from: string,
): Promise<boolean> {
  checkDigest(digest);
  const slash = from.indexOf('/');
  if (slash < 1) return false;
  const source = await content
    .stored(from.slice(0, slash), blobPath(from.slice(slash + 1), digest))
    .catch(() => undefined);
  if (!source) return false;
  await deployBlob(content, target, image, digest, 'stored');
  return true;
}

/** Records a blob of an image from an upload received in parts, or from content already stored (a mount). */
function deployBlob(
  content: RepoContent,
  target: RepositoryRow,
  image: string,
  digest: string,
  from: { upload: string } | 'stored',
) {
  return content.deploy({
    repoKey: target.key,
    target,
    path: blobPath(image, digest),
    properties: {},
    body: undefined,
    contentLength: undefined,
    checksums: { sha256: digest.slice('sha256:'.length) },
    checksumDeploy: from === 'stored',
    ...(from === 'stored' ? {} : { upload: from.upload }),
  });
}
