import type { TableName } from '../../db/schema.js';
/** What the composition root uses of the webhooks feature: it imports this module only. */
export { webhooksRoutes } from './webhooks.routes.js';
export { registerWebhookDelivery, type WebhookDelivery } from './webhooks.delivery.js';
export { webhooksUsingProxy } from './webhooks.service.js';
import type { Db } from '../../db/database.js';
import { findWebhook } from './webhooks.store.js';

/** The domain a webhook subscribes to, or undefined when there is no such webhook (a policy's rule names webhooks). */
export async function webhookDomain(db: Db, key: string): Promise<string | undefined> {
  return (await findWebhook(db, key))?.domain;
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
] as const satisfies readonly TableName[];
