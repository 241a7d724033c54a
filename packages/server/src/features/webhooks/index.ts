/** What the composition root uses of the webhooks feature: it imports this module only. */
export { webhooksRoutes } from './webhooks.routes.js';
export { registerWebhookDelivery } from './webhooks.delivery.js';
export { webhooksUsingProxy } from './webhooks.service.js';
