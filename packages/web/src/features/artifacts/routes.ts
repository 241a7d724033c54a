import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/repos/tree/General/*',
    title: 'Artifacts',
    menuKey: 'artifacts',
    menu: {
      order: 18,
      key: 'artifacts',
      label: 'Artifacts',
      sidebar: 'application',
      minRank: 1,
      description: 'Browse repositories, deploy and inspect files',
    },
    page: () => import('./pages/tree-browser-page'),
    component: 'TreeBrowserPage',
  },
];
