import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ArchivePolicy,
  ArchivePolicyBody,
  ArchiveRestoreBody,
  ArchiveSearch,
  ArchiveSearchAnswer,
  Execution,
  ExecutionItem,
  PreviewAnswer,
  StorageInfo,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { retentionKeys } from './keys';

/** The retention calls, under the console's API base (spec part 2 §7.8). */
const BASE = 'ui/retention';
const policy = (key: string) => `${BASE}/archive/policies/${encodeURIComponent(key)}`;
/** Runs under way are followed every two seconds. */
const FOLLOW_MS = 2000;
const under = (executions: Execution[] | undefined) => executions?.some((e) => e.endedAt === null) ?? false;

export const usePolicies = () =>
  useQuery({
    queryKey: retentionKeys.policies,
    queryFn: () => apiFetch<ArchivePolicy[]>(`${BASE}/archive/policies`, { background: true }),
    refetchInterval: (query) =>
      query.state.data?.some((p) => p.lastRunStatus && p.lastRunStatus.endedAt === null) ? FOLLOW_MS : false,
  });

export const usePolicy = (key: string | undefined) =>
  useQuery({
    queryKey: retentionKeys.policy(key),
    queryFn: () => apiFetch<ArchivePolicy>(policy(key!)),
    enabled: Boolean(key),
  });

/** Saves a policy: PUT when it exists, POST when it is new (spec part 1 §4). */
export function useSavePolicy(existing: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ArchivePolicyBody) =>
      existing
        ? apiFetch<ArchivePolicy>(policy(existing), { method: 'PUT', body, silent: true })
        : apiFetch<ArchivePolicy>(`${BASE}/archive/policies`, { method: 'POST', body, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiFetch<void>(policy(key), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export function useTriggerPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiFetch<Execution>(`${policy(key)}/trigger`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export function useStopPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiFetch<{ message: string }>(`${policy(key)}/stop`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

export const previewPolicy = (
  body: Pick<ArchivePolicyBody, 'aqlQuery' | 'searchCriteriaForm'>,
  offset: number,
  limit: number,
) =>
  apiFetch<PreviewAnswer>(`${BASE}/archive/policies/preview`, {
    method: 'POST',
    body,
    query: { offset, limit },
    silent: true,
  });

export const convertToAql = (searchCriteriaForm: NonNullable<ArchivePolicyBody['searchCriteriaForm']>) =>
  apiFetch<{ aqlQuery: string }>(`${BASE}/archive/policies/convertToAql`, {
    method: 'POST',
    body: { searchCriteriaForm },
  });

export const useExecutions = (kind: 'archive' | 'restore', from: number, to: number) =>
  useQuery({
    queryKey: retentionKeys.executions(kind, from, to),
    queryFn: () =>
      apiFetch<{ executions: Execution[] }>(`${BASE}/${kind}/executions`, {
        query: { from, to },
        background: true,
      }).then((a) => a.executions),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (under(query.state.data) ? FOLLOW_MS : false),
  });

export const useExecutionItems = (id: string | undefined, state: ExecutionItem['state'] | undefined, offset: number) =>
  useQuery({
    queryKey: retentionKeys.items(id ?? '', state, offset),
    queryFn: () =>
      apiFetch<{ items: ExecutionItem[]; total: number }>(`${BASE}/executions/${id}/items`, {
        query: { state, offset, limit: 50 },
      }),
    enabled: Boolean(id),
    placeholderData: keepPreviousData,
  });

export const useStorageInfo = (from: number, to: number) =>
  useQuery({
    queryKey: retentionKeys.storage(from, to),
    queryFn: () => apiFetch<StorageInfo>(`${BASE}/archive/storageinfo`, { query: { from, to } }),
    placeholderData: keepPreviousData,
  });

export const useLocalRepositories = () =>
  useQuery({
    queryKey: retentionKeys.repositories,
    queryFn: () =>
      apiFetch<{ repoTypesList: { repoKey: string; repoType: string; packageType: string }[] }>(
        `${BASE}/repositories`,
        { query: { search: true } },
      ).then((a) => a.repoTypesList),
  });

/** The archive search: its fields sent as JSON text (spec part 2 §7.8). */
export const useArchiveSearch = (search: ArchiveSearch | undefined) =>
  useQuery({
    queryKey: retentionKeys.search(JSON.stringify(search ?? null)),
    queryFn: () => apiFetch<ArchiveSearchAnswer>(`${BASE}/search`, { method: 'POST', text: JSON.stringify(search) }),
    enabled: search !== undefined,
    placeholderData: keepPreviousData,
  });

export function useRestore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ArchiveRestoreBody) => apiFetch<Execution>(`${BASE}/restore`, { method: 'POST', body }),
    onSettled: () => client.invalidateQueries({ queryKey: retentionKeys.all }),
  });
}

/** The next runs of a schedule, checked by the server (`crontime`). */
export const useCronTime = (cron: string) =>
  useQuery({
    queryKey: retentionKeys.cron(cron),
    queryFn: () =>
      apiFetch<{ nextRuns: number[] }>('ui/crontime', { query: { cron, isReplication: false }, silent: true }),
    enabled: cron.trim().length > 0,
    retry: false,
  });
