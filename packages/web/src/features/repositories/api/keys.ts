/** The repositories feature's query keys. */
export const repositoriesKeys = {
  all: ['repositories'] as const,
  list: (projectKey?: string) => ['repositories', 'list', projectKey] as const,
  one: (key: string) => ['repositories', 'one', key] as const,
  layouts: ['repositories', 'layouts'] as const,
};
