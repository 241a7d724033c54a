import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GlobalState } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

export const globalStateKey = authKeys.globalState;

export function getGlobalState(): Promise<GlobalState> {
  return apiFetch<GlobalState>('ui/auth/screen/globalState', { silent: true });
}

export const globalStateQuery = () =>
  queryOptions({ queryKey: globalStateKey, queryFn: getGlobalState, staleTime: 60_000 });

export function useGlobalState() {
  return useQuery(globalStateQuery());
}
