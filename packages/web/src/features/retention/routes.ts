import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/artifactory/services/retention/policies',
    admin: true,
    menuKey: 'retention',
    menu: {
      order: 81,
      key: 'retention',
      minRank: 1,
      label: 'Retention Policies',
      sidebar: 'administration',
      group: 'Repositories',
      description: 'Move artifacts nobody uses any more to the cold store on a schedule; restore them in a click',
      adminOnly: true,
    },
    page: () => import('./pages/retention-policies-page'),
    component: 'RetentionPoliciesPage',
  },
  {
    path: '/admin/artifactory/services/retention/edit/:id?',
    admin: true,
    menuKey: 'retention',
    title: 'Retention Policy',
    page: () => import('./pages/policy-editor-page'),
    component: 'PolicyEditorPage',
  },
  {
    path: '/admin/artifactory/services/retention/cold_storage_monitoring',
    admin: true,
    menuKey: 'cold-storage',
    menu: {
      order: 83,
      key: 'cold-storage',
      minRank: 1,
      label: 'Cold Storage',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'What the archive holds and how it grew',
      adminOnly: true,
    },
    page: () => import('./pages/cold-storage-page'),
    component: 'ColdStoragePage',
  },
  {
    path: '/artifactoryRetention/search',
    admin: true,
    menuKey: 'retention',
    title: 'Archive Search',
    page: () => import('./pages/archive-search-page'),
    component: 'ArchiveSearchPage',
  },
  { path: '/admin/artifactory/services/retention', redirect: '/admin/artifactory/services/retention/policies' },
];
