import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  { path: '/admin', admin: true, redirect: '/admin/management/users' },
  {
    path: '/admin/artifactory/list',
    admin: true,
    title: 'Administration',
    page: () => import('./pages/admin-menu-page'),
    component: 'AdminMenuPage',
  },
];
