import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/support-zone',
    admin: true,
    menuKey: 'support-zone',
    menu: {
      order: 86,
      key: 'support-zone',
      minRank: 1,
      label: 'Support Zone',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'Support bundles: logs, configuration and system information in one zip',
      adminOnly: true,
    },
    page: () => import('./pages/support-zone-page'),
    component: 'SupportZonePage',
  },
];
