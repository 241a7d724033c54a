import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BroadcastAnswer, Federation, FederationBody, FederationCandidate, MemberState } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const BASE = 'mc/api/v1/federation';
export const federationKeys = {
  all: ['federation'] as const,
  candidates: ['federation', 'candidates'] as const,
  state: (id: string) => ['federation', 'state', id] as const,
};

export function useFederations() {
  return useQuery({ queryKey: federationKeys.all, queryFn: () => apiFetch<Federation[]>(BASE) });
}

export function useCandidates() {
  return useQuery({
    queryKey: federationKeys.candidates,
    queryFn: () => apiFetch<FederationCandidate[]>(`${BASE}/candidates`),
  });
}

/** How a member is doing: its peers' backlog and the conflicts it settled (refreshed while shown). */
export function useMemberState(id: string, enabled = true) {
  return useQuery({
    queryKey: federationKeys.state(id),
    queryFn: () => apiFetch<MemberState>(`${BASE}/${encodeURIComponent(id)}/state`, { silent: true }),
    enabled,
    refetchInterval: 10_000,
  });
}

export function useFederationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: federationKeys.all });
  return {
    save: useMutation({
      mutationFn: (body: FederationBody) => apiFetch<Federation[]>(BASE, { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (source: string) =>
        apiFetch<{ message: string }>(`${BASE}/${encodeURIComponent(source)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    broadcast: useMutation({
      mutationFn: ({ source, adminCredentials }: { source: string; adminCredentials: boolean }) =>
        apiFetch<BroadcastAnswer>('access/system/broadcast', {
          method: 'POST',
          body: { source, admin_credentials: adminCredentials },
        }),
      onSuccess: refresh,
    }),
  };
}
