import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupForm } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { directoryKeys } from '../../../lib/queries/directory';
import { permissionsKeys } from '../../permissions';

/** Creates a group, or changes one when `existing` names it. */
export function useSaveGroup(existing: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: GroupForm) =>
      existing
        ? apiFetch<Group>(`ui/groups/${encodeURIComponent(existing)}`, { method: 'PUT', body: form, silent: true })
        : apiFetch<Group>('ui/groups', { method: 'POST', body: form, silent: true }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: directoryKeys.groups }),
        client.invalidateQueries({ queryKey: directoryKeys.users }),
      ]),
  });
}

/** Deletes several groups; if one cannot be deleted, none is. */
export function useDeleteGroups() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (names: string[]) => apiFetch<void>('ui/groups/delete', { method: 'POST', body: { names } }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: directoryKeys.groups }),
        client.invalidateQueries({ queryKey: directoryKeys.users }),
        client.invalidateQueries({ queryKey: permissionsKeys.all }),
      ]),
  });
}
