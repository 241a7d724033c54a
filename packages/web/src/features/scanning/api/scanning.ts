import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdvisorySourceInput, IgnoreRuleInput, Policy, PolicyInput, Watch, WatchInput } from '@arca/contracts';
import { uploadBody } from '../../../api/upload';
import { apiFetch } from '../../../api/client';

/** The security scanning feature's query keys. */
export const scanningKeys = {
  all: ['scanning'] as const,
  policies: ['scanning', 'policies'] as const,
  watches: ['scanning', 'watches'] as const,
  ignoreRules: ['scanning', 'ignore-rules'] as const,
  sources: ['scanning', 'sources'] as const,
};

/** What the server adds to what was saved: who made it and when. */
interface Stamps {
  author: string;
  created: string;
  modified: string;
}
export type PolicyAnswer = Policy & Stamps;
export type WatchAnswer = Watch & Stamps;
export interface IgnoreRuleAnswer {
  id: string;
  notes: string;
  expires_at?: string;
  ignore_filters: IgnoreRuleInput['ignore_filters'];
  author: string;
  created: string;
  is_expired: boolean;
}

const POLICIES = 'xray/api/v2/policies';
const WATCHES = 'xray/api/v2/watches';
const IGNORE_RULES = 'xray/api/v1/ignore_rules';

export const usePolicies = () =>
  useQuery({ queryKey: scanningKeys.policies, queryFn: () => apiFetch<PolicyAnswer[]>(POLICIES) });
export const useWatches = () =>
  useQuery({ queryKey: scanningKeys.watches, queryFn: () => apiFetch<WatchAnswer[]>(WATCHES) });
export const useIgnoreRules = () =>
  useQuery({
    queryKey: scanningKeys.ignoreRules,
    queryFn: async () => (await apiFetch<{ data: IgnoreRuleAnswer[] }>(IGNORE_RULES)).data,
  });

/** A change of policies, watches or rules: every list of the feature is read again (a watch names policies). */
function useScanningChange<T, R = unknown>(call: (value: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => client.invalidateQueries({ queryKey: scanningKeys.all }),
  });
}

/** Creates a policy, or replaces the one named `existing` (it keeps its name). */
export const useSavePolicy = () =>
  useScanningChange(({ body, existing }: { body: PolicyInput; existing?: string }) =>
    existing
      ? apiFetch(`${POLICIES}/${encodeURIComponent(existing)}`, { method: 'PUT', body })
      : apiFetch(POLICIES, { method: 'POST', body }),
  );
export const useDeletePolicy = () =>
  useScanningChange((name: string) => apiFetch(`${POLICIES}/${encodeURIComponent(name)}`, { method: 'DELETE' }));
export const useSaveWatch = () =>
  useScanningChange(({ body, existing }: { body: WatchInput; existing?: string }) =>
    existing
      ? apiFetch(`${WATCHES}/${encodeURIComponent(existing)}`, { method: 'PUT', body })
      : apiFetch(WATCHES, { method: 'POST', body }),
  );
export const useDeleteWatch = () =>
  useScanningChange((name: string) => apiFetch(`${WATCHES}/${encodeURIComponent(name)}`, { method: 'DELETE' }));
export const useCreateIgnoreRule = () =>
  useScanningChange((body: IgnoreRuleInput) => apiFetch(IGNORE_RULES, { method: 'POST', body }));
export const useDeleteIgnoreRule = () =>
  useScanningChange((id: string) => apiFetch(`${IGNORE_RULES}/${encodeURIComponent(id)}`, { method: 'DELETE' }));

/** What the scans of the repositories the caller may read found (`GET xray/ui/unified/stats/indexStatus`). */
export interface ScanStats {
  statuses: Record<string, number>;
  severities: { severity: string; count: number }[];
  affectedVersions: number;
}

export const useScanStats = () =>
  useQuery({
    queryKey: [...scanningKeys.all, 'stats'],
    queryFn: () => apiFetch<ScanStats>('xray/ui/unified/stats/indexStatus', { silent: true }),
    refetchInterval: 60_000,
  });

/** A scanned package version an advisory concerns, as the vulnerability search answers it. */
export interface VulnerableVersion {
  repoKey: string;
  path: string;
  packageType: string;
  name: string;
  version: string;
  advisory: string;
  cves: string[];
  summary: string;
  severity: string;
  fixedVersions: string[];
  component: string;
  scannedAt: string;
}

/** The versions the caller may read that an advisory, a CVE id or a package name concerns. */
export const useVulnerabilitySearch = (query: string) =>
  useQuery({
    queryKey: [...scanningKeys.all, 'search', query],
    enabled: Boolean(query),
    queryFn: () =>
      apiFetch<{ results: VulnerableVersion[]; truncated: boolean }>(
        `xray/ui/search/vulnerabilities?${new URLSearchParams({ query }).toString()}`,
      ),
  });

/** A URL advisories are fetched from, with how its last fetch went. */
export interface AdvisorySourceAnswer {
  name: string;
  url: string;
  interval_hours: number;
  enabled: boolean;
  author: string;
  created: string;
  last_run: string | null;
  last_outcome: 'imported' | 'unchanged' | 'failed' | null;
  last_message: string;
}

/** What an import of advisories counted. */
export interface AdvisoryImport {
  added: number;
  updated: number;
  unchanged: number;
  records: number;
}

const SOURCES = 'xray/api/v1/advisories/sources';
const source = (name: string) => `${SOURCES}/${encodeURIComponent(name)}`;

export const useAdvisorySources = () =>
  useQuery({ queryKey: scanningKeys.sources, queryFn: () => apiFetch<AdvisorySourceAnswer[]>(SOURCES) });
export const useSaveAdvisorySource = () =>
  useScanningChange(({ body, existing }: { body: AdvisorySourceInput; existing?: string }) =>
    existing ? apiFetch(source(existing), { method: 'PUT', body }) : apiFetch(SOURCES, { method: 'POST', body }),
  );
export const useDeleteAdvisorySource = () =>
  useScanningChange((name: string) => apiFetch(source(name), { method: 'DELETE' }));
/** Fetches a source now: answers the source with the run's outcome. */
export const useRunAdvisorySource = () =>
  useScanningChange((name: string) => apiFetch<AdvisorySourceAnswer>(`${source(name)}/run`, { method: 'POST' }));

/** Imports an OSV export (a zip) or a JSON file of records, with its progress. */
export const useImportAdvisories = () =>
  useScanningChange(({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
    uploadBody<AdvisoryImport>('xray/api/v1/advisories/import', file, {
      method: 'POST',
      query: { name: file.name },
      contentType: file.name.toLowerCase().endsWith('.zip') ? 'application/zip' : 'application/json',
      ok: 200,
      onProgress,
    }),
  );
