/**
 * Cargo registries at `/artifactory/api/cargo/{repoKey}/`: the sparse index under `index/`
 * (`config.json` naming `dl` and `api` under the same repository) and the registry web API
 * cargo publishes, yanks and searches with.
 */

/** Most bytes of one published crate. */
export const CARGO_MAX_CRATE_BYTES = 512 * 1024 * 1024;

export const CARGO_MESSAGES = {
  badName: "Invalid crate name '{name}': up to 64 ASCII letters, digits, '-' and '_', starting with a letter.",
  badVersion: "Invalid version '{version}': crate versions are semantic versions (1.2.3, 0.1.0-alpha.1).",
  badPublish: 'The publish request is not readable: {reason}.',
  badCrate: 'The crate file of {name}@{version} is not valid: {reason}. Nothing was stored.',
  tomlMismatch: "The crate's Cargo.toml names {found}, not {name}@{version}. Nothing was stored.",
  exists: 'crate version `{name}@{version}` is already uploaded',
  nameTaken: "crate `{name}` collides with the crate `{existing}` here (names compare without case, '-' and '_' alike)",
  notFound: 'crate `{name}` does not exist',
  versionNotFound: 'crate `{name}` has no version `{version}`',
  badPath: "'{path}' is not a crate file: a Cargo repository holds crates/<name>/<name>-<version>.crate.",
  owners:
    'Arca keeps no crate owners: who may publish, yank and read a crate is decided by the repository’s permissions.',
} as const;
