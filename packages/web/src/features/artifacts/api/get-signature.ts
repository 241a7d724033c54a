import { useQuery } from '@tanstack/react-query';
import type { ArtifactSignature } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

/** What the detached signature beside a file says of it (checked against the trusted keys). */
export function useArtifactSignature(repoKey: string | undefined, path: string, enabled: boolean) {
  return useQuery({
    queryKey: artifactsKeys.signature(repoKey ?? '', path),
    queryFn: () =>
      apiFetch<ArtifactSignature>('ui/artifactsignature', { query: { repoKey: repoKey!, path }, silent: true }),
    enabled: enabled && Boolean(repoKey),
  });
}
