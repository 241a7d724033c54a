/**
 * The Python package index protocols at `/artifactory/api/pypi/{repoKey}/`: the simple index of
 * PEP 503 (HTML) and PEP 691 (JSON) that pip reads, and the legacy upload API that twine uses.
 */

/** PEP 691's JSON form of the simple index, and the HTML one. */
export const PYPI_SIMPLE_JSON = 'application/vnd.pypi.simple.v1+json';
export const PYPI_SIMPLE_HTML = 'application/vnd.pypi.simple.v1+html';

/** Most bytes of one uploaded distribution file. */
export const PYPI_MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

export const PYPI_MESSAGES = {
  badAction: "Only ':action=file_upload' is accepted here (twine upload, or the legacy upload API).",
  noFile: "The upload carries no file: the distribution goes in the multipart field 'content'.",
  badName:
    "Invalid project name '{name}': letters, digits, '.', '_' and '-', starting and ending with a letter or digit.",
  badVersion: "Invalid version '{version}': versions follow PEP 440 (1.0, 2.1.3rc1, 1.0.post1 …).",
  badFilename:
    "'{filename}' is not a distribution of {name} {version}: a wheel ({name}-{version}-….whl) or an sdist ({name}-{version}.tar.gz or .zip).",
  digestMismatch: "The file's {digest} is '{actual}', not '{expected}' as sent. Nothing was stored.",
  fileExists: "File already exists: '{filename}'. A released file never changes: upload a new version.",
  notArchive: "'{filename}' is not a readable {kind} archive. Nothing was stored.",
  notFound: 'Not Found',
} as const;
