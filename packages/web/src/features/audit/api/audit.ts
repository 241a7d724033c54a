import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditCategory, AuditPage } from '@arca/contracts';
import { API_BASE, apiFetch } from '../../../api/client';
import { auditKeys } from './keys';

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
    queryKey: auditKeys.page(query),
    queryFn: () =>
      apiFetch<AuditPage>('ui/audit', {
        query: { ...query, q: query.q || undefined, actor: query.actor || undefined },
      }),
    placeholderData: keepPreviousData,
  });
}

/** The address that downloads the filtered trail (every page) as CSV or JSON. */
export function auditExportUrl(format: 'csv' | 'json', filters: Omit<AuditFilters, 'page' | 'pageSize'>): string {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return `${API_BASE}ui/audit/export?${params}`;
}
