import type { TableName } from '../../db/schema.js';
/** What the composition root uses of the webhooks feature: it imports this module only. */
export { webhooksRoutes } from './webhooks.routes.js';
export { registerWebhookDelivery, type WebhookDelivery } from './webhooks.delivery.js';
export { webhooksUsingProxy } from './webhooks.service.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
] as const satisfies readonly TableName[];
