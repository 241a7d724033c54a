import { useQuery } from '@tanstack/react-query';
import type { CopyTarget, EffectiveActions } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKey } from './get-tree-repos';

/** What the signed-in user may do on a repository path, as the server decides it. */
export function useAllowedActions(repoKey: string | undefined, path: string) {
  return useQuery({
    queryKey: [...artifactsKey, 'allowed', repoKey, path],
    queryFn: () => apiFetch<EffectiveActions>('ui/artifactactions/allowed', { query: { repoKey, path }, silent: true }),
    enabled: Boolean(repoKey),
  });
}

/** Local repositories of the same package type where the user may deploy the item. */
export function useCopyTargets(repoKey: string, path: string, enabled: boolean) {
  return useQuery({
    queryKey: [...artifactsKey, 'targets', repoKey, path],
    queryFn: () => apiFetch<CopyTarget[]>('ui/artifactactions/targets', { query: { repoKey, path } }),
    enabled,
  });
}
