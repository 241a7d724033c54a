import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppIntegration, AppIntegrationBody, AppIntegrationCreated } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const BASE = 'access/integration';
export const appIntegrationKeys = {
  all: ['app-integrations'] as const,
  types: ['app-integrations', 'types'] as const,
  client: (id: string) => ['app-integrations', 'client', id] as const,
};

export function useAppIntegrations() {
  return useQuery({
    queryKey: appIntegrationKeys.all,
    queryFn: () => apiFetch<AppIntegration[]>(BASE, { silent: true }),
  });
}

export function useApplicationTypes() {
  return useQuery({
    queryKey: appIntegrationKeys.types,
    queryFn: () => apiFetch<{ id: string; name: string }[]>(`${BASE}/applications`),
    staleTime: Infinity,
  });
}

export function useAppIntegrationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: appIntegrationKeys.all });
  return {
    create: useMutation({
      mutationFn: (body: AppIntegrationBody) =>
        apiFetch<AppIntegrationCreated>(BASE, { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiFetch<void>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
  };
}

/** The consent page's view of the asking application, and whether its redirect address is its own. */
export function useConsentRequest(clientId: string, redirectUri: string) {
  return useQuery({
    queryKey: [...appIntegrationKeys.client(clientId), redirectUri],
    queryFn: async () => {
      const id = encodeURIComponent(clientId);
      await apiFetch(`${BASE}/validate/${id}`, { query: { auth_url: redirectUri }, silent: true });
      return apiFetch<{ clientId: string; name: string; type: string; description: string }>(`${BASE}/client/${id}`, {
        silent: true,
      });
    },
    enabled: Boolean(clientId && redirectUri),
    retry: false,
  });
}

export function authorizeApplication(clientId: string, username: string, url: string) {
  return apiFetch<{ redirectUri: string }>(
    `${BASE}/authorize/${encodeURIComponent(clientId)}/${encodeURIComponent(username)}`,
    { method: 'POST', body: { url }, silent: true },
  );
}
