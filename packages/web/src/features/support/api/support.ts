import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SUPPORT_BUNDLE_REFRESH_MS,
  type SupportBundle,
  type SupportBundleBody,
  type SupportBundlesAnswer,
} from '@arca/contracts';
import { API_BASE, apiFetch } from '../../../api/client';
import { supportKeys } from './keys';

/** The bundles, newest first; refreshed every 3 s while one is being made (spec part 2 §9). */
export function useBundles() {
  return useQuery({
    queryKey: supportKeys.bundles,
    // support bundle errors are log-only (spec part 2 §8): the page shows its own load error
    queryFn: () => apiFetch<SupportBundlesAnswer>('ui/userSupport/listBundles', { silent: true }),
    refetchInterval: (query) =>
      query.state.data?.bundles.some((b) => b.status === 'in progress') ? SUPPORT_BUNDLE_REFRESH_MS : false,
  });
}

export function useCreateBundle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SupportBundleBody) =>
      apiFetch<SupportBundle>('ui/userSupport/generateBundle', { method: 'POST', body, silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: supportKeys.bundles }),
  });
}

export function useDeleteBundle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`ui/userSupport/deleteBundle/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: supportKeys.bundles }),
  });
}

/** Where a bundle is downloaded: the browser navigates there with its session. */
export const bundleDownloadUrl = (id: string) => `${API_BASE}ui/userSupport/downloadBundle/${id}`;
