import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/monitoring/service-status',
    admin: true,
    menuKey: 'service-status',
    menu: {
      order: 88,
      key: 'service-status',
      minRank: 1,
      label: 'Service Status',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'Nodes of this deployment, their services and heartbeats',
      adminOnly: true,
    },
    page: () => import('./pages/service-status-page'),
    component: 'ServiceStatusPage',
  },
];
