import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositoryLayout } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

export function getLayouts(): Promise<RepositoryLayout[]> {
  return apiFetch<RepositoryLayout[]>('ui/admin/repositories/layouts');
}

export const layoutsQuery = () =>
  queryOptions({ queryKey: repositoriesKeys.layouts, queryFn: getLayouts, staleTime: Infinity });

export function useLayouts() {
  return useQuery(layoutsQuery());
}
