import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/bundles',
    id: 'distribution.main',
    title: 'Release Bundles',
    menuKey: 'bundles',
    menu: {
      order: 20.5,
      key: 'bundles',
      label: 'Release Bundles',
      sidebar: 'application',
      minRank: 1,
      description: 'Signed, immutable releases promoted through environments',
    },
    page: () => import('./pages/bundles-page'),
    component: 'BundlesPage',
  },
  {
    path: '/bundles/source',
    title: 'New Release Bundle',
    menuKey: 'bundles',
    page: () => import('./pages/create-bundle-page'),
    component: 'CreateBundlePage',
  },
  {
    path: '/bundles/:name/:version?',
    title: 'Release Bundle',
    menuKey: 'bundles',
    page: () => import('./pages/bundle-version-page'),
    component: 'BundleVersionPage',
  },
  {
    path: '/admin/environments',
    admin: true,
    menuKey: 'environments',
    title: 'Environments',
    menu: {
      order: 67,
      key: 'environments',
      minRank: 1,
      label: 'Environments',
      sidebar: 'administration',
      group: 'Platform Management',
      description: 'The stages a release is promoted through, and the repositories of each',
      adminOnly: true,
    },
    page: () => import('./pages/environments-page'),
    component: 'EnvironmentsPage',
  },
];
