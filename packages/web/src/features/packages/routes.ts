import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/packages/:packageId?/:versionId?',
    title: 'Packages',
    menuKey: 'packages',
    menu: {
      order: 19,
      key: 'packages',
      label: 'Packages',
      sidebar: 'application',
      minRank: 1,
      description: 'Every package with its versions, readme, dependencies and downloads',
    },
    page: () => import('./pages/packages-page'),
    component: 'PackagesRoute',
  },
];
