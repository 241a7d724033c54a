import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QuickCreateBody, RepositoryAnswer } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

export function quickCreate(body: QuickCreateBody): Promise<RepositoryAnswer[]> {
  return apiFetch<RepositoryAnswer[]>('ui/admin/repositories/quick', { method: 'POST', body, silent: true });
}

export function useQuickCreate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: quickCreate,
    onSuccess: () => client.invalidateQueries({ queryKey: repositoriesKeys.all }),
  });
}
