import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/configuration/backups',
    admin: true,
    menuKey: 'backups',
    menu: {
      order: 85,
      key: 'backups',
      minRank: 1,
      label: 'Backups',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Back the deployment up while it serves; the backups the backup folder holds',
      adminOnly: true,
    },
    page: () => import('./pages/backups-page'),
    component: 'BackupsPage',
  },
];
