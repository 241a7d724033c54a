import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/monitoring/system_logs',
    admin: true,
    menuKey: 'system-logs',
    menu: {
      order: 87,
      key: 'system-logs',
      minRank: 1,
      label: 'System Logs',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'The live logs of every node: service, request and audit',
      adminOnly: true,
    },
    page: () => import('./pages/system-logs-page'),
    component: 'SystemLogsPage',
  },
];
