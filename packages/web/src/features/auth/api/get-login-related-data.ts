import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginRelatedData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

export function getLoginRelatedData(): Promise<LoginRelatedData> {
  return apiFetch<LoginRelatedData>('ui/auth/loginRelatedData', {
    method: 'POST',
    body: { dummy: 'dummy' },
    silent: true,
  });
}

export const loginRelatedDataQuery = () =>
  queryOptions({ queryKey: authKeys.loginRelatedData, queryFn: getLoginRelatedData, staleTime: 60_000 });

export function useLoginRelatedData() {
  return useQuery(loginRelatedDataQuery());
}
