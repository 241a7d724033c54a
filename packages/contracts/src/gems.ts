/**
 * RubyGems repositories at `/artifactory/api/gems/{repoKey}/`: `gem push` to `api/v1/gems`, the
 * full index (`specs.4.8.gz`, `latest_specs`, `prerelease_specs`, `quick/Marshal.4.8/`) that gem
 * reads and the compact index (`versions`, `info/{name}`, `names`) that Bundler reads.
 */

/** Most bytes of one pushed gem. */
export const GEMS_MAX_GEM_BYTES = 512 * 1024 * 1024;

export const GEMS_MESSAGES = {
  badGem: 'The gem is not valid: {reason}. Nothing was stored.',
  nameMismatch: "'{path}' holds {file}: a gem is deployed under the name RubyGems gives it. Nothing was stored.",
  republish: 'Repushing of gem versions is not allowed. Please use `gem yank` to remove bad gem releases.',
  pushed: 'Successfully registered gem: {name} ({version})',
  yanked: 'Successfully yanked gem: {name} ({version})',
  notFound: 'This rubygem could not be found.',
  metadata: "'{path}' is calculated by Arca: the gem indexes cannot be deployed.",
  badPath: "'{path}' is not a gem: a RubyGems repository holds gems/<name>-<version>.gem.",
} as const;
