import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StorageSummary } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { useSelectedProject } from '../../../lib/selected-project';
import { storageKeys } from './keys';

export function getStorageSummary(projectKey?: string): Promise<StorageSummary> {
  return apiFetch<StorageSummary>('ui/storagesummary', { query: { projectKey } });
}

export const storageSummaryQuery = (projectKey?: string) =>
  queryOptions({ queryKey: storageKeys.summary(projectKey), queryFn: () => getStorageSummary(projectKey) });

/** The storage summary of every repository, or of the selected project's. */
export function useStorageSummary() {
  return useQuery(storageSummaryQuery(useSelectedProject()));
}
