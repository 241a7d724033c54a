import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Deployment, DeploymentBody, DeploymentUpdate } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const BASE = 'mc/api/v1/deployments';
export const deploymentKeys = {
  all: ['deployments'] as const,
  one: (id: string) => ['deployments', id] as const,
};

export function useDeployments() {
  // the statuses follow the polling: the list refreshes itself
  return useQuery({
    queryKey: deploymentKeys.all,
    queryFn: () => apiFetch<Deployment[]>(BASE),
    refetchInterval: 20_000,
  });
}

export function useDeployment(id: string | undefined) {
  return useQuery({
    queryKey: deploymentKeys.one(id ?? ''),
    queryFn: () => apiFetch<Deployment>(`${BASE}/${encodeURIComponent(id!)}`),
    enabled: Boolean(id),
  });
}

export function useDeploymentActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: deploymentKeys.all });
  return {
    register: useMutation({
      mutationFn: (body: DeploymentBody) => apiFetch<Deployment>(BASE, { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: DeploymentUpdate }) =>
        apiFetch<Deployment>(`${BASE}/${encodeURIComponent(id)}`, { method: 'PUT', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        apiFetch<{ message: string }>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: (id: string) =>
        apiFetch<{ ok: boolean; message: string; deployment: Deployment }>(`${BASE}/${encodeURIComponent(id)}/test`, {
          method: 'POST',
        }),
      onSuccess: refresh,
    }),
    reauth: useMutation({
      mutationFn: ({ id, pairing_token }: { id: string; pairing_token: string }) =>
        apiFetch<Deployment>(`${BASE}/${encodeURIComponent(id)}/reauth`, {
          method: 'POST',
          body: { pairing_token },
          silent: true,
        }),
      onSuccess: refresh,
    }),
    /** A pairing token of this deployment, for another one to manage it. */
    pairingToken: useMutation({
      mutationFn: () =>
        apiFetch<{ token: string; expires_at: string }>('access/api/v1/pairing/token', { method: 'POST' }),
    }),
  };
}
