import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginRelatedData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function getLoginRelatedData(): Promise<LoginRelatedData> {
  return apiFetch<LoginRelatedData>('ui/auth/loginRelatedData', {
    method: 'POST',
    body: { dummy: 'dummy' },
    silent: true,
  });
}

export const loginRelatedDataQuery = () =>
  queryOptions({ queryKey: ['auth', 'loginRelatedData'], queryFn: getLoginRelatedData, staleTime: 60_000 });

export function useLoginRelatedData() {
  return useQuery(loginRelatedDataQuery());
}
