import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RepositoryAnswer, RepositoryConfigInput } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

/** Creates a repository, or replaces the configuration of an existing one when `existing` is set. */
export function saveRepository(config: RepositoryConfigInput, existing: boolean): Promise<RepositoryAnswer> {
  return existing
    ? apiFetch<RepositoryAnswer>(`ui/admin/repositories/${encodeURIComponent(config.key)}`, {
        method: 'PUT',
        body: config,
        silent: true,
      })
    : apiFetch<RepositoryAnswer>('ui/admin/repositories', { method: 'POST', body: config, silent: true });
}

export function useSaveRepository(existing: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (config: RepositoryConfigInput) => saveRepository(config, existing),
    onSuccess: () => client.invalidateQueries({ queryKey: repositoriesKeys.all }),
  });
}
