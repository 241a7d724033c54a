import type { WebhookDeliveriesQuery } from '@arca/contracts';

/** The webhooks feature's query keys. */
export const webhooksKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  one: (key: string | undefined) => ['webhooks', 'one', key] as const,
  domains: ['webhooks', 'domains'] as const,
  deliveries: (key: string, query?: WebhookDeliveriesQuery) => ['webhooks', 'deliveries', key, query] as const,
  delivery: (key: string, id: string | undefined) => ['webhooks', 'delivery', key, id] as const,
};
