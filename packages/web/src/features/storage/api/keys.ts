/** The storage feature's query keys. */
export const storageKeys = {
  summary: (projectKey?: string) => ['storage', 'summary', projectKey] as const,
};
