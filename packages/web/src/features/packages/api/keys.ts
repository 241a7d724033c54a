/** The packages feature's query keys. */
export const packagesKeys = {
  all: ['packages'] as const,
  list: (filters: unknown) => ['packages', 'list', filters] as const,
  one: (id: string) => ['packages', 'one', id] as const,
  versions: (id: string) => ['packages', 'versions', id] as const,
  imageView: (repoKey: string | undefined, path: string | undefined) => ['image-view', repoKey, path] as const,
  security: (repoKey: string | undefined, path: string | undefined) => ['security', repoKey, path] as const,
};
