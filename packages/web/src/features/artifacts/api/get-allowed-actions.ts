import { useQuery } from '@tanstack/react-query';
import type { CopyTarget, EffectiveActions } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

/** What the signed-in user may do on a repository path, as the server decides it. */
export function useAllowedActions(repoKey: string | undefined, path: string) {
  return useQuery({
    queryKey: artifactsKeys.allowed(repoKey, path),
    queryFn: () => apiFetch<EffectiveActions>('ui/artifactactions/allowed', { query: { repoKey, path }, silent: true }),
    enabled: Boolean(repoKey),
  });
}

/** Local repositories of the same package type where the user may deploy the item. */
export function useCopyTargets(repoKey: string, path: string, enabled: boolean) {
  return useQuery({
    queryKey: artifactsKeys.targets(repoKey, path),
    queryFn: () => apiFetch<CopyTarget[]>('ui/artifactactions/targets', { query: { repoKey, path } }),
    enabled,
  });
}
