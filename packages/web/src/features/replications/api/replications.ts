import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Replication, ReplicationBody, ReplicationRun } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

const BASE = 'mc/api/v1/replications';
export const replicationKeys = {
  all: ['replications'] as const,
  runs: (query: string) => ['replications', 'runs', query] as const,
  output: (id: string) => ['replications', 'output', id] as const,
};

export function useReplications(refetchInterval: number | false = false) {
  return useQuery({
    queryKey: replicationKeys.all,
    queryFn: () => apiFetch<Replication[]>(BASE),
    refetchInterval,
  });
}

export interface RunFilter {
  from: number;
  to: number;
  status: string[];
  repo: string[];
  deployment: string[];
  strategy?: 'push' | 'pull' | undefined;
}

export function useRuns(filter: RunFilter, refetchInterval: number | false = false) {
  const query = new URLSearchParams({ from: String(filter.from), to: String(filter.to), limit: '500' });
  if (filter.status.length) query.set('status', filter.status.join(','));
  if (filter.repo.length) query.set('repo', filter.repo.join(','));
  if (filter.deployment.length) query.set('deployment', filter.deployment.join(','));
  if (filter.strategy) query.set('strategy', filter.strategy);
  const text = query.toString();
  return useQuery({
    queryKey: replicationKeys.runs(text),
    queryFn: () => apiFetch<ReplicationRun[]>(`${BASE}/runs?${text}`),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useRunOutput(id: string | undefined) {
  return useQuery({
    queryKey: replicationKeys.output(id ?? ''),
    queryFn: () => apiFetch<{ run: ReplicationRun; output: string }>(`${BASE}/runs/${encodeURIComponent(id!)}`),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.run.status === 'running' ? 1000 : false),
  });
}

export function useReplicationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: replicationKeys.all });
  return {
    create: useMutation({
      mutationFn: (body: ReplicationBody) => apiFetch<Replication>(BASE, { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: (body: ReplicationBody) =>
        apiFetch<Replication>(`${BASE}/${encodeURIComponent(body.key)}`, { method: 'PUT', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (key: string) =>
        apiFetch<{ message: string }>(`${BASE}/${encodeURIComponent(key)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    run: useMutation({
      mutationFn: (key: string) =>
        apiFetch<{ message: string; run_id: string }>(`${BASE}/${encodeURIComponent(key)}/run`, { method: 'POST' }),
      onSuccess: refresh,
    }),
  };
}
