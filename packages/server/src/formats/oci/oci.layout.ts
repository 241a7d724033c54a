import { HttpError } from '../../core/errors.js';

/**
 * How an image lives in a repository, laid out like Artifactory's: `{image}/{tag}/manifest.json`
 * for each tag, and beside them, in folders no image name or tag can start with, every manifest
 * by digest (`{image}/.manifests/sha256__{hex}`) and every blob (`{image}/.blobs/sha256__{hex}`).
 * A blob's bytes are stored once whatever repositories and images hold it (the binary store is
 * content-addressed).
 */
/** The repositories' package types served as container registries. */
export const ociFormatTypes: readonly string[] = ['docker', 'oci'];

export const MEDIA_TYPES = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;
export const MANIFEST_TYPES: readonly string[] = Object.values(MEDIA_TYPES);
export const isIndexType = (type: string) => type === MEDIA_TYPES.ociIndex || type === MEDIA_TYPES.dockerList;

/** The OCI distribution spec's error codes, with the status each is answered with. */
export const OCI_ERRORS = {
  BLOB_UNKNOWN: 404,
  BLOB_UPLOAD_INVALID: 400,
  BLOB_UPLOAD_UNKNOWN: 404,
  DIGEST_INVALID: 400,
  MANIFEST_BLOB_UNKNOWN: 400,
  MANIFEST_INVALID: 400,
  MANIFEST_UNKNOWN: 404,
  NAME_INVALID: 400,
  NAME_UNKNOWN: 404,
  SIZE_INVALID: 400,
  TAG_INVALID: 400,
  UNAUTHORIZED: 401,
  DENIED: 403,
  UNSUPPORTED: 415,
} as const;
export type OciErrorCode = keyof typeof OCI_ERRORS;

export const ociError = (code: OciErrorCode, message: string) => new HttpError(OCI_ERRORS[code], message, code);

const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

export function checkImageName(image: string): void {
  if (!image || image.length > 255 || !image.split('/').every((c) => COMPONENT.test(c)))
    throw ociError('NAME_INVALID', `Invalid repository name '${image}'.`);
}

export function checkTag(tag: string): void {
  if (!TAG.test(tag))
    throw ociError('TAG_INVALID', `Invalid tag '${tag}': tags match [A-Za-z0-9_][A-Za-z0-9._-]{0,127}.`);
}

export const isDigest = (reference: string) => DIGEST.test(reference);

export function checkDigest(digest: string): string {
  if (!isDigest(digest)) throw ociError('DIGEST_INVALID', `Invalid or unsupported digest '${digest}': sha256 only.`);
  return digest.slice('sha256:'.length);
}

export const blobPath = (image: string, digest: string) => `${image}/.blobs/sha256__${digest.slice(7)}`;
export const manifestPath = (image: string, digest: string) => `${image}/.manifests/sha256__${digest.slice(7)}`;
export const tagPath = (image: string, tag: string) => `${image}/${tag}/manifest.json`;
/** Where a remote repository keeps its upstream's tag list of an image (metadata, fetched again when stale). */
export const tagListPath = (image: string) => `${image}/.tags/list.json`;
export const BLOBS = '.blobs';
export const MANIFESTS = '.manifests';

/** `sha256__{hex}` → `sha256:{hex}`. */
export const digestOfName = (name: string) => (name.startsWith('sha256__') ? `sha256:${name.slice(8)}` : undefined);

/**
 * A request path below `/v2/` as the repository key, the image name and what is asked for. The
 * key is the name's first component (`/v2/docker-local/team/app/manifests/1.0`).
 */
export type Target =
  | { kind: 'blob'; digest: string }
  | { kind: 'upload'; session: string }
  | { kind: 'manifest'; reference: string }
  | { kind: 'tags' }
  | { kind: 'referrers'; digest: string };

export function parseTarget(rest: string): { repoKey: string; image: string; target: Target } | undefined {
  const patterns: [RegExp, (m: RegExpExecArray) => Target][] = [
    [/^(.+)\/blobs\/uploads\/([^/]*)$/, (m) => ({ kind: 'upload', session: m[2]! })],
    [/^(.+)\/blobs\/([^/]+)$/, (m) => ({ kind: 'blob', digest: m[2]! })],
    [/^(.+)\/manifests\/([^/]+)$/, (m) => ({ kind: 'manifest', reference: m[2]! })],
    [/^(.+)\/tags\/list$/, () => ({ kind: 'tags' })],
    [/^(.+)\/referrers\/([^/]+)$/, (m) => ({ kind: 'referrers', digest: m[2]! })],
  ];
  for (const [pattern, target] of patterns) {
    const match = pattern.exec(rest);
    if (!match) continue;
    const name = match[1]!;
    const slash = name.indexOf('/');
    if (slash < 1) throw ociError('NAME_INVALID', `'${name}' names no repository: use {repository key}/{image}.`);
    const image = name.slice(slash + 1);
    checkImageName(image);
    return { repoKey: name.slice(0, slash), image, target: target(match) };
  }
  return undefined;
}

/** What a manifest says of itself, or why it is no manifest. */
export interface ParsedManifest {
  mediaType: string;
  /** Blobs an image manifest references (config and layers, foreign layers left out). */
  blobs: { digest: string; size: number }[];
  /** Manifests an index references. */
  manifests: { digest: string; platform?: { architecture?: string; os?: string; variant?: string } }[];
  subject?: string;
  artifactType?: string;
  config?: { digest: string; mediaType: string };
  layers: { digest: string; size: number; mediaType: string }[];
}

export function parseManifest(body: Buffer, contentType: string | undefined): ParsedManifest {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw ociError('MANIFEST_INVALID', 'The manifest is not valid JSON.');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw ociError('MANIFEST_INVALID', 'The manifest is not a JSON object.');
  const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
  const sent = contentType?.split(';')[0]!.trim();
  const mediaType =
    declared ??
    (sent && sent !== 'application/json'
      ? sent
      : Array.isArray(doc.manifests)
        ? MEDIA_TYPES.ociIndex
        : MEDIA_TYPES.ociManifest);
  if (!MANIFEST_TYPES.includes(mediaType))
    throw ociError('MANIFEST_INVALID', `Unsupported manifest media type '${mediaType}'.`);
  if (declared && sent && sent !== 'application/json' && sent !== declared)
    throw ociError('MANIFEST_INVALID', `The manifest says it is '${declared}' but was sent as '${sent}'.`);
  if (doc.schemaVersion !== 2) throw ociError('MANIFEST_INVALID', 'Only schemaVersion 2 manifests are accepted.');
  const descriptor = (value: unknown) => {
    const d = value as { digest?: unknown; size?: unknown; mediaType?: unknown; urls?: unknown; platform?: unknown };
    if (!d || typeof d.digest !== 'string' || !isDigest(d.digest))
      throw ociError('MANIFEST_INVALID', 'A descriptor of the manifest has no valid sha256 digest.');
    return d as {
      digest: string;
      size?: number;
      mediaType?: string;
      urls?: unknown;
      platform?: ParsedManifest['manifests'][number]['platform'];
    };
  };
  const subject = doc.subject ? descriptor(doc.subject).digest : undefined;
  const artifactType = typeof doc.artifactType === 'string' ? doc.artifactType : undefined;
  if (isIndexType(mediaType)) {
    if (!Array.isArray(doc.manifests)) throw ociError('MANIFEST_INVALID', 'An index needs a manifests list.');
    return {
      mediaType,
      blobs: [],
      manifests: doc.manifests.map((m) => {
        const d = descriptor(m);
        return { digest: d.digest, ...(d.platform ? { platform: d.platform } : {}) };
      }),
      layers: [],
      ...(subject ? { subject } : {}),
      ...(artifactType ? { artifactType } : {}),
    };
  }
  if (!doc.config || !Array.isArray(doc.layers))
    throw ociError('MANIFEST_INVALID', 'An image manifest needs a config and layers.');
  const config = descriptor(doc.config);
  const layers = doc.layers.map(descriptor);
  return {
    mediaType,
    blobs: [config, ...layers.filter((l) => !Array.isArray(l.urls))].map((d) => ({
      digest: d.digest,
      size: Number(d.size ?? 0),
    })),
    manifests: [],
    config: { digest: config.digest, mediaType: config.mediaType ?? '' },
    layers: layers.map((l) => ({ digest: l.digest, size: Number(l.size ?? 0), mediaType: l.mediaType ?? '' })),
    ...(subject ? { subject } : {}),
    ...((artifactType ?? config.mediaType) ? { artifactType: artifactType ?? config.mediaType! } : {}),
  };
}
