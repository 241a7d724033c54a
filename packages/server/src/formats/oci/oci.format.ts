import type { Format } from '../format.js';
import { ociRoutes } from './oci.routes.js';
import { MANIFEST_TYPES, ociFormatTypes } from './oci.layout.js';
import { imageContents } from './oci.contents.js';
import { imageFacts } from './oci.image.js';
import { ociDomainEvents } from './oci.events.js';
import { answerChallenge, heldToken, parseChallenge } from './oci.upstream-auth.js';

/** Docker Hub's addresses: an official image there is named `library/{name}` (`nginx` is `library/nginx`). */
const DOCKER_HUB = new Set(['registry-1.docker.io', 'index.docker.io', 'docker.io', 'registry.hub.docker.com']);

/** A stored path's image and what of it the upstream is asked for; undefined for another path. */
function upstreamTarget(path: string, repositoryUrl: string) {
  const byDigest = /^(.+)\/\.(blobs|manifests)\/sha256__([a-f0-9]{64})$/.exec(path);
  const tagList = /^(.+)\/\.tags\/list\.json$/.exec(path);
  const tag = /^(.+)\/([^/]+)\/manifest\.json$/.exec(path);
  const target = byDigest
    ? { image: byDigest[1]!, kind: byDigest[2]!, ref: `sha256:${byDigest[3]}` }
    : tagList
      ? { image: tagList[1]!, kind: 'tags', ref: 'list' }
      : tag
        ? { image: tag[1]!, kind: 'manifests', ref: encodeURIComponent(tag[2]!) }
        : undefined;
  if (!target) return undefined;
  let host = '';
  try {
    host = new URL(repositoryUrl).hostname;
  } catch {
    // no URL: no host-specific naming
  }
  if (DOCKER_HUB.has(host) && !target.image.includes('/')) target.image = `library/${target.image}`;
  return target;
}

/**
 * Where a remote repository's upstream registry serves a stored path: a tag's manifest is
 * `v2/{image}/manifests/{tag}`, a manifest or blob by digest `v2/{image}/manifests|blobs/sha256:…`,
 * the tag list `v2/{image}/tags/list`.
 */
function upstreamPath(path: string, repositoryUrl: string): string {
  const target = upstreamTarget(path, repositoryUrl);
  return target ? `v2/${target.image}/${target.kind}/${target.ref}` : path;
}

/** The token scope pulling a path needs at a registry: `repository:{image}:pull`. */
export function upstreamScope(path: string, repositoryUrl: string): string | undefined {
  const target = upstreamTarget(path, repositoryUrl);
  return target && `repository:${target.image}:pull`;
}

const isTagManifest = (path: string) => /\/[^./][^/]*\/manifest\.json$/.test(path);
/** A tag's manifest and an image's tag list may change upstream; blobs and manifests by digest never do. */
const isMetadata = (path: string) => isTagManifest(path) || /\/\.tags\/list\.json$/.test(path);

/** Docker and OCI images at `/v2/{repoKey}/{image}/…`, for docker, podman, skopeo, oras and the rest. */
export const ociFormat: Format = {
  types: ociFormatTypes,
  defaultUpstream: 'https://registry-1.docker.io/',
  routes: ociRoutes,
  domainEvents: ociDomainEvents,
  remoteMetadata: {
    isMetadata,
    upstreamPath,
    upstreamAuth(repo, path) {
      const scope = upstreamScope(path, repo.url);
      if (scope === undefined) return undefined;
      return {
        held: () => heldToken(repo, scope),
        answer: (challenge, allowed, proxy) => answerChallenge(repo, parseChallenge(challenge), false, allowed, proxy),
      };
    },
    upstreamHeaders: (path): Record<string, string> =>
      isTagManifest(path) || path.includes('/.manifests/') ? { accept: MANIFEST_TYPES.join(', ') } : {},
  },
  versionFolder: true,
  installed: imageContents,
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
