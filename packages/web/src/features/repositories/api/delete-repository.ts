import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { repositoriesKey } from './get-repositories';

export function deleteRepository(key: string): Promise<void> {
  return apiFetch<void>(`ui/admin/repositories/${encodeURIComponent(key)}`, { method: 'DELETE' });
}

export function useDeleteRepository() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteRepository,
    onSuccess: () => client.invalidateQueries({ queryKey: repositoriesKey }),
  });
}
