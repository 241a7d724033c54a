import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsAnswer } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { backupKeys } from './keys';

/** The backups, and the one being made (refreshed every second while it runs). */
export function useBackups() {
  return useQuery({
    queryKey: backupKeys.list,
    queryFn: () => apiFetch<BackupsAnswer>('system/backups', { background: true }),
    refetchInterval: (query) => (query.state.data?.running ? 1000 : false),
  });
}

export function useStartBackup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ started: boolean }>('system/backups', { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: backupKeys.list }),
  });
}
