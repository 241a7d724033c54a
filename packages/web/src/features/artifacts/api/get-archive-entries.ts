import { useQuery } from '@tanstack/react-query';
import type { ArchiveEntry } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

export function getArchiveEntries(repoKey: string, path: string): Promise<ArchiveEntry[]> {
  return apiFetch<ArchiveEntry[]>('ui/archive/entries', { query: { repoKey, path } });
}

export function useArchiveEntries(repoKey: string, path: string) {
  return useQuery({
    queryKey: artifactsKeys.archive(repoKey, path),
    queryFn: () => getArchiveEntries(repoKey, path),
  });
}
