import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LicenseAttach,
  LicenseAttachResult,
  LicenseBucket,
  LicenseBucketAdd,
  LicenseBucketStatus,
  LicenseSplit,
} from '@arca/contracts';
import { API_BASE, apiFetch } from '../../../api/client';

const BASE = 'mc/api/v1/buckets';
export const bucketKeys = {
  all: ['license-buckets'] as const,
  status: (id: string) => ['license-buckets', 'status', id] as const,
};

const at = (id: string, rest = '') => `${BASE}/${encodeURIComponent(id)}${rest}`;

export function useBuckets() {
  return useQuery({ queryKey: bucketKeys.all, queryFn: () => apiFetch<LicenseBucket[]>(BASE, { silent: true }) });
}

export function useBucketStatus(id: string) {
  return useQuery({
    queryKey: bucketKeys.status(id),
    queryFn: () => apiFetch<LicenseBucketStatus>(at(id, '/status'), { silent: true }),
  });
}

/** Where the browser downloads a bucket's file from (the session cookie is enough for a GET). */
export const downloadUrl = (id: string) => `${API_BASE}${at(id, '/download')}`;

/** The bucket's signed key, read from its file. */
export async function bucketKey(id: string): Promise<string> {
  const file = await apiFetch<{ key: string }>(at(id, '/download'));
  return file.key;
}

export function useBucketActions() {
  const client = useQueryClient();
  // every bucket's counts may change: a split moves licenses, a delete returns them
  const refresh = () => client.invalidateQueries({ queryKey: bucketKeys.all });
  return {
    add: useMutation({
      mutationFn: (body: LicenseBucketAdd) => apiFetch<LicenseBucket>(BASE, { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiFetch<void>(at(id), { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    split: useMutation({
      mutationFn: ({ id, body }: { id: string; body: LicenseSplit }) =>
        apiFetch<LicenseBucket>(at(id, '/split'), { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
    attach: useMutation({
      mutationFn: ({ id, body }: { id: string; body: LicenseAttach }) =>
        apiFetch<LicenseAttachResult>(at(id, '/attach'), { method: 'POST', body, silent: true }),
      onSuccess: refresh,
    }),
  };
}
