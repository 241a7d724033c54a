import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserForm, UserListItem } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { usersKeys } from './keys';

/** Creates a user, or changes one when `existing` names it. */
export function saveUser(form: UserForm, existing: string | undefined): Promise<UserListItem> {
  return existing
    ? apiFetch<UserListItem>(`ui/users/${encodeURIComponent(existing)}`, { method: 'PUT', body: form, silent: true })
    : apiFetch<UserListItem>('ui/users', { method: 'POST', body: form, silent: true });
}

export function useSaveUser(existing: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: UserForm) => saveUser(form, existing),
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.users }),
  });
}
