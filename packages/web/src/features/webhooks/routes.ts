import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/configuration/webhooks',
    admin: true,
    menuKey: 'webhooks',
    menu: {
      order: 73,
      key: 'webhooks',
      minRank: 1,
      label: 'Webhooks',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Send deploys, builds and changes to other systems as signed JSON requests',
      adminOnly: true,
    },
    page: () => import('./pages/webhooks-page'),
    component: 'WebhooksPage',
  },
  {
    path: '/admin/configuration/webhooks/new',
    admin: true,
    menuKey: 'webhooks',
    title: 'New Webhook',
    page: () => import('./pages/webhook-form-page'),
    component: 'WebhookFormPage',
  },
  {
    path: '/admin/configuration/webhooks/edit/:webhookName',
    admin: true,
    menuKey: 'webhooks',
    title: 'Edit Webhook',
    page: () => import('./pages/webhook-form-page'),
    component: 'WebhookFormPage',
  },
  {
    path: '/admin/configuration/webhooks/:webhookName/deliveries',
    admin: true,
    menuKey: 'webhooks',
    title: 'Webhook deliveries',
    page: () => import('./pages/webhook-deliveries-page'),
    component: 'WebhookDeliveriesPage',
  },
];
