/** The storage feature's query keys. */
export const storageKeys = {
  summary: (projectKey?: string) => ['storage', 'summary', projectKey] as const,
  growth: (days: number, projectKey?: string) => ['storage', 'growth', days, projectKey] as const,
  folders: (repoKey: string) => ['storage', 'folders', repoKey] as const,
};
