import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const currentUserKey = ['auth', 'current'] as const;

export function getCurrentUser(options: { background?: boolean } = {}): Promise<UserData> {
  return apiFetch<UserData>('ui/auth/current', { silent: true, ...options });
}

export const currentUserQuery = () =>
  queryOptions({ queryKey: currentUserKey, queryFn: () => getCurrentUser(), staleTime: 30_000 });

export function useCurrentUser() {
  return useQuery(currentUserQuery());
}
