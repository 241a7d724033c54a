import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionTarget, PermissionTargetForm } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { permissionsKeys } from './keys';

export const permissionsQuery = () =>
  queryOptions({ queryKey: permissionsKeys.list, queryFn: () => apiFetch<PermissionTarget[]>('ui/permissions') });

export function usePermissions() {
  return useQuery(permissionsQuery());
}

export function usePermission(name: string | undefined) {
  return useQuery({
    queryKey: permissionsKeys.one(name),
    queryFn: () => apiFetch<PermissionTarget>(`ui/permissions/${encodeURIComponent(name!)}`),
    enabled: Boolean(name),
  });
}

/** Creates a permission target, or replaces one when `existing` names it. */
export function useSavePermission(existing: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: PermissionTargetForm) =>
      existing
        ? apiFetch<PermissionTarget>(`ui/permissions/${encodeURIComponent(existing)}`, {
            method: 'PUT',
            body: form,
            silent: true,
          })
        : apiFetch<PermissionTarget>('ui/permissions', { method: 'POST', body: form, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: permissionsKeys.all }),
  });
}

export function useDeletePermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (names: string[]) => apiFetch<void>('ui/permissions/delete', { method: 'POST', body: { names } }),
    onSuccess: () => client.invalidateQueries({ queryKey: permissionsKeys.all }),
  });
}
