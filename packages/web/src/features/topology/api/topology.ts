import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeploymentLocation, Topology } from '@arca/contracts';
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
