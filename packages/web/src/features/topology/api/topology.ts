import { useQuery } from '@tanstack/react-query';
import type { Topology } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function useTopology() {
  return useQuery({
    queryKey: ['topology'],
    queryFn: () => apiFetch<Topology>('mc/api/v1/topology'),
    refetchInterval: 30_000,
  });
}
