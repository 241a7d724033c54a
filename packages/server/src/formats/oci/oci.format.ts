import type { Format } from '../format.js';
import { ociRoutes } from './oci.routes.js';
import { MANIFEST_TYPES, ociFormatTypes } from './oci.layout.js';
import { imageFacts } from './oci.image.js';

/**
 * Where a remote repository's upstream registry serves a stored path: a tag's manifest is
 * `v2/{image}/manifests/{tag}`, a manifest or blob by digest `v2/{image}/manifests|blobs/sha256:…`.
 */
function upstreamPath(path: string): string {
  const blob = /^(.+)\/\.blobs\/sha256__([a-f0-9]{64})$/.exec(path);
  if (blob) return `v2/${blob[1]}/blobs/sha256:${blob[2]}`;
  const manifest = /^(.+)\/\.manifests\/sha256__([a-f0-9]{64})$/.exec(path);
  if (manifest) return `v2/${manifest[1]}/manifests/sha256:${manifest[2]}`;
  const tag = /^(.+)\/([^/]+)\/manifest\.json$/.exec(path);
  if (tag) return `v2/${tag[1]}/manifests/${encodeURIComponent(tag[2]!)}`;
  return path;
}

const isTagManifest = (path: string) => /\/[^./][^/]*\/manifest\.json$/.test(path);

/** Docker and OCI images at `/v2/{repoKey}/{image}/…`, for docker, podman, skopeo, oras and the rest. */
export const ociFormat: Format = {
  types: ociFormatTypes,
  label: 'Docker',
  defaultUpstream: 'https://registry-1.docker.io/',
  routes: ociRoutes,
  remoteMetadata: {
    // a tag may move; blobs and manifests by digest never change
    isMetadata: isTagManifest,
    upstreamPath,
    upstreamHeaders: (path): Record<string, string> =>
      path.includes('/.blobs/') ? {} : { accept: MANIFEST_TYPES.join(', ') },
  },
  /** A tag: the image is the package, the tag its version, with digest, platforms and layers. */
  async index(file, content) {
    const facts = await imageFacts(content, file.repo_key, file);
    if (!facts) return undefined;
    return {
      name: facts.image,
      version: facts.tag,
      fields: {
        digest: facts.digest,
        mediaType: facts.mediaType,
        platforms: facts.platforms,
        layers: String(facts.layers.length),
        totalSize: String(facts.totalSize),
        ...(facts.created ? { created: facts.created } : {}),
      },
    };
  },
};
