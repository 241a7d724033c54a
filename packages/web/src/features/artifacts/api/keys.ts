/** The artifacts feature's query keys: the tree and its item views all start with `all`. */
export const artifactsKeys = {
  all: ['artifacts'] as const,
  repos: (projectKey?: string) => ['artifacts', 'repos', projectKey] as const,
  info: (repoKey: string, path: string) => ['artifacts', 'info', repoKey, path] as const,
  allowed: (repoKey: string | undefined, path: string) => ['artifacts', 'allowed', repoKey, path] as const,
  targets: (repoKey: string, path: string) => ['artifacts', 'targets', repoKey, path] as const,
  archive: (repoKey: string, path: string) => ['artifacts', 'archive', repoKey, path] as const,
  signature: (repoKey: string, path: string) => ['artifacts', 'signature', repoKey, path] as const,
  /** Every item's properties without arguments, one item's with them. */
  properties: (repoKey?: string, path?: string) =>
    repoKey === undefined
      ? (['artifacts', 'properties'] as const)
      : (['artifacts', 'properties', repoKey, path] as const),
  /** What a copy or move would do (outside `all`: a tree refresh does not re-plan an open dialog). */
  copyMovePlan: (mode: string, repoKey: string, path: string, targetRepo: string | undefined, targetPath: string) =>
    ['copyMovePlan', mode, repoKey, path, targetRepo, targetPath] as const,
};
