import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IntegrationGroup, VcsIntegration, VcsIntegrationForm, VcsTestResult, VcsVendor } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const integrationKeys = {
  all: ['integrations'] as const,
  groups: ['integrations', 'groups'] as const,
  vendor: (vendor: string, service?: string) => ['integrations', 'vendor', vendor, service ?? ''] as const,
};

export function useIntegrationGroups() {
  return useQuery({
    queryKey: integrationKeys.groups,
    queryFn: () => apiFetch<IntegrationGroup[]>('integration/getIntegrations', { silent: true }),
  });
}

export function useVendorIntegrations(vendor: VcsVendor, service?: string) {
  return useQuery({
    queryKey: integrationKeys.vendor(vendor, service),
    queryFn: () =>
      apiFetch<VcsIntegration[]>(`integration/${vendor}`, { query: { serviceName: service }, silent: true }),
  });
}

type Saved = VcsIntegration & { message: string };

export function useIntegrationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: integrationKeys.all });
  return {
    test: useMutation({
      mutationFn: (form: VcsIntegrationForm) =>
        apiFetch<VcsTestResult>('integration/test', { method: 'POST', body: form, silent: true }),
    }),
    create: useMutation({
      mutationFn: (form: VcsIntegrationForm) =>
        apiFetch<Saved>('integration', { method: 'POST', body: form, silent: true }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ key, form }: { key: string; form: VcsIntegrationForm }) =>
        apiFetch<Saved>(`integration/${encodeURIComponent(key)}`, { method: 'PUT', body: form, silent: true }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (key: string) =>
        apiFetch<{ message: string }>(`integration/${encodeURIComponent(key)}`, { method: 'DELETE', silent: true }),
      onSuccess: refresh,
    }),
  };
}
