/**
 * Debian repositories at the repository's own address (`deb <url> <distribution> <component>`):
 * packages deployed anywhere (the pool layout by convention) with the distribution, component and
 * architecture as properties; `dists/` calculated by the server and signed with the repository's key.
 */

/** Most bytes of one package Arca reads through when it is deployed. */
export const DEBIAN_MAX_PACKAGE_BYTES = 1024 * 1024 * 1024;

export const DEBIAN_MESSAGES = {
  badPackage: "'{path}' is not a readable Debian package: {reason}. Nothing was stored.",
  nameMismatch:
    "'{path}' holds {name} {version} for {architecture}: Debian names that file {expected}. Nothing was stored.",
  noDistribution:
    "Deploy '{path}' with the properties deb.distribution and deb.component (…/{path};deb.distribution=bookworm;deb.component=main), so that it is indexed.",
  republish:
    '{name} {version} ({architecture}) is already in {distribution}/{component} with other content: a released package never changes, deploy a new version.',
  metadata: "'{path}' is calculated by Arca: the indexes under dists/ cannot be deployed.",
} as const;
