import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/overview',
    title: 'Overview',
    menuKey: 'overview',
    menu: {
      order: 17,
      key: 'overview',
      minRank: 1,
      label: 'Overview',
      sidebar: 'application',
      description: 'License, version and health of this deployment at a glance',
    },
    page: () => import('./pages/overview-page'),
    component: 'OverviewPage',
  },
];
