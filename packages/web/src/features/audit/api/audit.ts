import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditCategory, AuditPage } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export interface AuditFilters {
  category?: AuditCategory | undefined;
  outcome?: 'success' | 'failure' | undefined;
  actor?: string | undefined;
  q?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  page: number;
  pageSize: number;
}

export function useAuditEvents(query: AuditFilters) {
  return useQuery({
    queryKey: ['audit', query],
    queryFn: () =>
      apiFetch<AuditPage>('ui/audit', {
        query: { ...query, q: query.q || undefined, actor: query.actor || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}
