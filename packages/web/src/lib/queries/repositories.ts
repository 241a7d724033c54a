import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositorySummary } from '@arca/contracts';
import { apiFetch } from '../../api/client';

/**
 * The repository list many pages read — the repositories pages, the pickers of the keys, settings,
 * replications, search and permissions pages — and the keys under which the repositories feature
 * caches what it reads (its changes, and projects' and onboarding's, invalidate them).
 */
export const repositoriesKeys = {
  all: ['repositories'] as const,
  list: (projectKey?: string) => ['repositories', 'list', projectKey] as const,
  one: (key: string) => ['repositories', 'one', key] as const,
  layouts: ['repositories', 'layouts'] as const,
};

/** Every repository, or those of one project ('default': all). */
export function getRepositories(projectKey?: string): Promise<RepositorySummary[]> {
  return apiFetch<RepositorySummary[]>('ui/admin/repositories', { query: { projectKey } });
}

export const repositoriesQuery = (projectKey?: string) =>
  queryOptions({ queryKey: repositoriesKeys.list(projectKey), queryFn: () => getRepositories(projectKey) });

export function useRepositories(enabled = true, projectKey?: string) {
  return useQuery({ ...repositoriesQuery(projectKey), enabled });
}
