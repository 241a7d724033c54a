import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OidcProvider, OidcProviderBody, SsoSettings } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { createOrReplace } from './save';

export const oidcKeys = {
  providers: ['oidc', 'providers'] as const,
  settings: ['oidc', 'settings'] as const,
};

export function useOidcProviders() {
  return useQuery({ queryKey: oidcKeys.providers, queryFn: () => apiFetch<OidcProvider[]>('ui/oauth2/providers') });
}

export function useSsoSettings() {
  return useQuery({ queryKey: oidcKeys.settings, queryFn: () => apiFetch<SsoSettings>('ui/oauth2/settings') });
}

export function useOidcActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: oidcKeys.providers }),
      client.invalidateQueries({ queryKey: oidcKeys.settings }),
      client.invalidateQueries({ queryKey: ['auth'] }),
    ]);
  return {
    save: useMutation({
      mutationFn: ({ body, replaces }: { body: OidcProviderBody; replaces?: string }) =>
        createOrReplace<OidcProvider>('ui/oauth2/providers', body, replaces),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (name: string) =>
        apiFetch<void>(`ui/oauth2/providers/${encodeURIComponent(name)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    saveSettings: useMutation({
      mutationFn: (body: SsoSettings) => apiFetch<SsoSettings>('ui/oauth2/settings', { method: 'PUT', body }),
      onSuccess: refresh,
    }),
  };
}
