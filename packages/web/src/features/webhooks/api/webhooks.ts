import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookAnswer,
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookDeliveryDetail,
  WebhookSubscriptionInput,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { webhooksKeys } from './keys';

/** The Event service calls, under the console's API base (spec part 2 §7.13). */
const BASE = 'event/api/v1';
const subscription = (key: string) => `${BASE}/subscriptions/${encodeURIComponent(key)}`;

/** The webhooks (`enabled: false` where the user may not list them: no call is made). */
export const useWebhooks = (enabled = true) =>
  useQuery({
    queryKey: webhooksKeys.list,
    queryFn: () => apiFetch<WebhookAnswer[]>(`${BASE}/subscriptions`),
    enabled,
  });

export const useWebhook = (key: string | undefined) =>
  useQuery({
    queryKey: webhooksKeys.one(key),
    queryFn: () => apiFetch<WebhookAnswer>(subscription(key!)),
    enabled: Boolean(key),
  });

export function useSaveWebhook(existing: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookSubscriptionInput) =>
      existing
        ? apiFetch<WebhookAnswer>(subscription(existing), { method: 'PUT', body })
        : apiFetch<WebhookAnswer>(`${BASE}/subscriptions`, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => apiFetch<void>(subscription(key), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

/** Turns a webhook on or off: its answer sent back with the switch changed (the masked secret keeps the stored one). */
export function useToggleWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ hook, enabled }: { hook: WebhookAnswer; enabled: boolean }) =>
      apiFetch<WebhookAnswer>(subscription(hook.key), {
        method: 'PUT',
        body: {
          description: hook.description,
          enabled,
          event_filter: hook.event_filter as WebhookSubscriptionInput['event_filter'],
          handlers: hook.handlers,
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}

export const testWebhook = (body: WebhookSubscriptionInput) =>
  apiFetch<{ status: number; message: string }>(`${BASE}/subscriptions/test`, { method: 'POST', body, silent: true });

export const useDeliveries = (key: string, query: WebhookDeliveriesQuery) =>
  useQuery({
    queryKey: webhooksKeys.deliveries(key, query),
    queryFn: () =>
      apiFetch<WebhookDeliveriesPage>(`${subscription(key)}/deliveries`, {
        query: query as Record<string, string | number | undefined>,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });

export const useDelivery = (key: string, id: string | undefined) =>
  useQuery({
    queryKey: webhooksKeys.delivery(key, id),
    queryFn: () => apiFetch<WebhookDeliveryDetail>(`${subscription(key)}/deliveries/${encodeURIComponent(id!)}`),
    enabled: Boolean(id),
  });

export function useResend(key: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string | undefined) =>
      apiFetch<{ message: string; count: number }>(
        id
          ? `${subscription(key)}/deliveries/${encodeURIComponent(id)}/resend`
          : `${subscription(key)}/deliveries/resend`,
        { method: 'POST' },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: webhooksKeys.all }),
  });
}
