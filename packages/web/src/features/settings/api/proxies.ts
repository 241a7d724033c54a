import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProxyAnswer, ProxyInput } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { settingsKeys } from './keys';

export function useProxies() {
  return useQuery({ queryKey: settingsKeys.proxies, queryFn: () => apiFetch<ProxyAnswer[]>('ui/proxies') });
}

export function useProxy(key: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.proxy(key ?? ''),
    queryFn: () => apiFetch<ProxyAnswer>(`ui/proxies/${encodeURIComponent(key!)}`),
    enabled: key !== undefined,
  });
}

/** Creates a proxy (`existing` undefined) or replaces one. */
export function useSaveProxy(existing?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (proxy: ProxyInput) =>
      existing
        ? apiFetch<ProxyAnswer>(`ui/proxies/${encodeURIComponent(existing)}`, {
            method: 'PUT',
            body: proxy,
            silent: true,
          })
        : apiFetch<ProxyAnswer>('ui/proxies', { method: 'POST', body: proxy, silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.proxies }),
  });
}

export function useDeleteProxy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiFetch<void>(`ui/proxies/${encodeURIComponent(key)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.proxies }),
  });
}
