import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageSummary } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function getStorageSummary(): Promise<StorageSummary> {
  return apiFetch<StorageSummary>('ui/storagesummary');
}

export const storageSummaryQuery = () => queryOptions({ queryKey: ['storage', 'summary'], queryFn: getStorageSummary });

export function useStorageSummary() {
  return useQuery(storageSummaryQuery());
}
