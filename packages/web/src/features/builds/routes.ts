import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/builds/:name?/:number?',
    title: 'Builds',
    menuKey: 'builds',
    menu: {
      order: 20,
      key: 'builds',
      label: 'Builds',
      sidebar: 'application',
      minRank: 1,
      description: 'Build runs CI tools published, with their artifacts, dependencies and promotions',
    },
    page: () => import('./pages/builds-page'),
    component: 'BuildsRoute',
  },
];
