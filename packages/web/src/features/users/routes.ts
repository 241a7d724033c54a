import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  // the lists are the menu's pages; their new and edit forms belong to them
  {
    id: 'admin.management.users',
    path: '/admin/management/users',
    admin: true,
    menuKey: 'users',
    menu: {
      order: 36,
      key: 'users',
      minRank: 1,
      label: 'Users',
      sidebar: 'administration',
      group: 'User Management',
      description: 'Who can sign in, and their last login',
      adminOnly: true,
      service: 'access',
    },
    page: () => import('./pages/users-page'),
    component: 'UsersPage',
  },
  {
    id: 'admin.management.users.new',
    path: '/admin/management/users/new',
    admin: true,
    menuKey: 'users',
    page: () => import('./pages/users-page'),
    component: 'UsersPage',
  },
  {
    id: 'admin.management.users.edit',
    path: '/admin/management/users/edit/:name',
    admin: true,
    menuKey: 'users',
    page: () => import('./pages/users-page'),
    component: 'UsersPage',
  },
];
