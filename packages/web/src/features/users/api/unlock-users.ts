import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { usersKeys } from './keys';

/** Releases users locked after too many failed sign-ins. */
export function unlockUsers(names: string[]): Promise<void> {
  return apiFetch<void>('ui/users/unlock', { method: 'POST', body: { names } });
}

export function useUnlockUsers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: unlockUsers,
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.users }),
  });
}
