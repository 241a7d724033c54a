import { useQueryClient } from '@tanstack/react-query';
import type { RepositoryDeletion } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

/** Starts deleting a repository with its content; answers at once for small ones, else while it runs. */
export function deleteRepositoryWithContent(key: string, confirmKey: string): Promise<RepositoryDeletion> {
  return apiFetch<RepositoryDeletion>(`ui/admin/repositories/${encodeURIComponent(key)}/delete`, {
    method: 'POST',
    body: { confirmKey },
    silent: true,
  });
}

/** How far a deletion has come. */
export function repositoryDeletionProgress(key: string): Promise<RepositoryDeletion> {
  return apiFetch<RepositoryDeletion>(`ui/admin/repositories/${encodeURIComponent(key)}/delete`, {
    silent: true,
    background: true,
  });
}

export function useRefreshRepositories() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: repositoriesKeys.all });
}
