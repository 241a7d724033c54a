/**
 * Go modules at `/artifactory/api/go/{repoKey}/`: the module proxy protocol the go command speaks
 * (GOPROXY), and publishing as JFrog's `jf go-publish` does it (a module's `.zip`, `.mod` and
 * `.info` under `{module}/@v/`).
 */

/** Go's own limits (golang.org/x/mod/zip): a module zip, its files together, one go.mod or LICENSE. */
export const GO_MAX_ZIP_BYTES = 500 * 1024 * 1024;
export const GO_MAX_MOD_BYTES = 16 * 1024 * 1024;
/** A module's top-level README is shown in the catalogue: larger ones are refused (Go sets no limit; real ones are kilobytes). */
export const GO_MAX_README_BYTES = 4 * 1024 * 1024;

export const GO_MESSAGES = {
  badModulePath: "Invalid module path '{module}': {reason}.",
  badVersion:
    "Invalid version '{version}': module versions are canonical semantic versions with a leading 'v' (v1.2.3, v0.0.0-20240101000000-abcdef123456).",
  majorMismatch: 'Version {version} does not belong to module {module}: {reason}.',
  badFile:
    "'{path}' is not a module file: a Go repository holds <module>/@v/<version>.zip, .mod and .info, module path and version case-encoded as GOPROXY names them.",
  badZip: 'The module zip of {module}@{version} is not valid: {reason}. Nothing was stored.',
  modMismatch: "The go.mod of {module}@{version} declares module '{declared}'. Nothing was stored.",
  modDiffers: 'The .mod file of {module}@{version} differs from the go.mod inside its zip. Nothing was stored.',
  badInfo: "The .info file of {module}@{version} must be JSON naming Version '{version}'. Nothing was stored.",
  republish:
    '{module}@{version} is already published with a different {ext}: a released module version never changes, publish a new version.',
  /** {module}, {version}, {ext} are replaced. */
  fixedByZip:
    'The {ext} of {module}@{version} follows from its published zip: another one needs the delete permission. Nothing was stored.',
  notFound: 'not found: {module}@{version}',
  noVersions: 'not found: {module} has no versions here',
} as const;
