import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

export const currentUserKey = authKeys.current;

export function getCurrentUser(options: { background?: boolean } = {}): Promise<UserData> {
  return apiFetch<UserData>('ui/auth/current', { silent: true, ...options });
}

/**
 * Never refetched on its own: login, logout and the idle re-check (after 60 s without activity)
 * are what change it, so that a session ending is handled in one place.
 */
export const currentUserQuery = () =>
  queryOptions({ queryKey: currentUserKey, queryFn: () => getCurrentUser(), staleTime: Infinity });

export function useCurrentUser() {
  return useQuery(currentUserQuery());
}
