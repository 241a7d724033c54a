import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SshKey, SshKeyBody } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const mySshKeys = ['ssh-keys', 'mine'] as const;

/** The signed-in user's SSH keys. */
export function useMySshKeys() {
  return useQuery({ queryKey: mySshKeys, queryFn: () => apiFetch<SshKey[]>('ui/userProfile/sshKeys') });
}

export function useMySshKeyActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: mySshKeys });
  return {
    add: useMutation({
      mutationFn: (body: SshKeyBody) =>
        apiFetch<SshKey>('ui/userProfile/sshKeys', { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        apiFetch<void>(`ui/userProfile/sshKeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}
