import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export const setMeUpKey = ['setMeUp'] as const;

export function getSetMeUp(): Promise<{ baseUrl: string }> {
  return apiFetch('ui/setMeUp');
}

export function useSetMeUp() {
  return useQuery({ queryKey: setMeUpKey, queryFn: getSetMeUp, staleTime: Infinity });
}
