import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessToken, ApiKeyState, CreateToken, CreatedToken } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { directoryKeys } from '../../../lib/queries/directory';
import { profileKeys } from './keys';

export interface Profile {
  user: { name: string; email: string; realm: string; mfaEnrolled: boolean };
  apiKey: ApiKeyState;
}

/** Re-authentication before the profile shows its secrets (empty password for OAuth users). */
export function useUnlockProfile() {
  return useMutation({
    mutationFn: (password: string) =>
      apiFetch<Profile>('ui/userProfile', { method: 'POST', body: { password }, silent: true }),
  });
}

/** The caller's tokens, or everyone's (`all`, administrators). */
export function useAccessTokens(all = false, enabled = true) {
  return useQuery({
    queryKey: profileKeys.tokenList(all),
    queryFn: () => apiFetch<AccessToken[]>('ui/tokens', { query: all ? { all: 'true' } : {} }),
    enabled,
  });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateToken) =>
      apiFetch<CreatedToken>('ui/tokens', { method: 'POST', body: input, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.tokens }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`ui/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.tokens }),
  });
}

export function useApiKeyState(enabled: boolean) {
  return useQuery({ queryKey: profileKeys.apiKey, queryFn: () => apiFetch<ApiKeyState>('ui/apiKey'), enabled });
}

export function useGenerateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ apiKey: string }>('ui/apiKey', { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.apiKey }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>('ui/apiKey', { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.apiKey }),
  });
}

/** The names of every user (administrators), to pick whom a token is for. */
export function useUserNames(enabled: boolean) {
  return useQuery({
    queryKey: directoryKeys.userNames,
    queryFn: async () => (await apiFetch<{ name: string }[]>('ui/users')).map((u) => u.name).sort(),
    enabled,
  });
}
