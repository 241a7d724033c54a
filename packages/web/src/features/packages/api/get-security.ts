import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { packagesKeys } from './keys';

/** One advisory an artifact is affected by, as the artifact summary answers it. */
export interface SecurityIssue {
  issue_id: string;
  summary: string;
  description: string;
  severity: string;
  /** With the advisory's CVSS base score and vector, in the newest CVSS version it gives. */
  cves: {
    cve: string;
    cvss_v2_score?: string;
    cvss_v3_score?: string;
    cvss_v3_vector?: string;
    cvss_v4_score?: string;
    cvss_v4_vector?: string;
  }[];
  /** The artifact, then (in an image) the package the advisory was found in. */
  impact_path: string[];
  components: { component_id: string; fixed_versions: string[] }[];
}

/** An artifact's scan: its status as the spec names them and the advisories it is affected by. */
export interface ArtifactSecurity {
  scan_status: string;
  issues: SecurityIssue[];
  /** What the version declares, in SPDX ids. */
  licenses: { name: string; full_name: string }[];
}

/** The security summary of one artifact (`POST xray/api/v1/summary/artifact`). */
export function useArtifactSecurity(repoKey: string | undefined, path: string | undefined) {
  return useQuery({
    queryKey: packagesKeys.security(repoKey, path),
    enabled: Boolean(repoKey && path),
    queryFn: async () => {
      const answer = await apiFetch<{ artifacts: ArtifactSecurity[]; errors: { error: string }[] }>(
        'xray/api/v1/summary/artifact',
        { method: 'POST', body: { paths: [`${repoKey}/${path}`] } },
      );
      return answer.artifacts[0] ?? { scan_status: 'not scanned', issues: [], licenses: [] };
    },
  });
}

/** Matches the artifact's package version against the advisories now (`POST xray/ui/component/scanNow`), then reads its scan again. */
export function useScanNow(repoKey: string, path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ scan_status: string; issues: number }>('xray/ui/component/scanNow', {
        method: 'POST',
        body: { path: `${repoKey}/${path}` },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: packagesKeys.security(repoKey, path) }),
  });
}
