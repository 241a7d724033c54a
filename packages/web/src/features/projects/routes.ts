import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/projects',
    admin: true,
    menuKey: 'projects',
    menu: {
      order: 78,
      key: 'projects',
      minRank: 1,
      label: 'Projects',
      sidebar: 'administration',
      group: 'User Management',
      description: 'Repositories and members grouped by project; project admins manage their own',
      adminOnly: true,
      service: 'access',
    },
    page: () => import('./pages/projects-page'),
    component: 'ProjectsPage',
  },
  {
    path: '/projects/:key/:section?',
    title: 'Project Settings',
    page: () => import('./pages/project-settings-page'),
    component: 'ProjectSettingsPage',
  },
];
