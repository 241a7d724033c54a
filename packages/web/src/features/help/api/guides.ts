import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export interface Guide {
  id: string;
  title: string;
  summary: string;
  available: boolean;
}

export const helpKeys = {
  guides: ['help', 'guides'] as const,
  guide: (id: string) => ['help', 'guides', id] as const,
};

/** The guides this deployment serves (`ui/docs`). */
export function useGuides() {
  return useQuery({ queryKey: helpKeys.guides, queryFn: () => apiFetch<Guide[]>('ui/docs'), staleTime: 300_000 });
}

export function useGuide(id: string | undefined) {
  return useQuery({
    queryKey: helpKeys.guide(id ?? ''),
    queryFn: () => apiFetch<{ title: string; markdown: string }>(`ui/docs/${encodeURIComponent(id!)}`),
    enabled: id !== undefined,
    staleTime: 300_000,
  });
}
