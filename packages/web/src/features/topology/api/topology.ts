import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeploymentLocation, P2pUsage, Topology } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const KEY = ['topology'] as const;

export function useTopology() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<Topology>('mc/api/v1/topology'),
    refetchInterval: 30_000,
  });
}

/** Where this deployment is, for the map. */
export function useSetOwnLocation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (location: DeploymentLocation) =>
      apiFetch<void>('mc/api/v1/topology/location', { method: 'PUT', body: location, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** The deployments that replications moved the most bytes to or from (the last week). */
export function useP2pUsage() {
  return useQuery({
    queryKey: [...KEY, 'p2p'],
    queryFn: () => apiFetch<P2pUsage>('mc/api/ui/v1/system/usage/p2p', { query: { top: 5 } }),
    refetchInterval: 60_000,
  });
}
