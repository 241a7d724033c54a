import { useMutation, useQuery } from '@tanstack/react-query';
import type { RemoteState, RemoteTestAnswer, RepositoryConfigInput } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';

/** How a remote repository's upstream answered last (refreshed while the page is open). */
export function useUpstreamState(key: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: [...repositoriesKeys.one(key ?? ''), 'upstream'],
    queryFn: () => apiFetch<RemoteState>(`ui/admin/repositories/${encodeURIComponent(key!)}/upstream`),
    enabled: enabled && Boolean(key),
    refetchInterval: 30_000,
  });
}

/** The remote form's Test: the settings as typed, nothing saved. */
export function useTestRemote() {
  return useMutation({
    mutationFn: (config: Partial<RepositoryConfigInput>) =>
      apiFetch<RemoteTestAnswer>('ui/admin/repositories/testremote', { method: 'POST', body: config, silent: true }),
  });
}
