/**
 * The npm registry protocol at `/artifactory/api/npm/{repoKey}/`: the answers npm, pnpm and yarn
 * read, and the messages a refused publish or change answers with.
 */

/** The media type of abbreviated packuments ("corgis"), which installs ask for. */
export const NPM_ABBREVIATED_TYPE = 'application/vnd.npm.install-v1+json';

/** Most bytes of one version's metadata (its package.json as published, readme included). */
export const NPM_MAX_VERSION_METADATA_BYTES = 2 * 1024 * 1024;

/** Most bytes of a publish request (metadata and the base64-encoded tarball). */
export const NPM_MAX_PUBLISH_BYTES = 512 * 1024 * 1024;

export const NPM_MESSAGES = {
  /** {key}, {reason} are replaced: an audit an upstream of the repository could not answer (502). */
  auditUnavailable:
    "The audit could not be completed: the upstream of the remote repository '{key}' did not answer it ({reason}).",
  versionExists: 'You cannot publish over the previously published versions: {version}.',
  badName: "Invalid package name '{name}': {reason}",
  nameMismatch: "The package name in the metadata ('{found}') is not the one published to ('{name}').",
  badVersion: "Invalid version '{version}': versions follow semantic versioning (1.2.3).",
  oneVersion: 'A publish carries exactly one version and its tarball.',
  noAttachment: 'The publish carries no tarball.',
  badTarball: 'The package tarball is not a gzipped tar archive with a package.json inside. Nothing was stored.',
  tarballMismatch: "The tarball's package.json is {found}, not {expected}. Nothing was stored.",
  lengthMismatch: 'The tarball is {actual} bytes, not the {expected} bytes announced. Nothing was stored.',
  integrityMismatch:
    "The tarball's integrity is '{actual}', not '{expected}' as the metadata says. Nothing was stored.",
  shasumMismatch: "The tarball's shasum is '{actual}', not '{expected}' as the metadata says. Nothing was stored.",
  metadataTooLarge: 'The metadata of {name}@{version} is {size} bytes, more than the {max} bytes allowed.',
  notFound: 'Not found',
  noSuchVersion: "{name} has no version '{version}'.",
  badTag: "Invalid dist-tag '{tag}': a tag may not be empty or look like a version.",
  latestTag: 'The latest tag cannot be removed; point it at another version instead.',
  notLocal: "'{key}' is a remote repository: packages are published to a local or virtual repository.",
  loginFailed: 'Incorrect user name or password.',
  loginRequired: 'Log in to see who you are: npm login --registry={registry}',
} as const;

/** A version's dist block as the registry answers it. */
export interface NpmDist {
  tarball: string;
  shasum: string;
  integrity?: string;
  fileCount?: number;
  unpackedSize?: number;
}
