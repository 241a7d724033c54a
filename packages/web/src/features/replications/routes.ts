import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/mission_control/replications/:jpuID?',
    admin: true,
    menuKey: 'replications',
    title: 'Replications',
    menu: {
      order: 66,
      key: 'replications',
      minRank: 1,
      label: 'Replications',
      sidebar: 'administration',
      group: 'Platform Management',
      description: 'Repositories pushed to or pulled from other deployments, with their runs',
      adminOnly: true,
    },
    page: () => import('./pages/replications-page'),
    component: 'ReplicationsPage',
  },
];
