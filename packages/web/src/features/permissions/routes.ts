import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    id: 'admin.management.permissions',
    path: '/admin/management/permissions',
    admin: true,
    menuKey: 'permissions',
    menu: {
      order: 42,
      key: 'permissions',
      minRank: 1,
      label: 'Permissions',
      sidebar: 'administration',
      group: 'User Management',
      description: 'Who may read, deploy or delete in which repositories and paths',
      adminOnly: true,
      service: 'access',
    },
    page: () => import('./pages/permissions-page'),
    component: 'PermissionsPage',
  },
  {
    id: 'admin.management.permissions.new',
    path: '/admin/management/permissions/new',
    admin: true,
    menuKey: 'permissions',
    title: 'New Permission',
    page: () => import('./pages/permission-form-page'),
    component: 'PermissionFormPage',
  },
  {
    id: 'admin.management.permissions.edit',
    path: '/admin/management/permissions/edit/:name',
    admin: true,
    menuKey: 'permissions',
    title: 'Edit Permission',
    page: () => import('./pages/permission-form-page'),
    component: 'PermissionFormPage',
  },
];
