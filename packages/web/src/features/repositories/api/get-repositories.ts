import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositorySummary } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from './keys';

/** Every repository, or those of one project ('default': all). */
export function getRepositories(projectKey?: string): Promise<RepositorySummary[]> {
  return apiFetch<RepositorySummary[]>('ui/admin/repositories', { query: { projectKey } });
}

export const repositoriesQuery = (projectKey?: string) =>
  queryOptions({ queryKey: repositoriesKeys.list(projectKey), queryFn: () => getRepositories(projectKey) });

export function useRepositories(enabled = true, projectKey?: string) {
  return useQuery({ ...repositoriesQuery(projectKey), enabled });
}
