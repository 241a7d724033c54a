import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LargestFolders, StorageGrowth, StorageSummary } from '@arca/contracts';
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

/** The daily samples of the last `days` days (the selected project's repositories, or all). */
export function useStorageGrowth(days: number) {
  const projectKey = useSelectedProject();
  return useQuery({
    queryKey: storageKeys.growth(days, projectKey),
    queryFn: () => apiFetch<StorageGrowth>('ui/storagesummary/growth', { query: { days, projectKey } }),
  });
}

/** A repository's folders holding the most bytes. */
export function useLargestFolders(repoKey: string | undefined) {
  return useQuery({
    queryKey: storageKeys.folders(repoKey ?? ''),
    queryFn: () => apiFetch<LargestFolders>('ui/storagesummary/folders', { query: { repoKey, limit: 15 } }),
    enabled: repoKey !== undefined,
  });
}
