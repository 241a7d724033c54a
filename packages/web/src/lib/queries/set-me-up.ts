import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';

export function getSetMeUp(): Promise<{ baseUrl: string }> {
  return apiFetch('ui/setMeUp');
}

export function useSetMeUp() {
  return useQuery({ queryKey: ['setMeUp'], queryFn: getSetMeUp, staleTime: Infinity });
}
