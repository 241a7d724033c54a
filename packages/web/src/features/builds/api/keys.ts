/** The builds feature's query keys. */
export const buildsKeys = {
  all: ['builds'] as const,
  names: (projectKey?: string) => ['builds', 'names', projectKey] as const,
  projectInfo: ['builds', 'projectInfo'] as const,
  history: (name: string) => ['builds', 'history', name] as const,
  info: (name: string, number: string) => ['builds', 'info', name, number] as const,
  diff: (name: string, number: string, other: string | undefined) => ['builds', 'diff', name, number, other] as const,
  artifact: (repoKey: string, path: string) => ['builds', 'artifact', repoKey, path] as const,
  patterns: (includePatterns: string[], excludePatterns: string[]) =>
    ['builds', 'patterns', includePatterns, excludePatterns] as const,
};
