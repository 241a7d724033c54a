/** What other features use of the webhooks feature: they import this module only. */
export { webhooksKeys } from './api/keys';
export { useWebhooks } from './api/webhooks';
