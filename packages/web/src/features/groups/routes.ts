import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    id: 'admin.management.groups',
    path: '/admin/management/groups',
    admin: true,
    menuKey: 'groups',
    menu: {
      order: 39,
      key: 'groups',
      minRank: 1,
      label: 'Groups',
      sidebar: 'administration',
      group: 'User Management',
      description: 'Give rights to many users at once',
      adminOnly: true,
      service: 'access',
    },
    page: () => import('./pages/groups-page'),
    component: 'GroupsPage',
  },
  {
    id: 'admin.management.groups.new',
    path: '/admin/management/groups/new',
    admin: true,
    menuKey: 'groups',
    page: () => import('./pages/groups-page'),
    component: 'GroupsPage',
  },
  {
    id: 'admin.management.groups.edit',
    path: '/admin/management/groups/edit/:name',
    admin: true,
    menuKey: 'groups',
    page: () => import('./pages/groups-page'),
    component: 'GroupsPage',
  },
];
