import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RepositoryAnswer } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

export function getRepository(key: string): Promise<RepositoryAnswer> {
  // the page shows a missing repository itself
  return apiFetch<RepositoryAnswer>(`ui/admin/repositories/${encodeURIComponent(key)}`, { silent: true });
}

export const repositoryQuery = (key: string) =>
  queryOptions({ queryKey: repositoriesKeys.one(key), queryFn: () => getRepository(key) });

export function useRepository(key: string | undefined) {
  return useQuery({ ...repositoryQuery(key ?? ''), enabled: Boolean(key), retry: false });
}
