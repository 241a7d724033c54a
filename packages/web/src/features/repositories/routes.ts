import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    id: 'admin.repositories.list',
    path: '/admin/repositories',
    admin: true,
    menuKey: 'repositories',
    menu: {
      order: 30,
      key: 'repositories',
      label: 'Repositories',
      sidebar: 'administration',
      group: 'Repositories',
      description: 'Local, remote and virtual repositories of every package type',
      adminOnly: true,
      minRank: 1,
      service: 'artifactory',
    },
    page: () => import('./pages/repositories-page'),
    component: 'RepositoriesPage',
  },
  {
    id: 'admin.repositories.new',
    path: '/admin/repositories/new',
    admin: true,
    menuKey: 'repositories',
    page: () => import('./pages/repository-form-page'),
    component: 'RepositoryFormPage',
  },
  {
    id: 'admin.repositories.edit',
    path: '/admin/repositories/edit/:key',
    admin: true,
    menuKey: 'repositories',
    page: () => import('./pages/repository-form-page'),
    component: 'RepositoryFormPage',
  },
  {
    id: 'admin.repositories.layouts',
    path: '/admin/repositories/layouts',
    admin: true,
    menuKey: 'layouts',
    menu: {
      order: 33,
      key: 'layouts',
      label: 'Layouts',
      sidebar: 'administration',
      group: 'Repositories',
      description: 'How each package type lays out its paths',
      adminOnly: true,
      minRank: 1,
    },
    page: () => import('./pages/layouts-page'),
    component: 'LayoutsPage',
  },
];
