import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SamlProvider, SamlProviderBody } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { createOrReplace } from './save';
import { oidcKeys } from './oidc';

const samlProviders = ['saml', 'providers'] as const;

export function useSamlProviders() {
  return useQuery({ queryKey: samlProviders, queryFn: () => apiFetch<SamlProvider[]>('ui/saml/providers') });
}

export function useSamlActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: samlProviders }),
      client.invalidateQueries({ queryKey: oidcKeys.settings }),
      client.invalidateQueries({ queryKey: ['auth'] }),
    ]);
  return {
    save: useMutation({
      mutationFn: ({ body, replaces }: { body: SamlProviderBody; replaces?: string }) =>
        createOrReplace<SamlProvider>('ui/saml/providers', body, replaces),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (name: string) =>
        apiFetch<void>(`ui/saml/providers/${encodeURIComponent(name)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}
