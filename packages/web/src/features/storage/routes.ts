import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/monitoring/storage-summary',
    admin: true,
    menuKey: 'storage-summary',
    menu: {
      order: 34,
      key: 'storage-summary',
      label: 'Storage Summary',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'Used space per repository and the deduplication gain',
      adminOnly: true,
      minRank: 1,
    },
    page: () => import('./pages/storage-summary-page'),
    component: 'StorageSummaryPage',
  },
];
