/**
 * RPM repositories (yum, dnf) at the repository's own address: packages deployed anywhere,
 * `repodata/` calculated by the server from their headers, `repomd.xml.asc` signed with the
 * repository's key.
 */

/** Most bytes of one package Arca reads through when it is deployed. */
export const RPM_MAX_PACKAGE_BYTES = 1024 * 1024 * 1024;

export const RPM_MESSAGES = {
  badPackage: "'{path}' is not a readable RPM package: {reason}. Nothing was stored.",
  nameMismatch: "'{path}' holds {nevra}: rpmbuild names that file {expected}. Nothing was stored.",
  republish:
    '{nevra} is already in this repository with other content: a released package never changes, build a new release.',
  metadata: "'{path}' is calculated by Arca: repodata/ cannot be deployed.",
} as const;
