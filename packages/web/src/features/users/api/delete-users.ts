import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { usersKeys } from './keys';

/** Deletes several users; if one of them cannot be deleted, none is. */
export function deleteUsers(names: string[]): Promise<void> {
  return apiFetch<void>('ui/users/delete', { method: 'POST', body: { names } });
}

export function useDeleteUsers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteUsers,
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.users }),
  });
}
