import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositorySummary } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const repositoriesKey = ['repositories'] as const;

export function getRepositories(): Promise<RepositorySummary[]> {
  return apiFetch<RepositorySummary[]>('ui/admin/repositories');
}

export const repositoriesQuery = () =>
  queryOptions({ queryKey: [...repositoriesKey, 'list'], queryFn: getRepositories });

export function useRepositories(enabled = true) {
  return useQuery({ ...repositoriesQuery(), enabled });
}
